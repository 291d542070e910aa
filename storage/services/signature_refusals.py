"""The one refusal of everything the back-office signs for a browser (FORM API policies, the
REST requests of a direct upload): the request's field it is about, a sentence for the page,
and the HTTP status the signing endpoint answers with."""

from __future__ import annotations


class SignatureRefused(Exception):
    """A signature the back-office will not give. `status`: 400 bad input, 403 outside what
    the caller may write, 409 the upload's state, 503 the provider could not be reached."""

    def __init__(self, field: str, message: str, status: int = 400) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
        self.status = status

    @property
    def forbidden(self) -> bool:
        return self.status == 403
