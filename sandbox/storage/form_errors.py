"""Refusals of the FORM API and of upload preprocessing, with the codes and exact messages of
the public error table.

api/errno.md is normative (DECISIONS.md): `msg` is that row's message word for word, and our
own explanation goes in `detail`. The table's 400000xx rows are the FORM API's own (need
policy, need save-key, decode policy error...), so the form's refusals use them; a cause
without a row is 40000000 storage bad request with a `detail`.

A `Refusal` is a StorageError (sandbox/storage/errors.py, whose table is errno.py's), so the
REST views answer one raised by the preprocessing they share with the form (`x-gmkerl-thumb`)
like their own.
"""

from __future__ import annotations

from sandbox.storage.errors import StorageError

BAD_REQUEST = 40000000
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
WRONG_CONTENT_LENGTH = 40001002
BAD_THUMB = 40011035
SIGNATURE_ERROR = 40100005
USER_NOT_EXISTS = 40100006
BUCKET_NOT_EXISTS = 40100012
EXPIRED = 40300006
FILE_TOO_SMALL = 40300008
FILE_TOO_LARGE = 40300009
FILE_TYPE_ERROR = 40300010
BAD_CONTENT_SECRET = 40300016
NO_THUMB_SETTING = 40300017
NOT_AN_IMAGE = 40300018
IMAGE_WIDTH = 40300019
IMAGE_HEIGHT = 40300020
BAD_WIDTH_RANGE = 40300022
BAD_HEIGHT_RANGE = 40300023
WRONG_CONTENT_TYPE = 40300025
BAD_CONTENT_LENGTH = 40300035


# A form refusal is a storage refusal: the table's code and message, our `detail` (errors.py).
Refusal = StorageError
