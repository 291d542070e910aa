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

    def int(self, name: builtins.str, default: int, minimum: int | None = None,
            maximum: int | None = None) -> int:
        value = self.raw(name)
        if value is None:
            return default
        try:
            number = int(value)
        except ValueError:
            raise ImproperlyConfigured(f"{name}: expected an integer, got {value!r}") from None
        if minimum is not None and number < minimum:
            raise ImproperlyConfigured(f"{name}: must be at least {minimum}, got {number}")
        if maximum is not None and number > maximum:
            raise ImproperlyConfigured(f"{name}: must be at most {maximum}, got {number}")
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

    def mapping(
        self, name: builtins.str, keys: Iterable[builtins.str]
    ) -> dict[builtins.str, builtins.str]:
        """`key=http(s)://...` pairs, comma-separated; every key one of `keys`, at most once."""
        value = self.raw(name)
        allowed = tuple(keys)
        found: dict[builtins.str, builtins.str] = {}
        for item in (value or "").split(","):
            if not item.strip():
                continue
            key, sep, url = (part.strip() for part in item.partition("="))
            if not sep or key not in allowed or key in found:
                raise ImproperlyConfigured(
                    f"{name}: expected key=URL pairs with keys among {', '.join(allowed)}, "
                    f"each once, got {item.strip()!r}")
            scheme, colon_slashes, rest = url.partition("://")
            if not colon_slashes or scheme not in ("http", "https") or not rest:
                raise ImproperlyConfigured(f"{name}: {key}: expected an http(s) URL, got {url!r}")
            found[key] = url
        return found

    def fernet_keys(self, name: builtins.str) -> builtins.list[builtins.str]:
        """Comma-separated Fernet keys (32 url-safe base64 bytes each), newest first."""
        import base64
        import binascii

        keys = self.list(name, [])
        for position, key in enumerate(keys, start=1):
            try:
                valid = len(base64.urlsafe_b64decode(key.encode())) == 32
            except (binascii.Error, ValueError):
                valid = False
            if not valid:
                raise ImproperlyConfigured(
                    f"{name}: key {position} is not a Fernet key (make one with "
                    "`python -c 'from cryptography.fernet import Fernet; "
                    "print(Fernet.generate_key().decode())'`)")
        return keys
