"""The merchant's list of words that must not be sent (sms-and-topup.md: no politically
sensitive or vulgar wording): kept on a page, added one by one or imported one a line, each
change audited; templates are checked against it before they reach the provider."""

from __future__ import annotations

from dataclasses import dataclass

from backoffice.annotations import StaffUser
from backoffice.security.audit import audited
from sms.models import BlockedWord

MAX_WORD_LENGTH = 64
MAX_IMPORT_LINES = 5000


@dataclass(frozen=True)
class WordLineProblem:
    line: int
    code: str  # "too_long"


def parse_word_lines(text: str) -> tuple[list[str], list[WordLineProblem]]:
    """The words of a pasted or uploaded list, one a line (blank lines skipped), and each
    line that cannot be one, by its number."""
    words: list[str] = []
    problems: list[WordLineProblem] = []
    for number, raw in enumerate(text.splitlines()[:MAX_IMPORT_LINES], start=1):
        word = raw.strip()
        if not word:
            continue
        if len(word) > MAX_WORD_LENGTH:
            problems.append(WordLineProblem(number, "too_long"))
        elif word.casefold() not in {known.casefold() for known in words}:
            words.append(word)
    return words, problems


@audited("sms", "words.add", lambda words, by: (
    None, f"{len(words)} words: {', '.join(words)[:400]}", by))
def add_words(words: list[str], by: StaffUser | None) -> int:
    """Adds the words not on the list yet (case-insensitively); returns how many."""
    known = {word.casefold() for word in BlockedWord.objects.values_list("word", flat=True)}
    new = [BlockedWord(word=word, added_by=by) for word in words if word.casefold() not in known]
    BlockedWord.objects.bulk_create(new)
    return len(new)


@audited("sms", "words.remove", lambda word, by: (None, f"word {word.word!r}", by))
def remove_word(word: BlockedWord, by: StaffUser | None) -> None:
    word.delete()


def listed_words() -> list[str]:
    """Every word of the list (an import's lines are checked against them)."""
    return list(BlockedWord.objects.values_list("word", flat=True))


def blocked_word_in(**texts: str) -> tuple[str, str] | None:
    """(word, field) of the first listed word found in the texts, case-insensitively."""
    words = list(BlockedWord.objects.values_list("word", flat=True))
    for field, value in texts.items():
        folded = value.casefold()
        for word in words:
            if word.casefold() in folded:
                return word, field
    return None
