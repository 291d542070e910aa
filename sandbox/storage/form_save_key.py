"""`save-key` placeholders of the FORM API (api/form_api.md, "路径设置").

{year} {mon} {day} {hour} {min} {sec}: the upload time in UTC, zero-padded (`/2013/01/01`);
{filemd5}: the file's MD5; {random} / {random32}: 16 or 32 random lowercase letters and
digits; {filename}: the uploaded file's name without its extension, {suffix} the extension,
{.suffix} the extension with its dot (both empty when the name has none). The page's
examples: `/{year}/{mon}/{day}/upload_{random32}{.suffix}` and
`/{year}/{mon}/{day}/{hour}_{min}_{sec}_{filename}{.suffix}` for `sample.jpg`.

Another `{word}` is refused by name (a misspelt placeholder would otherwise become part of
every file's name).
"""

from __future__ import annotations

import re
import secrets
import string
import time

from sandbox.storage import form_errors
from sandbox.storage.errors import StorageError

_PLACEHOLDER = re.compile(r"\{(\.?[a-z0-9]+)\}")
_ALPHABET = string.ascii_lowercase + string.digits
NAMES = ("year", "mon", "day", "hour", "min", "sec", "filemd5", "random", "random32",
         "filename", "suffix", ".suffix")


def check(save_key: str) -> None:
    """Refuse an unknown placeholder before the file is read."""
    for found in _PLACEHOLDER.finditer(save_key):
        if found[1] not in NAMES:
            raise StorageError(form_errors.BAD_REQUEST,
                            f"policy: save-key has the unknown placeholder {found[0]}; known: "
                            + " ".join("{" + name + "}" for name in NAMES))


def expand(save_key: str, *, now: float, file_md5: str, filename: str) -> str:
    """The path `save_key` names for this upload (a leading `/` added when missing)."""
    moment = time.gmtime(now)
    base, dot, suffix = filename.rpartition(".")
    if not dot or not base:  # "README" or ".profile": no extension
        base, suffix = filename, ""
    values = {
        "year": f"{moment.tm_year:04d}", "mon": f"{moment.tm_mon:02d}",
        "day": f"{moment.tm_mday:02d}", "hour": f"{moment.tm_hour:02d}",
        "min": f"{moment.tm_min:02d}", "sec": f"{moment.tm_sec:02d}",
        "filemd5": file_md5, "filename": base, "suffix": suffix,
        ".suffix": f".{suffix}" if suffix else "",
    }

    def value(found: re.Match[str]) -> str:
        name = found[1]
        if name == "random":
            return random_text(16)
        if name == "random32":
            return random_text(32)
        return values[name]

    path = _PLACEHOLDER.sub(value, save_key)
    return path if path.startswith("/") else f"/{path}"


def random_text(size: int) -> str:
    return "".join(secrets.choice(_ALPHABET) for _ in range(size))
