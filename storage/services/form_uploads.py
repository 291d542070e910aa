"""Signed FORM API policies for uploads that go from the browser straight to the provider.

The back-office only signs (api/form_api.md, api/authorization.md "Policy"): a policy scoped to
one storage service (its bucket, signed by its operator), one path (`save-key` exactly, no
placeholders), a size limit (`content-length-range` 0..max, at most the resumable threshold:
larger files go in parts) and a short life (`expiration`). The browser posts the file with the
two fields to `url`; the provider refuses anything outside the scope (another bucket or path
means another policy, whose signature the browser cannot make). Upload options (the
`x-gmkerl-*` preprocessing, metadata, lifetime) and the Content-Type go into the policy too,
so they are signed with it.

Refusals are `SignatureRefused`, naming the request's field: `path` (not a file path, the
kept files' folder, or outside the folder the caller may write: status 403),
`size` (not 1..the threshold) and `lifetime_s`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from django.utils.translation import gettext

from console.models import Service
from console.services import storage_access
from storage import paths, rules, signing
from storage.services.private import is_private
from storage.services.signature_refusals import SignatureRefused
from storage.services.uploads import UploadOptions, resumable_threshold

DEFAULT_LIFETIME_S = 30 * 60  # the page's advice
MAX_LIFETIME_S = 60 * 60


@dataclass(frozen=True)
class FormGrant:
    """What the browser posts: `fields` beside its `file`, to `url`."""

    url: str
    path: str
    max_size: int
    expiration: int
    policy: str
    authorization: str
    parameters: dict[str, str | int] = field(default_factory=dict)

    @property
    def fields(self) -> dict[str, str]:
        return {"policy": self.policy, "authorization": self.authorization}


def sign_form_upload(
    service: Service,
    path: str,
    *,
    max_size: int,
    within: str = "/",
    lifetime_s: int = DEFAULT_LIFETIME_S,
    content_type: str = "",
    options: UploadOptions | None = None,
    now: float | None = None,
) -> FormGrant:
    """A policy for uploading at most `max_size` bytes to `path` of `service`, valid
    `lifetime_s` seconds. `within` is the folder the caller may write into."""
    target = checked_path(path, within)
    threshold = resumable_threshold()
    if not 1 <= max_size <= threshold:
        raise SignatureRefused("size", gettext(
            "A direct upload takes 1 to %(max)s bytes; larger files go in parts.") % {
            "max": threshold})
    if not 1 <= lifetime_s <= MAX_LIFETIME_S:
        raise SignatureRefused("lifetime_s", gettext(
            "A policy lives 1 to %(max)s seconds.") % {"max": MAX_LIFETIME_S})
    access = storage_access(service)
    expiration = int((time.time() if now is None else now) + lifetime_s)
    parameters: dict[str, str | int] = {
        "bucket": access.bucket,
        "save-key": target,
        "expiration": expiration,
        "content-length-range": f"0,{max_size}",
    }
    if content_type:
        rules.require(rules.check_meta_value("Content-Type", content_type))
        parameters["content-type"] = content_type
    if options is not None:
        parameters.update(options.gmkerl)
        parameters.update(rules.metadata_headers(options.all_metadata()))
    policy = signing.form_policy(parameters)
    uri = signing.encode_uri(f"/{access.bucket}")
    return FormGrant(
        url=f"{access.url}{uri}", path=target, max_size=max_size, expiration=expiration,
        policy=policy,
        authorization=signing.form_authorization(access.operator, access.password, uri, policy),
        parameters=parameters,
    )


def checked_path(path: str, within: str) -> str:
    try:
        target = paths.canonical(path, allow_root=False)
        folder = paths.canonical(within or "/", allow_root=True)
    except rules.RuleViolation:
        raise SignatureRefused("path", gettext("Give the path of a file, such as "
                                                "/photos/cat.jpg.")) from None
    if "{" in target or "}" in target:
        # The provider would expand them: the policy must name one path exactly.
        raise SignatureRefused("path", gettext("A path with { or } cannot be signed."))
    inside = folder == "/" or target.startswith(folder.rstrip("/") + "/")
    if not inside or is_private(target):
        raise SignatureRefused("path", gettext(
            "%(path)s is outside the folder you may upload to.") % {"path": target},
            status=403)
    return target
