"""The form of a copy, move or rename, and the sentences of its refusals.

The form checks what it can alone (a well-formed path, one valid name); the view then asks
`services.plan_transfer`, whose refusals come back at the target field through
`refusal_text`, so that every problem is shown where the person typed, with what they typed.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from storage import paths, rules
from storage.services import TRANSFER_KINDS, TransferRefused, renamed
from storage.texts import private_text, problem_text

TEXT = {"autocomplete": "off", "spellcheck": "false"}


class TransferForm(forms.Form):
    """`path` is the source; `target` the new path (copy, move) or the new name (rename);
    `target_service` the service the target is in, which must be the source's."""

    path = forms.CharField(max_length=1024, widget=forms.HiddenInput)
    action = forms.ChoiceField(choices=[(kind, kind) for kind in TRANSFER_KINDS],
                               widget=forms.HiddenInput)
    target = forms.CharField(label=pgettext_lazy("transfer", "Target"), max_length=1024,
                             widget=forms.TextInput(TEXT))
    target_service = forms.CharField(max_length=255, required=False, widget=forms.HiddenInput)

    LABELS = {"copy": pgettext_lazy("transfer", "Copy to (the new path)"),
              "move": pgettext_lazy("transfer", "Move to (the new path)"),
              "rename": pgettext_lazy("transfer", "New name")}
    HELP = {"copy": _("The full path the copy will have, e.g. /photos/2024/a.jpg."),
            "move": _("The full path it will have, e.g. /photos/2024/a.jpg."),
            "rename": _("A name in the same folder, without “/”.")}

    def __init__(self, *args: Any, action: str = "move", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        chosen = str(self.data.get("action") or action)
        chosen = chosen if chosen in TRANSFER_KINDS else "move"
        self.fields["target"].label = self.LABELS[chosen]
        self.fields["target"].help_text = self.HELP[chosen]

    def clean_path(self) -> str:
        try:
            return paths.canonical(self.cleaned_data["path"], allow_root=False)
        except rules.RuleViolation as violation:
            raise forms.ValidationError([problem_text(p) for p in violation.problems]) from None

    def clean(self) -> dict[str, Any]:
        super().clean()  # returns cleaned_data, typed as possibly None
        data = self.cleaned_data
        source, typed = data.get("path"), (data.get("target") or "").strip()
        if not source or not typed or "target" in self.errors:
            return data
        try:
            if data.get("action") == "rename":
                data["target_path"] = renamed(source, typed)
            else:
                data["target_path"] = paths.canonical(typed, allow_root=False)
        except rules.RuleViolation as violation:
            self.add_error("target", [problem_text(p) for p in violation.problems])
        return data


def refusal_text(refused: TransferRefused, source: str, service_name: str) -> str:
    """Why a copy, move or rename was refused before anything was sent."""
    where = {"path": refused.path, "source": source, "service": service_name,
             "example": paths.join(refused.path, paths.name_of(source))
             if refused.code == "target_is_folder" else ""}
    if refused.code in ("private_source", "private_target"):
        return private_text(refused.path)
    texts = {
        "same_path": gettext("%(path)s is where it already is: choose another path or name."),
        "into_itself": gettext(
            "A folder cannot go into itself or into one of its own subfolders: %(path)s is "
            "inside %(source)s."),
        "other_service": gettext(
            "Files can be copied or moved only within the service %(service)s: the provider "
            "copies inside one bucket. Download them and upload them to the other service."),
        "target_is_folder": gettext(
            "%(path)s is a folder: give the file's own new path, e.g. %(example)s."),
        "target_is_file": gettext(
            "%(path)s is a file: a folder cannot take its place. Choose another path."),
        "parent_is_file": gettext("%(path)s is a file, so nothing can be put inside it."),
        "rename_elsewhere": gettext(
            "A rename keeps the folder: use Move to put it in another folder."),
    }
    return texts.get(refused.code, gettext("This copy or move is not possible.")) % where
