"""A token source for the top-up client tests that records what the client asks of it."""

from __future__ import annotations


class RecordingTokens:
    """Hands out tokens in order and records every refresh it is asked for."""

    def __init__(self, *tokens: str) -> None:
        self._tokens = list(tokens)
        self.refreshed: list[str] = []

    def current(self) -> str:
        return self._tokens[0]

    def refresh(self, rejected: str) -> str:
        self.refreshed.append(rejected)
        self._tokens.pop(0)
        return self._tokens[0]
