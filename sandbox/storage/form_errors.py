"""The codes of the FORM API's and upload preprocessing's refusals, from the public error
table.

api/errno.md is normative (DECISIONS.md): `msg` is that row's message word for word, and our
own explanation goes in `detail`. The table's 400000xx rows are the FORM API's own (need
policy, need save-key, decode policy error...), so the form's refusals use them; a cause
without a row is 40000000 storage bad request with a `detail`.

A refusal is a plain StorageError (sandbox/storage/errors.py, whose table is errno.py's), so
the REST views answer one raised by the preprocessing they share with the form
(`x-gmkerl-thumb`) like their own; the codes both APIs refuse with are errors.py's, named here
again for the form's modules.
"""

from __future__ import annotations

# The codes the REST API refuses with too are errors.py's; the form's own ones follow.
from sandbox.storage.errors import (
    BAD_CONTENT_SECRET as BAD_CONTENT_SECRET,
)
from sandbox.storage.errors import (
    BAD_REQUEST as BAD_REQUEST,
)
from sandbox.storage.errors import (
    BUCKET_NOT_EXISTS as BUCKET_NOT_EXISTS,
)
from sandbox.storage.errors import (
    INVALID_THUMB_PARAM as INVALID_THUMB_PARAM,
)
from sandbox.storage.errors import (
    NOT_AN_IMAGE as NOT_AN_IMAGE,
)
from sandbox.storage.errors import (
    SIGNATURE_ERROR as SIGNATURE_ERROR,
)
from sandbox.storage.errors import (
    USER_NOT_EXISTS as USER_NOT_EXISTS,
)
from sandbox.storage.errors import (
    WRONG_CONTENT_LENGTH as WRONG_CONTENT_LENGTH,
)

NEED_SAVE_KEY = 40000001
NEED_BUCKET = 40000003
NEED_EXPIRATION = 40000004
NEED_FILE = 40000005
CONTENT_MD5_MISMATCH = 40000006
NEED_POLICY = 40000007
NEED_SIGNATURE = 40000008
BAD_POLICY = 40000009
EXT_PARAM_TOO_LONG = 40000010
SAVE_KEY_NOT_UTF8 = 40000029
BUCKET_MISMATCH = 40000036
NO_BOUNDARY = 40000038
BAD_THUMB = INVALID_THUMB_PARAM
EXPIRED = 40300006
FILE_TOO_SMALL = 40300008
FILE_TOO_LARGE = 40300009
FILE_TYPE_ERROR = 40300010
NO_THUMB_SETTING = 40300017
IMAGE_WIDTH = 40300019
IMAGE_HEIGHT = 40300020
IMAGE_LIMIT = 40300021
BAD_WIDTH_RANGE = 40300022
BAD_HEIGHT_RANGE = 40300023
WRONG_CONTENT_TYPE = 40300025
BAD_CONTENT_LENGTH = 40300035
