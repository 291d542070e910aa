"""The media pages' forms: every field checked before anything is sent, each error naming it.

The rules mirror `media.client`'s own checks (which stay as a second net) and add what a
person needs: outputs that do not overwrite their source, playlists that are playlists, an
image name whose suffix agrees with the chosen format.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from media import paths
from media.models import JobKind, JobState
from media.timecode import BadTimePoint, normalise_point

MAX_PICTURE_SIDE = 4096
MIN_PLAYLISTS = 2
MAX_PLAYLISTS = 100
IMAGE_FORMATS = (("jpg", "JPG"), ("png", "PNG"), ("webp", "WebP"))
SUFFIX_FORMATS = {".jpg": "jpg", ".jpeg": "jpg", ".png": "png", ".webp": "webp"}
_SIZE = re.compile(r"\s*([0-9]+)\s*[xX×]\s*([0-9]+)\s*")

PATH_MESSAGES = {
    "required": _("Enter a storage path."),
    "too_long": _("A storage path is at most %(max)s characters."),
    "not_absolute": _("A storage path starts with /, e.g. /videos/clip.mp4."),
    "folder": _("This is a folder; give the path of a file."),
    "control": _("A storage path cannot contain control characters."),
    "empty_segment": _("A storage path cannot contain //."),
    "dots": _("A storage path cannot contain . or .. segments."),
}


def clean_path(value: str) -> str:
    try:
        return paths.check_path(value)
    except paths.PathProblem as problem:
        raise forms.ValidationError(PATH_MESSAGES[str(problem)], code=str(problem),
                                    params={"max": paths.MAX_PATH_LENGTH}) from None


def clean_playlist_path(value: str) -> str:
    path = clean_path(value)
    if not paths.is_playlist(path):
        raise forms.ValidationError(_("This is not an M3U8 playlist (its name must end in "
                                      ".m3u8)."), code="not_playlist")
    return path


class PathField(forms.CharField):
    """A storage path inside the bucket, checked by `media.paths`."""

    def __init__(self, *, playlist: bool = False, **kwargs: Any) -> None:
        # Length is checked by media.paths, with a message about paths.
        kwargs.setdefault("error_messages", {"required": PATH_MESSAGES["required"]})
        kwargs.setdefault("widget", forms.TextInput(attrs={
            "spellcheck": "false", "autocomplete": "off",
            "placeholder": "/folder/playlist.m3u8" if playlist else "/folder/video.mp4"}))
        super().__init__(**kwargs)
        self.playlist = playlist

    def clean(self, value: Any) -> str:
        value = super().clean(value)
        if not value and not self.required:
            return ""
        return clean_playlist_path(value) if self.playlist else clean_path(value)


def _require_distinct(form: forms.Form, save_as: str | None, sources: list[str]) -> None:
    if save_as and save_as in sources:
        form.add_error("save_as", _("The result would overwrite its source; choose another "
                                    "name."))


# --- Info ------------------------------------------------------------------------------------


class InfoForm(forms.Form):
    READ_AS = (
        ("auto", _("Decide by the name (.m3u8 is a playlist)")),
        ("playlist", _("M3U8 playlist: duration and segment points")),
        ("media", _("Audio or video file: format and streams")),
    )

    path = PathField(label=_("File"))
    read_as = forms.ChoiceField(label=_("Read as"), choices=READ_AS, initial="auto")

    def as_playlist(self) -> bool | None:
        return {"auto": None, "playlist": True, "media": False}[self.cleaned_data["read_as"]]


# --- Snapshot --------------------------------------------------------------------------------


class SnapshotForm(forms.Form):
    source = PathField(label=_("Video or playlist"))
    point = forms.CharField(
        label=_("Time point"), max_length=12, initial="00:00:00",
        help_text=_("HH:MM:SS from the start of the video."),
        widget=forms.TextInput(attrs={"placeholder": "00:00:05", "inputmode": "numeric"}),
    )
    size = forms.CharField(
        label=_("Size"), required=False, max_length=20,
        help_text=_("<width>x<height> in pixels, e.g. 320x180; empty keeps the video's size."),
        widget=forms.TextInput(attrs={"placeholder": "320x180"}),
    )
    image_format = forms.ChoiceField(
        label=_("Format"), required=False,
        choices=(("", _("From the name's suffix")), *IMAGE_FORMATS),
    )
    save_as = PathField(label=_("Save as"),
                        help_text=_("Storage path of the image, e.g. /snapshots/frame.jpg."))

    def clean_point(self) -> str:
        try:
            return normalise_point(self.cleaned_data["point"])
        except BadTimePoint:
            raise forms.ValidationError(
                _("Enter the time as HH:MM:SS, e.g. 00:01:30 (minutes and seconds below 60)."),
                code="invalid") from None

    def clean_size(self) -> str:
        text = self.cleaned_data["size"]
        if not text.strip():
            return ""
        match = _SIZE.fullmatch(text)
        if not match:
            raise forms.ValidationError(
                _("Enter the size as <width>x<height>, e.g. 320x180."), code="invalid")
        width, height = int(match[1]), int(match[2])
        if not (1 <= width <= MAX_PICTURE_SIDE and 1 <= height <= MAX_PICTURE_SIDE):
            raise forms.ValidationError(
                _("Width and height must each be between 1 and %(max)s pixels.") % {
                    "max": MAX_PICTURE_SIDE}, code="out_of_range")
        return f"{width}x{height}"

    def clean(self) -> dict[str, Any]:
        super().clean()  # returns cleaned_data, typed as possibly None
        data = self.cleaned_data
        save_as, chosen = data.get("save_as"), data.get("image_format")
        if save_as:
            implied = SUFFIX_FORMATS.get(paths.suffix_of(save_as))
            if not chosen and not implied:
                self.add_error("save_as", _("End the name with .jpg, .png or .webp, or choose "
                                            "a format."))
            elif chosen and implied and chosen != implied:
                self.add_error("image_format", _(
                    "The name ends in %(suffix)s but the format is %(format)s; make them "
                    "agree.") % {"suffix": paths.suffix_of(save_as), "format": chosen})
            else:
                # .jpeg is a JPEG too: send the format so that the provider need not guess.
                data["image_format"] = chosen or implied
        if data.get("source"):
            _require_distinct(self, save_as, [data["source"]])
        return data


# --- Clip ------------------------------------------------------------------------------------


class ClipForm(forms.Form):
    MODES = (("keep", _("Keep only this span")), ("drop", _("Drop this span, keep the rest")))
    UNITS = (("seconds", _("Seconds")), ("segments", _("Segment numbers (from 0)")))

    m3u8 = PathField(label=_("Playlist"), playlist=True)
    mode = forms.ChoiceField(label=_("What to do"), choices=MODES, initial="keep",
                             widget=forms.RadioSelect)
    unit = forms.ChoiceField(label=_("Span in"), choices=UNITS, initial="seconds",
                             widget=forms.RadioSelect)
    start = forms.DecimalField(
        label=_("From"), min_value=Decimal(0), max_digits=12, decimal_places=3,
        help_text=_("Seconds from the start (e.g. 2.5), or the first segment's number."))
    end = forms.DecimalField(
        label=_("To"), min_value=Decimal(0), max_digits=12, decimal_places=3,
        help_text=_("Seconds, or the last segment's number (that segment included)."))
    save_as = PathField(label=_("Save as"), playlist=True,
                        help_text=_("Storage path of the new playlist."))

    def clean(self) -> dict[str, Any]:
        super().clean()  # returns cleaned_data, typed as possibly None
        data = self.cleaned_data
        start, end = data.get("start"), data.get("end")
        if data.get("unit") == "segments":
            for name in ("start", "end"):
                value = data.get(name)
                if value is not None and value != value.to_integral_value():
                    self.add_error(name, _("Segment numbers are whole numbers."))
        if start is None or end is None or "start" in self.errors or "end" in self.errors:
            pass
        elif data.get("unit") == "segments" and start > end:
            self.add_error("end", _("The last segment cannot come before the first."))
        elif data.get("unit") != "segments" and start >= end:
            self.add_error("end", _("The end must come after the start."))
        if data.get("m3u8"):
            _require_distinct(self, data.get("save_as"), [data["m3u8"]])
        return data

    def span(self) -> tuple[float | int, float | int]:
        """The span as the provider takes it: ints for segment numbers, floats for seconds."""
        start, end = self.cleaned_data["start"], self.cleaned_data["end"]
        if self.cleaned_data["unit"] == "segments":
            return int(start), int(end)
        return float(start), float(end)


# --- Concatenate -----------------------------------------------------------------------------


class PathListWidget(forms.Widget):
    """One text input per playlist, all under the same name, in the order they are shown."""

    def value_from_datadict(self, data: Mapping[str, object], files: Mapping[str, object],
                            name: str) -> list[str]:
        if hasattr(data, "getlist"):
            return list(data.getlist(name))
        value = data.get(name)
        return list(value) if isinstance(value, list | tuple) else []


class PlaylistListField(forms.Field):
    """An ordered list of playlist paths; empty rows are ignored, every other row checked."""

    widget = PathListWidget

    def clean(self, value: Any) -> list[str]:
        rows = [str(row) for row in value or []]
        if len(rows) > MAX_PLAYLISTS * 2:
            raise forms.ValidationError(_("Too many rows."), code="too_many")
        errors: list[forms.ValidationError] = []
        cleaned: list[str] = []
        for number, row in enumerate(rows, start=1):
            if not row.strip():
                continue
            try:
                cleaned.append(clean_playlist_path(row))
            except forms.ValidationError as error:
                errors.append(forms.ValidationError(
                    _("Playlist %(number)s (%(path)s): %(problem)s"),
                    params={"number": number, "path": row.strip()[:80],
                            "problem": " ".join(error.messages)},
                    code="invalid_row"))
        if errors:
            raise forms.ValidationError(errors)
        if len(cleaned) < MIN_PLAYLISTS:
            raise forms.ValidationError(
                _("Choose at least %(min)s playlists to join."), params={"min": MIN_PLAYLISTS},
                code="too_few")
        if len(cleaned) > MAX_PLAYLISTS:
            raise forms.ValidationError(
                _("At most %(max)s playlists can be joined at once."),
                params={"max": MAX_PLAYLISTS}, code="too_many")
        return cleaned


class ConcatForm(forms.Form):
    m3u8s = PlaylistListField(label=_("Playlists, in order"))
    save_as = PathField(label=_("Save as"), playlist=True,
                        help_text=_("Storage path of the joined playlist."))

    def clean(self) -> dict[str, Any]:
        super().clean()  # returns cleaned_data, typed as possibly None
        data = self.cleaned_data
        _require_distinct(self, data.get("save_as"), data.get("m3u8s") or [])
        return data


# --- Job list --------------------------------------------------------------------------------


class JobFilterForm(forms.Form):
    kind = forms.ChoiceField(label=_("Kind"), required=False,
                             choices=(("", _("All kinds")), *JobKind.choices))
    state = forms.ChoiceField(label=_("State"), required=False,
                              choices=(("", _("All states")), *JobState.choices))
    q = forms.CharField(label=_("Path contains"), required=False, max_length=200)
