"""User-facing wording for `storage.rules` problems and `storage.client` errors.

`storage.rules` and `storage.client` import no Django and speak English to developers; pages,
forms and commands show staff the translated sentences built here. Every sentence names the
field, header or path it is about, so it makes sense on its own.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from backoffice.operations.provider import ProviderNotConfigured
from storage import client, rules

# What each x-gmkerl header expects, shown when its value is refused.
GMKERL_EXPECTS: Mapping[str, Promise] = {
    "x-gmkerl-type": _("Thumbnail type must be one of: %(types)s."),
    "x-gmkerl-quality": _("Quality must be a whole number from 1 to 100."),
    "x-gmkerl-rotate": _(
        "Rotation must be “auto” or a number of degrees greater than 0 and at most 360."
    ),
    "x-gmkerl-crop": _(
        "Crop must look like <width>x<height>a<x>a<y> with a positive width and height, "
        "e.g. 200x100a10a20."
    ),
    "x-gmkerl-exif-switch": _("Keep EXIF must be true or false."),
    "x-gmkerl-unsharp": _("Sharpen must be true or false."),
    "x-gmkerl-watermark-text": _("Watermark text could not be URL-encoded."),
    "x-gmkerl-watermark-font": _("Watermark font must be one of: %(fonts)s."),
    "x-gmkerl-watermark-size": _("Watermark size must be a whole number of pixels, at least 1."),
    "x-gmkerl-watermark-align": _(
        "Watermark position must be vertical,horizontal with vertical top, middle or bottom "
        "and horizontal left, center or right."
    ),
    "x-gmkerl-watermark-margin": _(
        "Watermark margin must be x,y with whole numbers of pixels, e.g. 20,20."
    ),
    "x-gmkerl-watermark-opacity": _("Watermark opacity must be a whole number from 0 to 100."),
    "x-gmkerl-watermark-color": _("Watermark colour must look like #RRGGBB, e.g. #000000."),
    "x-gmkerl-watermark-border": _(
        "Watermark border must look like #RRGGBBAA (a colour then its alpha), e.g. #cccccccc."
    ),
    "x-gmkerl-thumbnail": _("Thumbnail version must be letters, digits, _ . or -."),
    "x-gmkerl-extract-color-count": _("Colour count must be a whole number from 1 to 4096."),
    "x-gmkerl-extract-format": _("Colour format must be hex or dec."),
    "x-gmkerl-thumb": _("Processing parameters must not contain spaces."),
}

VALUE_EXPECTS: Mapping[str, Promise] = {
    "fix_width_or_height": _(
        "For this thumbnail type the value must be <width>x<height> with positive whole "
        "numbers, e.g. 480x576."
    ),
    "fix_both": _(
        "For this thumbnail type the value must be <width>x<height> with positive whole "
        "numbers, e.g. 480x576."
    ),
    "fix_scale": _("For fix_scale the value must be a whole percentage from 1 to 1000."),
}


def gmkerl_text(problem: rules.Problem, type_value: str | None = None) -> str:
    """Translated sentence for a problem of `rules.check_gmkerl`."""
    if problem.field == "x-gmkerl-value":
        if problem.code == "required":
            return gettext("Give a value for the thumbnail type.")
        expected = VALUE_EXPECTS.get(type_value or "")
        if expected is not None:
            return str(expected)
        return gettext("For this thumbnail type the value must be a whole number of pixels.")
    if problem.field == "x-gmkerl-type" and problem.code == "required":
        return gettext("Choose a thumbnail type for this value.")
    expected = GMKERL_EXPECTS.get(problem.field)
    if expected is None:
        return problem.message
    return str(expected) % {
        "types": ", ".join(rules.GMKERL_TYPES),
        "fonts": ", ".join(rules.WATERMARK_FONTS),
    }


def problem_text(problem: rules.Problem) -> str:
    """Translated sentence for a metadata, secret, TTL or path problem of `storage.rules`."""
    field = problem.field
    if problem.code == "invisible_char":
        return _invisible_text(problem)
    if field.startswith(rules.GMKERL_PREFIX):
        return gmkerl_text(problem)
    if field == "path":
        return _path_text(problem)
    if field in ("Content-Secret", rules.META_PREFIX + rules.SECRET_NAME):
        return gettext("The secret may contain only letters and digits (A-Z, a-z, 0-9).")
    if field == rules.META_PREFIX + rules.TTL_NAME:
        return gettext("The lifetime (TTL) must be a whole number of days from 1 to %(max)s.") % {
            "max": rules.MAX_TTL_DAYS
        }
    if field == "Content-MD5":
        return gettext("Content-MD5 must be 32 hexadecimal digits.")
    name = rules.meta_name(field) if field.startswith(rules.META_PREFIX) else ""
    if problem.code == "invalid_name":
        return gettext(
            "Metadata name “%(name)s” may use only letters, digits and inner hyphens."
        ) % {"name": name}
    if problem.code == "duplicate":
        return gettext("Metadata “%(name)s” is given twice.") % {"name": name}
    if problem.code == "required" and not name:
        return gettext("A metadata name is empty.")
    if problem.code == "required":
        return gettext("Metadata “%(name)s” has no value.") % {"name": name}
    if problem.code == "invalid_value":
        return gettext(
            "The value of metadata “%(name)s” must be printable ASCII without spaces at "
            "either end (URL-encode other text first)."
        ) % {"name": name}
    return problem.message


def _invisible_text(problem: rules.Problem) -> str:
    texts: Mapping[str, Promise] = {
        "folder_name": _("The folder name must not contain control or text-direction characters "
                         "(%(chars)s): they make a name show differently from what it is."),
        "file_name": _("The file name must not contain control or text-direction characters "
                       "(%(chars)s): they make a name show differently from what it is."),
    }
    text = texts.get(problem.field, _(
        "A name must not contain control or text-direction characters (%(chars)s): they make "
        "a name show differently from what it is."))
    return str(text) % {"chars": problem.detail}


def _path_text(problem: rules.Problem) -> str:
    texts: Mapping[str, Promise] = {
        "required": _("The path is empty: name a file or folder."),
        "invalid_char": _("The path must not contain control characters."),
        "empty_segment": _("The path must not contain an empty name (“//”)."),
        "dot_segment": _("The path must not contain “.” or “..” as a name."),
        "slash_in_name": _("A name must not contain “/”."),
    }
    text = texts.get(problem.code)
    return str(text) if text is not None else problem.message


def private_text(path: str) -> str:
    """Why a path in the kept files' folder is refused on every staff page."""
    return gettext(
        "%(path)s holds the back-office's own kept files: they are not shown or changed here."
    ) % {"path": path}


def violation_text(violation: rules.RuleViolation) -> str:
    return " ".join(problem_text(problem) for problem in violation.problems)


def error_text(error: BaseException, path: str | None = None) -> str:
    """Translated sentence for a provider error (or a missing configuration)."""
    where = {"path": path or "/"}
    if isinstance(error, ProviderNotConfigured):
        return gettext(
            "Object storage is not configured: %(detail)s."
        ) % {"detail": str(error)}
    if isinstance(error, rules.RuleViolation):
        return violation_text(error)
    if not isinstance(error, client.StorageError):
        return str(error)
    if isinstance(error, client.NotFound):
        return gettext("There is no file or folder at %(path)s.") % where
    if isinstance(error, client.DirectoryNotEmpty):
        return gettext(
            "The folder %(path)s is not empty: delete the files and folders in it first."
        ) % where
    if isinstance(error, client.FolderExists):
        return gettext("A folder %(path)s already exists.") % where
    if isinstance(error, client.InvalidSecret):
        return gettext("The secret may contain only letters and digits (A-Z, a-z, 0-9).")
    if isinstance(error, client.CopySameKey):
        return gettext("%(path)s is both the source and the target.") % where
    if isinstance(error, client.CopySourceInvalid):
        return gettext(
            "There is no file to copy or move to %(path)s: the source is missing or a folder."
        ) % where
    if isinstance(error, client.PathConflict):
        return gettext("%(path)s is a folder where a file is needed, or the reverse.") % where
    if isinstance(error, client.AuthenticationError):
        return gettext(
            "The provider refused our credentials (%(msg)s): check STORAGE_BUCKET, "
            "STORAGE_OPERATOR and STORAGE_PASSWORD."
        ) % {"msg": error.msg}
    if isinstance(error, client.TooManyRequests):
        return gettext("The provider is rate limiting us; try again in a minute.")
    if isinstance(error, client.StorageConnectionError):
        return gettext("The storage provider could not be reached (%(msg)s).") % {
            "msg": error.msg
        }
    if isinstance(error, client.ServerError):
        return gettext("The storage provider failed (%(msg)s); try again later.") % {
            "msg": error.msg
        }
    if isinstance(error, client.FileMD5Mismatch):
        return gettext(
            "The provider's check of the whole file failed: the local copy changed since it was "
            "received. Upload the file again."
        )
    if isinstance(error, client.BadContentMD5):
        return gettext("The file was damaged in transit (Content-MD5 mismatch); try again.")
    if isinstance(error, client.StorageProtocolError):
        return gettext("The provider's answer was not understood: %(msg)s") % {"msg": error.msg}
    return provider_refusal_text(error)


def provider_refusal_text(error: client.StorageError) -> str:
    """Any other refusal: the error table's message in the reader's language when the answer
    says just that (the provider's own words otherwise), its explanation when it gave one, and
    what support needs."""
    known = client.table_message(error.code)
    # The table's messages are in the catalogue (marked in storage.client.errno).
    msg = gettext(known) if known is not None and known == error.msg else error.msg
    if error.code and error.detail:
        return gettext(
            "The provider refused: %(msg)s: %(detail)s (code %(code)s, request %(id)s)."
        ) % {"msg": msg, "detail": error.detail, "code": error.code,
             "id": error.request_id or "-"}
    if error.code:
        return gettext(
            "The provider refused: %(msg)s (code %(code)s, request %(id)s)."
        ) % {"msg": msg, "code": error.code, "id": error.request_id or "-"}
    return gettext("The provider refused: %(msg)s (HTTP %(status)s).") % {
        "msg": error.msg,
        "status": error.status,
    }


# --- sizes -----------------------------------------------------------------------------------

# Binary units, as the provider counts (parts of 1 MiB): one format for every page, command and
# script (static/js/sizes.js follows the same rule with the texts of `size_texts`).
SIZE_UNITS = ("KiB", "MiB", "GiB", "TiB")


def bytes_text(count: int | float) -> str:
    """An exact count: `1 byte`, `12,345 bytes`."""
    whole = int(count)
    return ngettext("%(count)s byte", "%(count)s bytes", whole) % {
        "count": number_format(whole, force_grouping=True)}


def size_text(size: int | float | None) -> str:
    """A size as people read it: bytes below 1 KiB, else one decimal of the largest binary
    unit that keeps the number at 1 or more (`512 bytes`, `1.5 KiB`, `12.0 MiB`); "" for None."""
    if size is None or isinstance(size, bool):
        return ""
    if size < 1024:
        return bytes_text(size)
    value = float(size)
    unit = -1
    # 1023.96 KiB would round to "1024.0 KiB": such a value is shown in the next unit.
    while value >= 1023.95 and unit < len(SIZE_UNITS) - 1:
        value /= 1024
        unit += 1
    return gettext("%(value)s %(unit)s") % {
        "value": number_format(round(value, 1), 1), "unit": SIZE_UNITS[unit]}


def size_texts() -> dict[str, str]:
    """What static/js/sizes.js needs to format sizes as `size_text` does."""
    return {"byteOne": ngettext("%(count)s byte", "%(count)s bytes", 1),
            "byteMany": ngettext("%(count)s byte", "%(count)s bytes", 2),
            "unit": gettext("%(value)s %(unit)s")}
