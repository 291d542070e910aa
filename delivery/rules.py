"""Pure rules of content-delivery.md: the URL forms of the edge and the checks on their values.

Every builder validates what it is given and raises `LinkError` carrying one `Problem` per
mistake, each naming its field (`path`, `_upp`, `fw`, ...) and a stable `code` with `params`,
so pages translate them (`delivery.texts`) and the command line prints the English message.

Paths are the plain (decoded) names of the files, `/photos/a b.jpg`: the builders percent-encode
them once, from UTF-8, keeping `/` and the unreserved characters, so a `%`, `!` or `?` in a
name is always taken literally (and a `!` in a name cannot be mistaken for the separator).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import quote, urlencode

from delivery.client import MAX_UPP, directory_count, upt_token
from delivery.image_rules import FONTS as FONTS  # re-exported: the pages use rules
from delivery.image_rules import GRAVITIES as GRAVITIES
from delivery.image_rules import IMAGE_KEYS as IMAGE_KEYS
from delivery.image_rules import MAX_WATERMARK_TEXT as MAX_WATERMARK_TEXT
from delivery.image_rules import ImageKey as ImageKey
from delivery.image_rules import check_image_params as check_image_params
from delivery.image_rules import check_image_value as check_image_value
from delivery.image_rules import decode_watermark as decode_watermark
from delivery.image_rules import encode_watermark as encode_watermark
from delivery.image_rules import image_params_text as image_params_text
from delivery.image_rules import parse_image_params as parse_image_params
from delivery.problems import LinkError as LinkError  # re-exported: the app's rules' errors
from delivery.problems import Problem as Problem
from delivery.problems import problem as problem
from delivery.problems import require as require

SEPARATORS = ("!", "-", "_")
COMBINE_MARK = "!!"
COMBINE_KINDS = (".js", ".css")
# A version name is appended after the separator, so it must not contain any separator (and
# the storage secret, which shares the slot, is letters and digits too).
VERSION_NAME = re.compile(r"[A-Za-z0-9]{1,32}")
SECRET = re.compile(r"[A-Za-z0-9]+")
UPV = re.compile(r"[0-9]{2}")
# Characters a download name may not carry: path separators, quotes, controls.
_BAD_NAME_CHARS = re.compile(r'[/\\"\x00-\x1f\x7f]')


# --- paths -----------------------------------------------------------------------------------


def check_path(path: str, field_name: str = "path") -> list[Problem]:
    if not path:
        return [problem(field_name, "required", "a path is required")]
    found = []
    if not path.startswith("/"):
        found.append(problem(field_name, "path_start", "must start with '/'", value=path))
    if path.endswith("/"):
        found.append(problem(field_name, "path_is_folder", "must name a file, not a folder"))
    if "?" in path or "#" in path:
        found.append(problem(field_name, "path_query", "must not contain '?' or '#'"))
    if any(ch in path for ch in "\r\n\t"):
        found.append(problem(field_name, "path_control", "must not contain line breaks or tabs"))
    if any(segment in (".", "..") for segment in path.split("/")):
        found.append(problem(field_name, "path_dots", "must not contain '.' or '..' segments"))
    return found


def encode_path(path: str) -> str:
    """The path as written in a URL: UTF-8 percent-encoding, `/` and unreserved kept."""
    return quote(path, safe="/")


def edge_url(base_url: str, path: str) -> str:
    """`<delivery_url><encoded path>` for a file path; raises LinkError on a bad path."""
    require(check_path(path))
    return base_url.rstrip("/") + encode_path(path)


def with_query(url: str, params: Sequence[tuple[str, str]]) -> str:
    """`url` with `params` appended (`?` or `&`), each value percent-encoded from UTF-8."""
    if not params:
        return url
    joiner = "&" if "?" in url else "?"
    return url + joiner + urlencode(list(params), quote_via=quote, safe="")


def split_url(url: str) -> tuple[str, str]:
    """(base up to the path's start, path with query) of an absolute or root-relative URL."""
    match = re.match(r"^(https?://[^/?#]+)?(/[^#]*)?$", url)
    if match is None or match.group(2) is None:
        raise LinkError([problem("url", "url_shape", "must be http(s)://host/path or /path")])
    return match.group(1) or "", match.group(2)


# --- token protection (_upt, _upp) ------------------------------------------------------------


def check_upp(upp: int | None, uri: str) -> list[Problem]:
    """`_upp` must be 0 to 20 and no deeper than the path's directories: the edge would then
    sign the full URI, which is never what someone choosing a level meant."""
    if upp is None:
        return []
    if not 0 <= upp <= MAX_UPP:
        return [problem("_upp", "upp_range", "must be from 0 to 20", value=upp)]
    depth = directory_count(uri)
    if upp > depth:
        return [
            problem("_upp", "upp_depth", "is deeper than the path", value=upp, depth=depth)
        ]
    return []


def token_params(
    uri: str, secret: str, etime: int, upp: int | None = None
) -> list[tuple[str, str]]:
    """The query items of a signed link for the encoded `uri` (path without query)."""
    found = check_upp(upp, uri)
    if etime <= 0:
        found.append(problem("etime", "etime", "must be a UNIX time in seconds"))
    if not secret:
        found.append(problem("token_secret", "no_secret", "the token secret is not configured"))
    require(found)
    params = [("_upt", upt_token(secret, uri, etime, upp))]
    if upp is not None:
        params.append(("_upp", str(upp)))
    return params


def signed_url(
    url: str, secret: str, etime: int, upp: int | None = None
) -> str:
    """`url` (an edge URL, possibly with a query and an image suffix) signed until `etime`.

    The signed URI is the URL's path as written, without the query.
    """
    base, rest = split_url(url)
    uri = rest.split("?", 1)[0]
    return with_query(base + rest, token_params(uri, secret, etime, upp))


# --- secret-protected originals, downloads, cache bypass --------------------------------------


def check_separator(separator: str) -> list[Problem]:
    if separator not in SEPARATORS:
        return [problem("separator", "separator", "must be one of ! - _", value=separator)]
    return []


def secret_url(file_url: str, separator: str, secret: str) -> str:
    """`<url><separator><secret>`: the only way to a file stored with a Content-Secret."""
    found = check_separator(separator)
    if not secret:
        found.append(problem("secret", "required", "the file's secret is required"))
    elif not SECRET.fullmatch(secret):
        found.append(problem("secret", "secret_chars", "must be letters and digits only"))
    require(found)
    return f"{file_url}{separator}{secret}"


def check_download_name(name: str) -> list[Problem]:
    if _BAD_NAME_CHARS.search(name):
        return [problem("_upd", "download_name", 'must not contain / \\ " or control characters')]
    if name.strip() != name or not name:
        return [problem("_upd", "download_name_blank", "must not start or end with a space")]
    if len(name) > 200:
        return [problem("_upd", "download_name_long", "must be at most 200 characters")]
    return []


def download_url(url: str, name: str | None = None) -> str:
    """Forced download: `_upd=true` keeps the file's own name, `_upd=<name>` renames it.

    Non-ASCII (Chinese) names are UTF-8 percent-encoded in the query.
    """
    if name is None or name == "":
        return with_query(url, [("_upd", "true")])
    require(check_download_name(name))
    return with_query(url, [("_upd", name)])


def check_upv(value: str) -> list[Problem]:
    if not UPV.fullmatch(value):
        return [problem("_upv", "upv", "must be two digits from 00 to 99", value=value)]
    return []


def cache_bypass_url(url: str, value: str) -> str:
    """`_upv=NN`: a new two-digit value fetches a fresh copy past the cache."""
    require(check_upv(value))
    return with_query(url, [("_upv", value)])


# --- JS/CSS combine --------------------------------------------------------------------------


def combine_url(base_url: str, directory: str, files: Sequence[str]) -> str:
    """`<host>/<dir>/!!a.js,b.js`: the listed files of one folder returned as one.

    All files must be of one kind (all `.js` or all `.css`): a browser loads the result as one
    script or one stylesheet.
    """
    found: list[Problem] = []
    directory = directory.strip() or "/"
    if not directory.startswith("/"):
        found.append(problem("directory", "path_start", "must start with '/'", value=directory))
    if any(segment in (".", "..") for segment in directory.split("/")):
        found.append(problem("directory", "path_dots", "must not contain '.' or '..' segments"))
    names = [name.strip() for name in files if name.strip()]
    if len(names) < 2:
        found.append(problem("files", "combine_count", "list at least two files"))
    kinds = set()
    for line, name in enumerate(names, start=1):
        if "/" in name or "," in name or "?" in name or "#" in name:
            found.append(problem("files", "combine_name", "must be a plain file name of the "
                                 "folder (no / , ? or #)", line=line, value=name))
            continue
        kind = next((k for k in COMBINE_KINDS if name.lower().endswith(k)), None)
        if kind is None:
            found.append(problem("files", "combine_kind", "must end in .js or .css",
                                 line=line, value=name))
        else:
            kinds.add(kind)
    if len(kinds) > 1:
        found.append(problem("files", "combine_mixed", "must all be .js or all be .css"))
    require(found)
    folder = directory.rstrip("/") + "/"
    listed = ",".join(quote(name, safe="") for name in names)
    return f"{base_url.rstrip('/')}{encode_path(folder)}{COMBINE_MARK}{listed}"


# --- image processing (the keys and their rules: delivery/image_rules.py) -------------------


def processed_image_url(file_url: str, separator: str, pairs: Sequence[tuple[str, str]]) -> str:
    """`<file URL><separator>/<key>/<value>...`."""
    require(check_separator(separator))
    return f"{file_url}{separator}{image_params_text(pairs)}"


def check_version_name(name: str) -> list[Problem]:
    if not VERSION_NAME.fullmatch(name):
        return [problem("name", "version_name", "must be 1 to 32 letters or digits",
                        value=name)]
    return []


def version_url(file_url: str, separator: str, name: str,
                pairs: Sequence[tuple[str, str]] = ()) -> str:
    """`<file URL><separator><version name>` for a custom version, followed by parameters
    when `pairs` are given (`photo.jpg!small/fw/80`: the URL's keys win over the version's,
    cloud/image.md)."""
    require(check_separator(separator) + check_version_name(name))
    return f"{file_url}{separator}{name}{image_params_text(pairs) if pairs else ''}"
