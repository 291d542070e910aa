"""The merchant's word list: words that must not be sent, added one by one or imported one a
line (a pasted list), removed after a question; templates holding one are refused before they
reach the provider. Reading needs `access_sms`; changes need `manage_templates`."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from backoffice.annotations import StaffRequest
from backoffice.security.confirm import Confirmation, confirmation_page, confirmed
from sms import services
from sms.models import BlockedWord
from sms.views.access import MANAGE_TEMPLATES, abilities, needs


class WordsForm(forms.Form):
    words = forms.CharField(
        label=gettext_lazy("Words, one a line"), max_length=200_000,
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text=gettext_lazy("Paste a list to import it; words already on the list are "
                               "skipped. Letter case does not matter."))


@needs()
def word_list(request: StaffRequest) -> HttpResponse:
    form = WordsForm(request.POST or None)
    if request.method == "POST":
        if not request.user.has_perm(MANAGE_TEMPLATES):
            return render(request, "403.html", status=403)
        if form.is_valid():
            words, problems = services.parse_word_lines(form.cleaned_data["words"])
            for problem in problems:
                form.add_error("words", _("Line %(line)s: a word has at most %(max)s "
                                          "characters.") % {"line": problem.line,
                                                            "max": services.MAX_WORD_LENGTH})
            if not problems and not words:
                form.add_error("words", _("No word given: every line is empty."))
            if form.is_valid():
                added = services.add_words(words, request.user)
                messages.success(request, ngettext(
                    "%(added)s word added to the list (%(known)s already on it).",
                    "%(added)s words added to the list (%(known)s already on it).", added)
                    % {"added": added, "known": len(words) - added})
                return redirect("sms:words")
    return render(request, "sms/word_list.html", {
        "form": form, "words": BlockedWord.objects.select_related("added_by"),
        **abilities(request.user)}, status=400 if form.errors else 200)


@require_POST
@needs(MANAGE_TEMPLATES)
def word_remove(request: StaffRequest, pk: int) -> HttpResponse:
    word = get_object_or_404(BlockedWord, pk=pk)
    if not confirmed(request):
        return confirmation_page(request, Confirmation(
            question=_("Take “%(word)s” off the word list?") % {"word": word.word},
            consequences=[_("Templates holding it are no longer refused for it.")],
            button=_("Take it off the list"),
            back_url=reverse("sms:words"),
        ))
    services.remove_word(word, request.user)
    messages.success(request, _("“%(word)s” is off the word list.") % {"word": word.word})
    return redirect("sms:words")
