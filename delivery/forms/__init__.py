"""Forms of the delivery pages. Values are checked by the pure rules (`delivery.rules`) so the
pages and the edge agree; every error names its field."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.forms import BaseModelFormSet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

from console.models import Domain
from delivery import refusals, rules
from delivery.models import DeliverySettings, ImageVersion
from delivery.services import (
    MAX_PATTERNS,
    MAX_PREHEAT_URLS,
    RefreshInputError,
    Signing,
    parse_patterns,
    parse_preheat,
)
from delivery.texts import problem_text, refresh_problem_texts

MAX_VERSIONS = 100
EXPIRY_CHOICES = [
    ("300", _("5 minutes")),
    ("3600", _("1 hour")),
    ("86400", _("1 day")),
    ("604800", _("7 days")),
    ("2592000", _("30 days")),
    ("custom", _("Until a chosen time")),
]
_PRINTABLE = re.compile(r"[\x20-\x7e]*")


def add_link_errors(form: forms.Form, error: rules.LinkError,
                    field_map: dict[str, str] | None = None) -> None:
    """Each problem at its field, or, for a field the form does not have, above the form
    with the field's name."""
    field_map = field_map or {}
    for problem in error.problems:
        target = field_map.get(problem.field, problem.field)
        if target in form.fields:
            form.add_error(target, problem_text(problem))
        else:
            form.add_error(None, problem_text(problem, named=True))


class PathField(forms.CharField):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("label", _("File path"))
        kwargs.setdefault("max_length", 1024)
        kwargs.setdefault("help_text", _("As stored, e.g. /photos/2024/sea.jpg"))
        super().__init__(**kwargs)

    def clean(self, value: object) -> str:
        path: str = super().clean(value).strip()
        problems = rules.check_path(path)
        if problems:
            raise ValidationError([problem_text(p) for p in problems])
        return path


class SigningForm(forms.Form):
    """The expiry picker and `_upp` level shared by every link that may be signed."""

    expires_in = forms.ChoiceField(label=_("Valid for"), choices=EXPIRY_CHOICES,
                                   initial="3600")
    expires_at = forms.DateTimeField(
        label=_("Valid until"), required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
        help_text=_("Local time; used when “Until a chosen time” is picked."))
    upp = forms.IntegerField(
        label=_("Directory level (_upp)"), required=False, min_value=0, max_value=20,
        help_text=_("Sign the first N directories only, so one token opens every file "
                    "below them; empty signs the full path."))

    def signing_enabled(self) -> bool:
        return True

    def clean(self) -> dict[str, Any]:
        super().clean()  # returns cleaned_data, typed as possibly None
        data = self.cleaned_data
        if not self.signing_enabled():
            return data
        if not data.get("expires_in"):
            self.add_error("expires_in", _("Choose how long the link stays valid."))
        elif data.get("expires_in") == "custom":
            moment = data.get("expires_at")
            if moment is None:
                self.add_error("expires_at", _("Pick the time the link stops working."))
            elif moment <= timezone.now():
                self.add_error("expires_at", _("Pick a time in the future."))
        return data

    def signing(self, now: datetime | None = None) -> Signing | None:
        if not self.signing_enabled():
            return None
        data = self.cleaned_data
        if data["expires_in"] == "custom":
            etime = int(data["expires_at"].timestamp())
        else:
            etime = int((now or timezone.now()).timestamp()) + int(data["expires_in"])
        return Signing(etime, data.get("upp"))


class OptionalSigningForm(SigningForm):
    sign = forms.BooleanField(label=_("Add a token (_upt)"), required=False)

    def __init__(self, *args: Any, may_sign: bool = False, token_protection: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.may_sign = may_sign
        self.token_protection = token_protection
        if not may_sign:
            for name in ("sign", "expires_in", "expires_at", "upp"):
                del self.fields[name]
        else:
            # Only needed when a token is asked for; `clean` checks it then.
            self.fields["expires_in"].required = False
            # With token protection on, the edge refuses a link without a token: signing is
            # the default, and leaving it out a deliberate choice.
            self.fields["sign"].initial = token_protection

    def refused_by_edge(self) -> bool:
        """True when the built link carries no token although the edge demands one."""
        return self.token_protection and not self.signing_enabled()

    def signing_enabled(self) -> bool:
        return self.may_sign and bool(self.cleaned_data.get("sign"))


class SignedLinkForm(SigningForm):
    path = PathField()
    suffix = forms.CharField(
        label=_("Suffix"), required=False, max_length=400,
        help_text=_("Optional: a version or processing suffix, e.g. !thumb or !/fw/300."))
    field_order = ["path", "suffix", "expires_in", "expires_at", "upp"]


class SecretLinkForm(OptionalSigningForm):
    path = PathField()
    secret = forms.CharField(label=_("File secret"), max_length=100,
                             help_text=_("The Content-Secret the file was stored with."))
    field_order = ["path", "secret", "sign", "expires_in", "expires_at", "upp"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["may_sign"] = True
        super().__init__(*args, **kwargs)


class DownloadLinkForm(OptionalSigningForm):
    path = PathField()
    name = forms.CharField(
        label=_("Download as"), required=False, max_length=200,
        help_text=_("Empty keeps the file's own name (_upd=true); Chinese names are fine."))
    field_order = ["path", "name", "sign", "expires_in", "expires_at", "upp"]


class CacheBypassForm(OptionalSigningForm):
    path = PathField()
    upv = forms.CharField(label=_("Version (_upv)"), max_length=2, min_length=2,
                          help_text=_("Two digits, 00 to 99; change it to fetch a fresh copy."))
    field_order = ["path", "upv", "sign", "expires_in", "expires_at", "upp"]

    def clean_upv(self) -> str:
        value: str = self.cleaned_data["upv"].strip()
        problems = rules.check_upv(value)
        if problems:
            raise ValidationError(problem_text(problems[0]))
        return value


class CombineForm(OptionalSigningForm):
    directory = forms.CharField(label=_("Folder"), max_length=1024, initial="/",
                                help_text=_("e.g. /static/js"))
    # A declared field: the form's metaclass moves it into base_fields, so it does not
    # replace BaseForm.files (the uploads), which is all the stubs can see.
    files = forms.CharField(  # type: ignore[assignment]
        label=_("Files"), widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("One file name of that folder a line, in order."))
    field_order = ["directory", "files", "sign", "expires_in", "expires_at", "upp"]

    def file_list(self) -> list[str]:
        text = self.cleaned_data["files"]
        return [name.strip() for line in text.splitlines() for name in [line] if name.strip()]


class ImageForm(OptionalSigningForm):
    """The image URL builder: a custom version (optionally followed by parameters), or URL
    parameters with every key of the spec's table (empty keys are left out) and one text or
    image watermark (cloud/image.md)."""

    MODE_VERSION = "version"
    MODE_PARAMS = "params"
    path = PathField()
    mode = forms.ChoiceField(
        label=pgettext_lazy("image processing", "Processing"), widget=forms.RadioSelect,
        initial=MODE_PARAMS,
        choices=[(MODE_PARAMS, _("URL parameters")), (MODE_VERSION, _("Custom version"))])
    version = forms.ChoiceField(label=_("Version"), required=False)
    version_params = forms.CharField(
        label=_("Parameters after the version"), required=False, max_length=1000,
        help_text=_("Optional, e.g. /fw/80: they replace the version's keys of the same name."),
        widget=forms.TextInput(attrs={"placeholder": "/fw/80"}))
    wm_text = forms.CharField(label=_("Watermark text"), required=False,
                              max_length=rules.MAX_WATERMARK_TEXT)
    wm_image = forms.CharField(label=_("Watermark image"), required=False, max_length=1024,
                               help_text=_("Path of an image of the same service, e.g. "
                                           "/marks/logo.png"))
    wm_font = forms.ChoiceField(label=_("Watermark font"), required=False,
                                choices=[("", "—")] + [(f, f) for f in rules.FONTS])
    wm_size = forms.CharField(label=_("Watermark text size"), required=False, max_length=10,
                              help_text=_("Pixels, 1 to 1000 (32 when empty)"))
    wm_color = forms.CharField(label=_("Watermark text colour"), required=False, max_length=10,
                               help_text=_("RRGGBB (000000 when empty)"))
    wm_align = forms.ChoiceField(label=_("Watermark position"), required=False,
                                 choices=[("", "—")] + [(g, g) for g in rules.GRAVITIES])
    wm_margin = forms.CharField(label=_("Watermark margin"), required=False, max_length=20,
                                help_text=_("<x>x<y> pixels (20x20 when empty)"))
    wm_opacity = forms.CharField(label=_("Watermark opacity"), required=False, max_length=10,
                                 help_text=_("0 to 100 (100, opaque, when empty)"))

    # The watermark fields and the key each stands for; a problem of that key goes to it.
    WATERMARK_FIELDS = {"wm_font": "font", "wm_size": "size", "wm_color": "color",
                        "wm_align": "align", "wm_margin": "margin", "wm_opacity": "opacity"}
    PROBLEM_FIELDS = {"watermark/text": "wm_text", "watermark/url": "wm_image",
                      **{key: name for name, key in WATERMARK_FIELDS.items()}}

    def __init__(self, *args: Any, domain: Domain | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        names = list(ImageVersion.objects.filter(domain=domain).values_list("name", "params"))
        cast(forms.ChoiceField, self.fields["version"]).choices = [("", "—")] + [
            (name, f"{name} ({params})") for name, params in names]
        for key in rules.IMAGE_KEYS:
            self.fields[f"key_{key.name}"] = image_key_field(key)
        for name, word in [("wm_text", "watermark/text"), ("wm_image", "watermark/url"),
                           *self.WATERMARK_FIELDS.items()]:
            self.fields[name].api_word = word  # type: ignore[attr-defined]  # _field.html

    def key_fields(self) -> list[forms.BoundField]:
        return [self[f"key_{key.name}"] for key in rules.IMAGE_KEYS]

    def watermark_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in ("wm_text", "wm_image", *self.WATERMARK_FIELDS)]

    def pairs(self) -> list[tuple[str, str]]:
        data = self.cleaned_data
        pairs = [(key.name, data[f"key_{key.name}"]) for key in rules.IMAGE_KEYS
                 if data.get(f"key_{key.name}")]
        return pairs + self._watermark_pairs()

    def version_pairs(self) -> list[tuple[str, str]]:
        """The parameters after the version, read in `clean`."""
        return list(self.cleaned_data.get("version_pairs") or [])

    def _watermark_pairs(self) -> list[tuple[str, str]]:
        data = self.cleaned_data
        text, image = data.get("wm_text") or "", (data.get("wm_image") or "").strip()
        pairs: list[tuple[str, str]] = []
        if text.strip():
            pairs.append(("watermark", f"text/{rules.encode_watermark(text)}"))
        elif image:
            pairs.append(("watermark", f"url/{rules.encode_watermark(image)}"))
        for name, key in self.WATERMARK_FIELDS.items():
            value = (data.get(name) or "").strip()
            if value:
                pairs.append((key, value.upper() if key == "color" else value))
        return pairs

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("mode") == self.MODE_VERSION:
            if not data.get("version"):
                self.add_error("version", _("Choose a version."))
            self._clean_version_params(data)
            return data
        self._check_watermark_choice(data)
        for problem in rules.check_image_params(self.pairs()):
            target = self.PROBLEM_FIELDS.get(problem.field, f"key_{problem.field}")
            if target in self.fields:
                self.add_error(target, problem_text(problem))
            else:
                self.add_error(None, problem_text(problem, named=True))
        return data

    def _clean_version_params(self, data: dict[str, Any]) -> None:
        text = (data.get("version_params") or "").strip()
        if not text:
            return
        try:
            data["version_pairs"] = rules.parse_image_params(text)
        except rules.LinkError as error:
            for problem in error.problems:  # several keys in one field: each names its key
                self.add_error("version_params", problem_text(problem, named=True))

    def _check_watermark_choice(self, data: dict[str, Any]) -> None:
        if (data.get("wm_text") or "").strip() and (data.get("wm_image") or "").strip():
            self.add_error("wm_image", _("Give a watermark text or a watermark image, not "
                                         "both."))


# The readable name of each processing key; the key itself is shown beside it in small type.
KEY_LABELS = {
    "sq": _("Square"), "fw": _("Fixed width"), "fh": _("Fixed height"),
    "fwfh": _("Fit inside"), "fwfh2": _("Cover at least"), "both": _("Exact size"),
    "max": _("Longest side"), "min": _("Shortest side"), "fxfn": _("Fit long and short sides"),
    "fxfn2": _("Cover long and short sides"), "scale": _("Scale"),
    "wscale": _("Scale the width"), "hscale": _("Scale the height"),
    "fp": _("Pixel count"), "gifto": _("Animated GIF to one frame"),
    "rotate": _("Rotation"), "flip": _("Flip"), "crop": _("Crop"),
    "clip": _("Crop after scaling"), "gravity": _("Crop position"),
    "roundrect": _("Rounded corners"), "unsharp": _("Sharpen"),
    "compress": _("Optimise size"), "quality": _("Quality"), "format": _("Output format"),
    "lossless": _("Lossless WebP"), "coalesce": _("Fill animated GIF frames"),
    "noicc": _("Remove the colour profile"), "strip": _("Remove all metadata"),
    "exifswitch": _("Keep EXIF"), "ignore-error": _("Original on error"),
    "gaussblur": _("Gaussian blur"), "progressive": _("Progressive loading"),
    "canvas": _("Canvas"), "cvscolor": _("Canvas colour"), "border": _("Border"),
    "brdcolor": _("Border colour"), "force": _("Allow enlarging"),
    "gdori": _("Gradient direction"), "gdpos": _("Gradient from, to"),
    "gdstartcolor": _("Gradient start colour"), "gdstopcolor": _("Gradient end colour"),
    "excolor": _("Theme colours"), "exformat": _("Theme colour format"),
}
# What each key's value looks like, where the label alone does not say.
KEY_HELP = {
    "sq": _("Side in pixels"), "fw": _("Pixels"), "fh": _("Pixels"),
    "fwfh": _("<w>x<h>"), "fwfh2": _("<w>x<h>"), "both": _("<w>x<h>"),
    "fxfn": _("<long>x<short>"), "fxfn2": _("<long>x<short>"),
    "force": _("Lets the size operations enlarge; exact size stretches instead of cropping"),
    "max": _("Pixels"), "min": _("Pixels"), "scale": _("Percent, 1 to 1000 (above 100 enlarges)"),
    "wscale": _("Percent, 1 to 1000"), "hscale": _("Percent, 1 to 1000"),
    "fp": _("Width × height at most, 1 to 25000000"),
    "crop": _("<w>x<h>a<x>a<y>, before scaling"), "clip": _("<w>x<h>a<x>a<y>, after scaling"),
    "gravity": _("Where the crop box starts (northwest when empty)"),
    "roundrect": _("Corner radius in pixels"), "rotate": _("auto, or degrees 1 to 360"),
    "quality": _("1 to 99"), "gaussblur": _("<radius>x<sigma>"),
    "canvas": _("<w>x<h>a<x>a<y>, or <w>x<h> to centre"), "cvscolor": _("RRGGBBAA"),
    "border": _("<w>x<h>"), "brdcolor": _("RRGGBBAA"), "gdpos": _("<start>,<end> in pixels"),
    "gdstartcolor": _("RRGGBBAA"), "gdstopcolor": _("RRGGBBAA"),
    "excolor": _("1 to 4096; the answer is the colours as JSON"),
}


def image_key_field(key: rules.ImageKey) -> forms.Field:
    """A field for one processing key: choices as selects, the rest as free text checked by
    `rules.check_image_value`. `api_word` (the key) is shown beside the readable label."""
    label = KEY_LABELS.get(key.name, key.name)
    help_text = KEY_HELP.get(key.name, "")
    field: forms.Field
    if key.shape == "bool":
        field = forms.ChoiceField(label=label, required=False, help_text=help_text,
                                  choices=[("", "—"), ("true", _("yes")), ("false", _("no"))])
    elif key.shape == "choice":
        field = forms.ChoiceField(label=label, required=False, help_text=help_text,
                                  choices=[("", "—")] + [(c, c) for c in key.choices])
    else:
        field = forms.CharField(label=label, required=False, max_length=40,
                                help_text=help_text,
                                widget=forms.TextInput(attrs={"data-image-key": key.name}))
    field.api_word = key.name  # type: ignore[union-attr]  # read by _field.html
    return field


# --- settings ---------------------------------------------------------------------------------


def _check_list(found: refusals.ReadList[Any], field_label: str, limit: int = 0) -> None:
    """Every problem of a line list, each naming the field, its line and value."""
    texts = {
        "not_ip": _("is neither an IP address nor a network (e.g. 10.11.12.13, 10.11.12.0/24)"),
        "bad_wildcard": _("“*” stands only for whole trailing octets, as in 10.11.12.*"),
        "not_host_pattern": _("is not a host name; letters, digits, “-”, “.” and “*” (any "
                              "run of characters), e.g. example.com or *.example.com"),
        "not_printable": _("only printable ASCII characters can be matched"),
    }
    problems = []
    for problem in found.problems:
        if problem.code == "too_many":
            reason = ngettext("at most %(limit)s entry", "at most %(limit)s entries",
                              limit) % {"limit": limit}
        else:
            reason = str(texts[problem.code])
        problems.append(_("%(field)s, line %(line)s: “%(value)s”: %(reason)s.") % {
            "field": field_label, "line": problem.line, "value": problem.value,
            "reason": reason})
    if problems:
        raise ValidationError(problems)


class DeliverySettingsForm(forms.ModelForm[DeliverySettings]):
    class Meta:
        model = DeliverySettings
        fields = [
            "token_protection", "separator", "html_minify", "combine_js_css",
            "param_follow", "referer_mode", "referer_domains", "referer_allow_empty",
            "ip_blacklist", "ua_whitelist", "cors_allow_origin", "cors_allow_methods",
            "cors_allow_headers", "cors_expose_headers", "cors_max_age",
        ]
        widgets = {
            "referer_domains": forms.Textarea(attrs={"rows": 3}),
            "ip_blacklist": forms.Textarea(attrs={"rows": 3}),
            "ua_whitelist": forms.Textarea(attrs={"rows": 3}),
        }

    def clean_referer_domains(self) -> str:
        text: str = self.cleaned_data["referer_domains"]
        _check_list(refusals.read_host_patterns(text), str(_("Referer domains")))
        return text

    def clean_ip_blacklist(self) -> str:
        text: str = self.cleaned_data["ip_blacklist"]
        _check_list(refusals.read_ip_ban(text), str(_("IP blacklist")),
                    refusals.MAX_IP_BAN)
        return text

    def clean_ua_whitelist(self) -> str:
        text: str = self.cleaned_data["ua_whitelist"]
        _check_list(refusals.read_user_agents(text), str(_("User-Agent whitelist")),
                    refusals.MAX_USER_AGENTS)
        return text

    def clean_cors_max_age(self) -> str:
        value: str = self.cleaned_data["cors_max_age"].strip()
        if value and not (value.isdigit() and int(value) <= 2_147_483_647):
            raise ValidationError(_("Access-Control-Max-Age: a number of seconds."))
        return value

    def clean(self) -> dict[str, Any]:
        super().clean()  # returns cleaned_data, typed as possibly None
        data = self.cleaned_data
        for name in ("cors_allow_origin", "cors_allow_methods", "cors_allow_headers",
                     "cors_expose_headers"):
            value = data.get(name, "")
            if value and not _PRINTABLE.fullmatch(value):
                self.add_error(name, _("Only printable ASCII characters can be sent in a "
                                       "header."))
        if data.get("referer_mode") not in (None, "off") and not (
                data.get("referer_domains") or "").strip():
            self.add_error("referer_domains", _("List at least one domain for this Referer "
                                                "check."))
        return data


class ImageVersionForm(forms.ModelForm[ImageVersion]):
    """One version of the page's domain; names are unique per domain (checked here, since the
    domain is not a field of the form)."""

    class Meta:
        model = ImageVersion
        fields = ["name", "params"]
        widgets = {"params": forms.TextInput(attrs={"placeholder": "/fw/300/format/webp"})}

    def __init__(self, *args: Any, domain: Domain | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.domain = domain
        if domain is not None and self.instance.pk is None:
            self.instance.domain = domain

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"].strip()
        problems = rules.check_version_name(name)
        if problems:
            raise ValidationError(problem_text(problems[0]))
        taken = ImageVersion.objects.filter(domain=self.domain, name=name).exclude(
            pk=self.instance.pk)
        if self.domain is not None and taken.exists():
            raise ValidationError(_("This domain already has a version of that name."))
        return name

    def clean_params(self) -> str:
        text = self.cleaned_data["params"]
        try:
            return rules.image_params_text(rules.parse_image_params(text))
        except rules.LinkError as error:
            # One field holds every key: each problem names its key (fw: ...).
            raise ValidationError([problem_text(p, named=True) for p in error.problems]) from None


class BaseImageVersionFormSet(BaseModelFormSet[ImageVersion, "ImageVersionForm"]):
    def clean(self) -> None:
        super().clean()
        names = [form.cleaned_data.get("name") for form in self.forms
                 if form.cleaned_data and not form.cleaned_data.get("DELETE")]
        names = [name for name in names if name]
        if len(names) > MAX_VERSIONS:
            raise ValidationError(_("At most %(n)s image versions.") % {"n": MAX_VERSIONS})


ImageVersionFormSet = forms.modelformset_factory(
    ImageVersion, form=ImageVersionForm, formset=BaseImageVersionFormSet, extra=1,
    can_delete=True)


# --- rule sets ----------------------------------------------------------------------------------


class PurgeForm(forms.Form):
    urls = forms.CharField(
        label=_("URLs"), widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        help_text=_("One full URL a line, e.g. http://cdn.example.com/photos/a.jpg; at most "
                    "600 a minute."))


class RefreshItemsForm(forms.Form):
    """Rule refresh (`patterns=True`: `*` patterns, at most 10) or preheat (whole URLs, at
    most 50): every line on a domain of the page's domain's service, checked at the field."""

    items = forms.CharField(widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}))

    def __init__(self, *args: Any, domain: Domain, patterns: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.domain = domain
        self.patterns = patterns
        field = self.fields["items"]
        if patterns:
            field.label = _("Patterns")
            field.help_text = _(
                "One URL a line, “*” standing for any run of characters, e.g. "
                "http://%(domain)s/images/*.jpg; at most %(limit)s.") % {
                "domain": domain.name, "limit": MAX_PATTERNS}
        else:
            field.label = _("URLs")
            field.help_text = _(
                "One full URL a line, e.g. http://%(domain)s/index.html; at most %(limit)s.") % {
                "domain": domain.name, "limit": MAX_PREHEAT_URLS}

    def clean_items(self) -> list[str]:
        text = str(self.cleaned_data["items"])
        try:
            if self.patterns:
                return parse_patterns(text, self.domain)
            return parse_preheat(text, self.domain)
        except RefreshInputError as error:
            raise ValidationError(refresh_problem_texts(
                error.problems, patterns=self.patterns)) from None


# The rule set editor's forms, in a module of their own; `delivery.forms` stays the one place
# to import a form from.
from delivery.forms.rulesets import (  # noqa: E402
    MAX_TEST_ADDRESSES,
    BaseRuleFormSet,
    RuleForm,
    RuleFormSet,
    RuleSetForm,
)

__all__ = ["MAX_TEST_ADDRESSES", "BaseRuleFormSet", "RuleForm", "RuleFormSet", "RuleSetForm"]
