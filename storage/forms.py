"""Forms of the storage pages. Every value is checked by `storage.rules` (the spec's rules) and
refused with a translated sentence naming the field, before anything reaches the provider."""

from __future__ import annotations

from typing import Any, cast
from urllib.parse import quote

from django import forms
from django.utils.functional import Promise
from django.utils.html import format_html
from django.utils.translation import gettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from delivery import services as delivery_services
from storage import paths, rules
from storage.services import UploadOptions, is_private
from storage.texts import gmkerl_text, private_text, problem_text

TEXT = {"autocomplete": "off", "spellcheck": "false"}

# Readable names of the provider's thumbnail types (x-gmkerl-type), from the spec's wording.
THUMBNAIL_TYPE_LABELS: dict[str, Promise] = {
    "fix_width": _("Fixed width (height follows)"),
    "fix_height": _("Fixed height (width follows)"),
    "fix_width_or_height": _("Fit inside (never enlarged)"),
    "fix_both": _("Exact size (stretched)"),
    "fix_max": _("Longest side"),
    "fix_min": _("Shortest side"),
    "fix_scale": _("Percentage (1-1000)"),
}


def _choices(values: tuple[str, ...], blank: str | Promise) -> list[tuple[str, str | Promise]]:
    return [("", blank), *((value, value) for value in values)]


def _folder_path(value: str) -> str:
    try:
        folder = paths.canonical(value.strip() or paths.ROOT)
    except rules.RuleViolation as violation:
        raise forms.ValidationError([problem_text(p) for p in violation.problems]) from None
    if is_private(folder):
        raise forms.ValidationError(private_text(folder))
    return folder


class UploadOptionsForm(forms.Form):
    """Upload headers: x-gmkerl-* image preprocessing and the lifetime.

    Field names map to headers in GMKERL_FIELDS; empty fields send nothing (provider defaults).
    """

    folder = forms.CharField(label=_("Folder"), max_length=1024, required=False)
    thumb_type = forms.ChoiceField(
        label=_("Thumbnail type"),
        required=False,
        choices=_choices(rules.GMKERL_TYPES, pgettext_lazy("storage", "none")),
        widget=forms.RadioSelect,
        help_text=_(
            "“Fit inside” and “Exact size” take <width>x<height>; the others a number."
        ),
    )
    thumb_value = forms.CharField(
        label=_("Thumbnail value"), required=False, max_length=32, widget=forms.TextInput(TEXT)
    )
    quality = forms.CharField(
        label=_("Quality (1-100)"), required=False, max_length=8,
        widget=forms.TextInput({**TEXT, "inputmode": "numeric", "placeholder": "95"}),
    )
    rotate = forms.CharField(
        label=_("Rotate (auto, or degrees clockwise)"), required=False, max_length=16,
        widget=forms.TextInput(TEXT),
    )
    crop = forms.CharField(
        label=_("Crop (<w>x<h>a<x>a<y>)"), required=False, max_length=64,
        widget=forms.TextInput({**TEXT, "placeholder": "200x100a10a20"}),
    )
    exif_switch = forms.BooleanField(
        label=_("Keep EXIF (with crop or a thumbnail type only)"), required=False
    )
    watermark_text = forms.CharField(
        label=_("Watermark text"), required=False, max_length=200,
        help_text=_("Plain text; it is URL-encoded for you."),
    )
    watermark_font = forms.ChoiceField(
        label=_("Watermark font"), required=False,
        choices=_choices(rules.WATERMARK_FONTS, _("default (simsun)")),
    )
    watermark_size = forms.CharField(
        label=_("Watermark size (pixels)"), required=False, max_length=8,
        widget=forms.TextInput({**TEXT, "inputmode": "numeric", "placeholder": "32"}),
    )
    watermark_align = forms.ChoiceField(
        label=_("Watermark position"), required=False,
        choices=[("", _("default (top,left)"))]
        + [(f"{v},{h}", f"{v},{h}") for v in rules.VALIGNS for h in rules.HALIGNS],
    )
    watermark_margin = forms.CharField(
        label=_("Watermark margin (x,y)"), required=False, max_length=16,
        widget=forms.TextInput({**TEXT, "placeholder": "20,20"}),
    )
    watermark_opacity = forms.CharField(
        label=_("Watermark opacity (0-100)"), required=False, max_length=8,
        widget=forms.TextInput({**TEXT, "inputmode": "numeric", "placeholder": "0"}),
        help_text=_("0 is opaque (the default), 100 fully transparent."),
    )
    watermark_color = forms.CharField(
        label=_("Watermark colour (#RRGGBB)"), required=False, max_length=16,
        widget=forms.TextInput({**TEXT, "placeholder": "#000000"}),
    )
    watermark_border = forms.CharField(
        label=_("Watermark border (#RRGGBBAA)"), required=False, max_length=16,
        widget=forms.TextInput({**TEXT, "placeholder": "#cccccccc"}),
    )
    thumb = forms.CharField(
        label=_("Thumbnail version or processing"), required=False, max_length=200,
        widget=forms.TextInput({**TEXT, "placeholder": "/fw/300/quality/80/format/png"}),
        help_text=_(
            "A version name (small), image parameters as in image URLs "
            "(/fw/300/format/webp), or both (small/fw/500)."
        ),
    )
    unsharp = forms.ChoiceField(
        label=_("Sharpen after scaling"), required=False,
        choices=[("", pgettext_lazy("sharpen", "default (on)")),
                 ("true", pgettext_lazy("sharpen", "on")),
                 ("false", pgettext_lazy("sharpen", "off"))],
    )
    extract_colours = forms.BooleanField(label=_("Extract theme colours"), required=False)
    extract_count = forms.CharField(
        label=_("Theme colours to extract (1-4096)"), required=False, max_length=8,
        widget=forms.TextInput({**TEXT, "inputmode": "numeric", "placeholder": "256"}),
    )
    extract_format = forms.ChoiceField(
        label=_("Theme colour format"), required=False, initial="hex",
        choices=[("hex", _("hexadecimal (0xRRGGBB)")), ("dec", _("decimal"))],
    )
    ttl_days = forms.CharField(
        label=_("Lifetime in days (1-180, empty: kept)"), required=False, max_length=8,
        widget=forms.TextInput({**TEXT, "inputmode": "numeric"}),
    )

    GMKERL_FIELDS = {
        "thumb_type": "x-gmkerl-type",
        "thumb_value": "x-gmkerl-value",
        "quality": "x-gmkerl-quality",
        "rotate": "x-gmkerl-rotate",
        "crop": "x-gmkerl-crop",
        "exif_switch": "x-gmkerl-exif-switch",
        "watermark_text": "x-gmkerl-watermark-text",
        "watermark_font": "x-gmkerl-watermark-font",
        "watermark_size": "x-gmkerl-watermark-size",
        "watermark_align": "x-gmkerl-watermark-align",
        "watermark_margin": "x-gmkerl-watermark-margin",
        "watermark_opacity": "x-gmkerl-watermark-opacity",
        "watermark_color": "x-gmkerl-watermark-color",
        "watermark_border": "x-gmkerl-watermark-border",
        "thumb": "x-gmkerl-thumb",
        "unsharp": "x-gmkerl-unsharp",
    }
    # Sent only when theme colours are asked for (the tick box).
    EXTRACT_FIELDS = {
        "extract_count": "x-gmkerl-extract-color-count",
        "extract_format": "x-gmkerl-extract-format",
    }
    WATERMARK_SETTINGS = (
        "watermark_font", "watermark_size", "watermark_align", "watermark_margin",
        "watermark_opacity", "watermark_color", "watermark_border",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Built per form, in the reader's language: a readable name with the provider's word
        # in small type, so people who know the API still find it.
        types = cast(forms.ChoiceField, self.fields["thumb_type"])
        types.choices = [("", pgettext("storage", "none"))] + [
            (value, format_html('{} <small class="api-word"><code>{}</code></small>',
                                THUMBNAIL_TYPE_LABELS[value], value))
            for value in rules.GMKERL_TYPES
        ]

    def clean_folder(self) -> str:
        return _folder_path(self.cleaned_data.get("folder") or "")

    def clean(self) -> dict[str, Any]:
        super().clean()  # returns cleaned_data, typed as possibly None
        data = self.cleaned_data
        gmkerl = self._gmkerl_headers(data)
        field_of = {header: name for name, header in
                    (*self.GMKERL_FIELDS.items(), *self.EXTRACT_FIELDS.items())}
        for problem in rules.check_gmkerl(gmkerl):
            name = field_of.get(problem.field)
            self.add_error(name, gmkerl_text(problem, gmkerl.get("x-gmkerl-type")))
        if "x-gmkerl-thumb" in gmkerl and "thumb" not in self.errors:
            # The image builder's rule: the same strings are accepted on both pages.
            for text in delivery_services.thumb_problems(gmkerl["x-gmkerl-thumb"]):
                self.add_error("thumb", text)
        if data.get("watermark_text", "") == "" and any(
            data.get(name) for name in self.WATERMARK_SETTINGS
        ):
            self.add_error(
                "watermark_text", gettext("Give a watermark text, or clear the watermark settings.")
            )
        if (data.get("extract_count") or "").strip() and not data.get("extract_colours"):
            self.add_error("extract_count", gettext(
                "Tick “Extract theme colours”, or clear the number of colours."))
        ttl = (data.get("ttl_days") or "").strip()
        for problem in rules.check_ttl(ttl) if ttl else []:
            self.add_error("ttl_days", problem_text(problem))
        data["gmkerl"] = gmkerl
        return data

    def _gmkerl_headers(self, data: dict[str, Any]) -> dict[str, str]:
        headers: dict[str, str] = {}
        for name, header in self.GMKERL_FIELDS.items():
            value = data.get(name)
            if name == "exif_switch":
                if value:
                    headers[header] = "true"
                continue
            text = (value or "").strip()
            if not text:
                continue
            if name == "watermark_text":
                text = quote(text, safe="")
            headers[header] = text
        if data.get("extract_colours"):
            headers["x-gmkerl-extract-format"] = data.get("extract_format") or "hex"
            count = (data.get("extract_count") or "").strip()
            if count:
                headers["x-gmkerl-extract-color-count"] = count
        return headers

    def options(self) -> UploadOptions:
        """The validated options (call after is_valid())."""
        ttl = (self.cleaned_data.get("ttl_days") or "").strip()
        return UploadOptions(
            gmkerl=dict(self.cleaned_data["gmkerl"]), ttl_days=int(ttl) if ttl else None
        )

    def error_dict(self) -> dict[str, list[str]]:
        return {
            field: [str(message) for message in errors] for field, errors in self.errors.items()
        }

    def error_summary(self) -> list[str]:
        """Every error with the label of its field, for the drop zone (where the fields are
        out of sight)."""
        summary: list[str] = []
        for field, errors in self.errors.items():
            label = self.fields[field].label if field in self.fields else None
            for message in errors:
                summary.append(gettext("%(field)s: %(message)s") % {
                    "field": label, "message": message} if label else str(message))
        return summary


class FolderForm(forms.Form):
    parent = forms.CharField(max_length=1024, required=False, widget=forms.HiddenInput)
    name = forms.CharField(
        label=_("New folder"), max_length=255, widget=forms.TextInput(TEXT)
    )

    def clean_parent(self) -> str:
        return _folder_path(self.cleaned_data.get("parent") or "")

    def clean(self) -> dict[str, Any]:
        super().clean()  # returns cleaned_data, typed as possibly None
        data = self.cleaned_data
        if "parent" in data and data.get("name"):
            try:
                data["path"] = paths.join(data["parent"], data["name"].strip(),
                                          field="folder_name")
            except rules.RuleViolation as violation:
                self.add_error("name", [problem_text(p) for p in violation.problems])
        return data


class DeleteForm(forms.Form):
    """What to delete: `path`, `kind` and `asynchronous`, or one `target` of the form
    `<file|file-async|folder>:<path>` (the listing's buttons share a single form, so that a
    page of 1000 rows does not carry 1000 forms)."""

    TARGETS = {"file": ("file", False), "file-async": ("file", True), "folder": ("folder", False)}

    path = forms.CharField(max_length=1024, required=False, widget=forms.HiddenInput)
    kind = forms.ChoiceField(
        choices=[("file", _("file")), ("folder", _("folder"))],
        required=False,
        widget=forms.HiddenInput,
    )
    asynchronous = forms.BooleanField(label=_("delete in the background"), required=False)
    target = forms.CharField(max_length=1100, required=False, widget=forms.HiddenInput)

    def clean(self) -> dict[str, Any]:
        super().clean()  # returns cleaned_data, typed as possibly None
        data = self.cleaned_data
        target = data.get("target") or ""
        if target:
            prefix, _colon, path = target.partition(":")
            if prefix not in self.TARGETS:
                raise forms.ValidationError(gettext("Choose a file or folder to delete."))
            data["kind"], data["asynchronous"] = self.TARGETS[prefix]
            data["path"] = path
        if not data.get("kind") or not data.get("path"):
            raise forms.ValidationError(gettext("Choose a file or folder to delete."))
        try:
            data["path"] = paths.canonical(data["path"], allow_root=False)
        except rules.RuleViolation as violation:
            raise forms.ValidationError([problem_text(p) for p in violation.problems]) from None
        return data


class DeleteSelectionForm(forms.Form):
    """The entries ticked on a folder page: `selected` values `<file|folder>:<path>`, each a
    direct entry of `folder`. Every bad value is refused with the value named."""

    KINDS = ("file", "folder")
    # A folder page shows at most 1000 entries.
    MAX_SELECTED = 1000

    folder = forms.CharField(max_length=1024, required=False, widget=forms.HiddenInput)

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        data["folder"] = _folder_path(data.get("folder") or "")
        selected = self.data.getlist("selected") if hasattr(self.data, "getlist") else []
        if not selected:
            raise forms.ValidationError(gettext("Tick at least one file or folder to delete."))
        if len(selected) > self.MAX_SELECTED:
            raise forms.ValidationError(gettext(
                "At most %(count)d entries can be deleted at once.") % {
                    "count": self.MAX_SELECTED})
        targets: list[tuple[str, str]] = []
        problems: list[str] = []
        for value in selected:
            kind, _colon, raw = value.partition(":")
            try:
                path = paths.canonical(raw, allow_root=False)
            except rules.RuleViolation as violation:
                problems.extend(f"{value}: {problem_text(p)}" for p in violation.problems)
                continue
            if kind not in self.KINDS:
                problems.append(gettext("%(value)s: not a file or folder of this page.")
                                % {"value": value})
            elif paths.parent_of(path) != data["folder"]:
                problems.append(gettext("%(path)s is not in %(folder)s.")
                                % {"path": path, "folder": data["folder"]})
            elif (kind, path) not in targets:
                targets.append((kind, path))
        if problems:
            raise forms.ValidationError(problems)
        data["targets"] = targets
        return data


class MetadataForm(forms.Form):
    """The metadata editor. `entries` holds one `name=value` per line (names only for delete);
    the lifetime and the secret have their own fields and forms."""

    OPTIONS = [
        ("merge", _("Merge: add these entries, replacing same-named ones")),
        ("replace", _("Replace: these entries become all the metadata (the secret is kept)")),
        ("delete", _("Delete: remove the named entries")),
    ]
    option = forms.ChoiceField(
        label=pgettext_lazy("storage", "Change"),
        choices=OPTIONS,
        initial="merge",
        widget=forms.RadioSelect,
    )
    entries = forms.CharField(
        label=_("Entries"),
        required=False,
        widget=forms.Textarea({**TEXT, "rows": 5, "placeholder": "author=alice\nproject=x-1"}),
        help_text=_(
            "One name=value per line; for Delete, one name per line. Values may be in any "
            "language: they are URL-encoded for you."
        ),
    )
    ttl_days = forms.CharField(
        label=_("Lifetime in days (1-180)"), required=False, max_length=8,
        widget=forms.TextInput({**TEXT, "inputmode": "numeric"}),
    )
    remove_ttl = forms.BooleanField(label=_("Remove the lifetime (Delete only)"), required=False)
    update_last_modified = forms.BooleanField(
        label=_("Also update the last-modified time"), required=False
    )

    def clean(self) -> dict[str, Any]:
        super().clean()  # returns cleaned_data, typed as possibly None
        data = self.cleaned_data
        option = data.get("option")
        entries = self._parse_entries(data.get("entries") or "", option)
        ttl = (data.get("ttl_days") or "").strip()
        if ttl:
            if option == "delete":
                self.add_error(
                    "ttl_days", gettext("Delete removes entries; leave the lifetime empty.")
                )
            for problem in rules.check_ttl(ttl):
                self.add_error("ttl_days", problem_text(problem))
        if data.get("remove_ttl") and option != "delete":
            self.add_error("remove_ttl", gettext("Removing the lifetime needs the Delete option."))
        nothing = not entries and not ttl and not data.get("remove_ttl")
        if option and nothing and option != "replace" and not self.errors:
            self.add_error("entries", gettext("Give at least one entry or a lifetime."))
        if option == "replace" and not entries and not ttl and not self.errors:
            self.add_error(
                "entries",
                gettext("Replace needs at least one entry; use Delete to remove entries."),
            )
        data["parsed_entries"] = entries
        data["ttl"] = int(ttl) if ttl and not self.errors else None
        return data

    def _parse_entries(self, text: str, option: str | None) -> dict[str, str]:
        entries: dict[str, str] = {}
        errors: list[str] = []
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line:
                continue
            if option == "delete":
                name, value = line, "x"
            elif "=" not in line:
                errors.append(gettext("Line %(line)s: write name=value.") % {"line": number})
                continue
            else:
                name, value = (part.strip() for part in line.split("=", 1))
                # Header values must be printable ASCII: other text is URL-encoded for the
                # user (as the watermark text is) and shown decoded on the file's page.
                value = rules.encode_meta_value(value)
            bare = rules.meta_name(name)
            if bare == rules.SECRET_NAME:
                errors.append(gettext(
                    "Line %(line)s: change the secret with the secret form below."
                ) % {"line": number})
                continue
            if bare == rules.TTL_NAME:
                errors.append(gettext(
                    "Line %(line)s: set the lifetime with its own field."
                ) % {"line": number})
                continue
            problems = rules.check_meta_name(name) or (
                [] if option == "delete" else rules.check_meta_value(rules.meta_header(name), value)
            )
            if not problems and bare in entries:
                problems = [rules.Problem(rules.meta_header(name), "duplicate", "")]
            for problem in problems:
                errors.append(gettext("Line %(line)s: %(problem)s") % {
                    "line": number, "problem": problem_text(problem)
                })
            if not problems:
                entries[bare] = value
        if errors:
            self.add_error("entries", errors)
        return entries


class SecretForm(forms.Form):
    secret = forms.CharField(
        label=_("Secret"), required=False, max_length=128, widget=forms.TextInput(TEXT),
        help_text=_(
            "Letters and digits only. The file is then reachable only by URL + separator + "
            "secret."
        ),
    )
    action = forms.ChoiceField(
        choices=[
            ("set", pgettext_lazy("storage", "Set")),
            ("remove", pgettext_lazy("storage", "Remove")),
        ],
        initial="set",
        widget=forms.HiddenInput,
    )

    def clean(self) -> dict[str, Any]:
        super().clean()  # returns cleaned_data, typed as possibly None
        data = self.cleaned_data
        if data.get("action") == "set":
            secret = data.get("secret") or ""
            if not secret:
                self.add_error("secret", gettext("Give the secret to set."))
            else:
                for problem in rules.check_secret(secret):
                    self.add_error("secret", problem_text(problem))
        return data
