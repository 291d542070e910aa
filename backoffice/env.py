"""Strict reading of the environment.

django-environ parses values, but it quietly turns an unknown boolean such as `DEBUG=maybe`
into False. A back-office that handles money must refuse to start on a value it does not
understand, and say which variable is wrong.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable
from typing import Any, overload

import environ
from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off"}


class StrictEnv:
    """Typed accessors that raise ImproperlyConfigured naming the variable on a bad value."""

    def __init__(self) -> None:
        self._env = environ.Env()

    def raw(self, name: str) -> str | None:
        value = self._env.str(name, default=None)
        return None if value is None or value.strip() == "" else value.strip()

    @overload
    def str(self, name: builtins.str, default: builtins.str) -> builtins.str: ...
    @overload
    def str(self, name: builtins.str, default: None = None) -> builtins.str | None: ...
    def str(self, name: builtins.str, default: builtins.str | None = None) -> builtins.str | None:
        value = self.raw(name)
        return default if value is None else value

    def bool(self, name: builtins.str, default: bool) -> bool:
        value = self.raw(name)
        if value is None:
            return default
        lowered = value.lower()
        if lowered in TRUE_WORDS:
            return True
        if lowered in FALSE_WORDS:
            return False
        raise ImproperlyConfigured(
            f"{name}: expected a boolean (true/false, 1/0, yes/no, on/off), got {value!r}"
        )

    def int(self, name: builtins.str, default: int, minimum: int | None = None) -> int:
        value = self.raw(name)
        if value is None:
            return default
        try:
            number = int(value)
        except ValueError:
            raise ImproperlyConfigured(f"{name}: expected an integer, got {value!r}") from None
        if minimum is not None and number < minimum:
            raise ImproperlyConfigured(f"{name}: must be at least {minimum}, got {number}")
        return number

    def choice(
        self, name: builtins.str, choices: Iterable[builtins.str], default: builtins.str
    ) -> builtins.str:
        value = self.raw(name)
        allowed = list(choices)
        if value is None:
            return default
        if value not in allowed:
            raise ImproperlyConfigured(
                f"{name}: expected one of {', '.join(allowed)}, got {value!r}"
            )
        return value

    def list(self, name: builtins.str, default: list[builtins.str]) -> list[builtins.str]:
        value = self.raw(name)
        if value is None:
            return default
        return [item.strip() for item in value.split(",") if item.strip()]

    def url(
        self, name: builtins.str, schemes: Iterable[builtins.str],
        default: builtins.str | None = None,
    ) -> builtins.str | None:
        value = self.raw(name)
        if value is None:
            return default
        allowed = tuple(schemes)
        scheme, sep, rest = value.partition("://")
        if not sep or scheme not in allowed or not rest:
            raise ImproperlyConfigured(
                f"{name}: expected a URL starting with {' or '.join(s + '://' for s in allowed)},"
                f" got {value!r}"
            )
        return value

    def database(self, name: builtins.str, default: builtins.str) -> dict[builtins.str, Any]:
        value = self.url(name, ("postgres", "postgresql", "pgsql", "sqlite"), default)
        assert value is not None
        try:
            config: dict[builtins.str, Any] = environ.Env.db_url_config(value)
            return config
        except Exception as error:  # django-environ raises several types on a bad URL
            raise ImproperlyConfigured(f"{name}: cannot parse {value!r}: {error}") from None
