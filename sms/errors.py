"""The SMS provider's typed errors: one class per error code of the spec, and the transport's.

Pure (no Django): the client raises them, services and pages catch them (through
`sms.services`), and Celery carries them pickled, so each keeps its constructor's arguments.

- `SmsApiError` (one subclass per provider error code): the provider answered with an error
  body; `outcome_uncertain` is True only for 5xx answers;
- `SmsTransportError`: no usable answer (connection failure, timeout, non-JSON, unexpected
  shape). The provider may or may not have acted.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar


class SmsError(Exception):
    """Anything that went wrong talking to the SMS provider."""

    @property
    def outcome_uncertain(self) -> bool:
        """True when the provider may have carried out the request although the call failed."""
        return True


class SmsTransportError(SmsError):
    """No usable answer: connection failure, timeout, or an answer that is not the protocol's.

    `status` is the HTTP status when an answer arrived but could not be used, else None.
    """

    def __init__(self, detail: str, status: int | None = None) -> None:
        super().__init__(detail if status is None else f"{detail} (HTTP {status})")
        self.detail = detail
        self.status = status

    def __reduce__(self) -> tuple[type[SmsTransportError], tuple[str, int | None]]:
        # Celery pickles exceptions; keep the constructor's arguments, not the formatted text.
        return (type(self), (self.detail, self.status))


class SmsResponseError(SmsTransportError):
    """An answer arrived but is not what the protocol promises (not JSON, wrong shape)."""


class SmsApiError(SmsError):
    """The provider answered with an error body `{error_code, message}`.

    `code` is the provider's code, `status` the HTTP status received and `message` the
    provider's extra description. Subclasses exist for every code of the spec's table;
    an unknown code is raised as this base class with its code kept.
    """

    code: str = ""
    http_status: ClassVar[int | None] = None  # the status the spec lists for this code
    meaning: ClassVar[str] = "unknown error code"  # the spec's standard text for this code

    def __init__(self, code: str, status: int, message: str = "") -> None:
        super().__init__(f"{code} (HTTP {status}): {message or self.meaning}")
        self.code = code
        self.status = status
        self.message = message

    @property
    def outcome_uncertain(self) -> bool:
        # A 4xx is a refusal: nothing was done. A 5xx may have happened half way.
        return self.status >= 500

    def __reduce__(self) -> tuple[type[SmsApiError], tuple[object, ...]]:
        return (type(self), (self.code, self.status, self.message))


class InvalidFileError(SmsApiError):
    code, http_status, meaning = "INVALID_FILE", 400, "file missing or size/format invalid"


class MissingParameterError(SmsApiError):
    code, http_status, meaning = "MISSING_PARAMETER", 400, "a required field is empty"


class InvalidCredentialsError(SmsApiError):
    code, http_status, meaning = "INVALID_CREDENTIALS", 401, "invalid authentication"


class RequireTemplateOwnerError(SmsApiError):
    code, http_status, meaning = "REQUIRE_TEMPLATE_OWNER", 403, "no permission on the template"


class RequireSignatureOwnerError(SmsApiError):
    code, http_status, meaning = "REQUIRE_SIGNATURE_OWNER", 403, "no permission on the signature"


class UserNotFoundError(SmsApiError):
    code, http_status, meaning = "USER_NOT_FOUND", 404, "user does not exist"


class TemplateNotFoundError(SmsApiError):
    code, http_status, meaning = "TEMPLATE_NOT_FOUND", 404, "template does not exist"


class NotFoundError(SmsApiError):
    code, http_status, meaning = "NOT_FOUND", 404, "page does not exist"


class InsufficientFundsError(SmsApiError):
    code, http_status, meaning = "INSUFFICIENT_FUNDS", 409, "message quota insufficient"


class MobileLimitError(SmsApiError):
    code, http_status, meaning = "MOBILE_LIMIT", 409, "too many mobile numbers"


class IllegalMobileError(SmsApiError):
    code, http_status, meaning = "ILLEGAL_MOBILE", 409, "invalid mobile number"


class IllegalParamerError(SmsApiError):
    # Spelled as the provider spells it.
    code, http_status, meaning = "ILLEGAL_PARAMER", 409, "invalid parameter"


class TemplateLimitError(SmsApiError):
    code, http_status, meaning = "TEMPLATE_LIMIT", 409, "template count reached the cap"


class TemplateAuditingError(SmsApiError):
    code, http_status, meaning = "TEMPLATE_AUDITING", 409, "template under review, unusable"


class TemplateNotAuditedError(SmsApiError):
    code, http_status, meaning = "TEMPLATE_NOT_AUDITED", 409, "template not reviewed"


class IllegalSignatureError(SmsApiError):
    code, http_status, meaning = "ILLEGAL_SIGNATURE", 409, "signature length must be 3-8"


class IllegalTitleError(SmsApiError):
    code, http_status, meaning = "ILLEGAL_TITLE", 409, "title length must be below 12"


class TemplateFailedError(SmsApiError):
    code, http_status, meaning = "TEMPLATE_FAILED", 409, "review failed, resubmit"


class IllegalContentLengthError(SmsApiError):
    code, http_status, meaning = (
        "ILLEGAL_CONTENT_LENGTH",
        409,
        "signature + content must be below 348",
    )


class IllegalReportTypeError(SmsApiError):
    code, http_status, meaning = "ILLEGAL_REPORT_TYPE", 409, "invalid review type"


class IllegalTemplateIdError(SmsApiError):
    code, http_status, meaning = "ILLEGAL_TEMPLATE_ID", 422, "invalid template number"


class SmsSystemError(SmsApiError):
    code, http_status, meaning = "SMS_SYSTEM_ERROR", 500, "SMS service fault"


class ProviderSystemError(SmsApiError):
    # Not named SystemError: that would shadow the Python builtin.
    code, http_status, meaning = "SYSTEM_ERROR", 500, "system error"


class RateLimitedError(SmsApiError):
    """429: too many calls (any 429, with the provider's body or a proxy's). Certain: the call
    was not taken, so it may be made again once `retry_after_s` (the answer's `Retry-After`;
    None without one) has passed. The spec shows no rate limits; the sandbox has one."""

    code, http_status, meaning = "TOO_MANY_REQUESTS", 429, "too many requests"

    def __init__(self, code: str, status: int, message: str = "",
                 retry_after_s: float | None = None) -> None:
        super().__init__(code, status, message)
        self.retry_after_s = retry_after_s

    def __reduce__(self) -> tuple[type[SmsApiError], tuple[object, ...]]:
        return (type(self), (self.code, self.status, self.message, self.retry_after_s))


ERRORS_BY_CODE: Mapping[str, type[SmsApiError]] = {
    error.code: error
    for error in (
        InvalidFileError,
        MissingParameterError,
        InvalidCredentialsError,
        RequireTemplateOwnerError,
        RequireSignatureOwnerError,
        UserNotFoundError,
        TemplateNotFoundError,
        NotFoundError,
        InsufficientFundsError,
        MobileLimitError,
        IllegalMobileError,
        IllegalParamerError,
        TemplateLimitError,
        TemplateAuditingError,
        TemplateNotAuditedError,
        IllegalSignatureError,
        IllegalTitleError,
        TemplateFailedError,
        IllegalContentLengthError,
        IllegalReportTypeError,
        IllegalTemplateIdError,
        SmsSystemError,
        ProviderSystemError,
        RateLimitedError,
    )
}


def api_error(code: str, status: int, message: str = "") -> SmsApiError:
    """The typed exception for a provider error code (the base class for unknown codes)."""
    return ERRORS_BY_CODE.get(code, SmsApiError)(code, status, message)
