"""The provider's error table (api/errno.md of the public docs), the one place where a code
becomes a typed error and a sentence: code -> (error class, message), and the reading of an
error answer with it (`error_from_response`).

The messages are the table's own (the provider's word in header names is `x-svc-`). They are
marked for translation with `_`, which only marks (the client stays free of Django):
`storage.texts` translates them when it shows one.
"""

from __future__ import annotations

import requests

from storage.client.errors import (
    AuthenticationError,
    AuthorizationRequired,
    BadContentMD5,
    BadRequest,
    BucketNotFound,
    CopyOtherBucket,
    CopySameKey,
    CopySourceInvalid,
    DateInvalid,
    DateMissing,
    DateOffset,
    DirectoryNotEmpty,
    DuplicatePart,
    FileMD5Mismatch,
    FolderExists,
    Forbidden,
    InvalidSecret,
    InvalidTTL,
    MetadataDirectiveInvalid,
    MetadataRequired,
    MultipartCompleted,
    MultipartError,
    MultipartIncomplete,
    MultipartNotFound,
    MultipartPartIdInvalid,
    MultipartUUIDInvalid,
    NotAnImage,
    NotFound,
    PartAlreadyComplete,
    PartIdError,
    PasswordError,
    PathConflict,
    PreprocessingError,
    ServerError,
    ServiceUnavailable,
    SignatureError,
    StorageError,
    TooManyRequests,
    UserNotFound,
    as_int,
    int_header,
)


def _(message: str) -> str:
    """Marks a message for the translation catalogue (makemessages reads `_`); no lookup."""
    return message


ERRNO: dict[int, tuple[type[StorageError], str]] = {
    40001000: (BadRequest, _('wrong uri')),
    40001001: (BadContentMD5, _('wrong content-md5')),
    40001002: (BadRequest, _('wrong content-length')),
    40001003: (BadRequest, _('meta invalid')),
    40001004: (BadRequest, _('folder args invalid')),
    40001005: (BadRequest, _('iter args invalid')),
    40001006: (BadRequest, _('type invalid')),
    40001007: (BadRequest, _('block invalid')),
    40001008: (BadRequest, _('list type not support')),
    40001009: (BadRequest, _('invalid update time')),
    40001011: (BadRequest, _('invalid append position')),
    40001021: (BadRequest, _('invalid utf8 key')),
    40001022: (MultipartError, _('wrong multipart action')),
    40001023: (MultipartUUIDInvalid, _('wrong multipart uuid')),
    40001024: (MultipartError, _('wrong multipart type')),
    40001025: (MultipartError, _('wrong multipart length')),
    40001027: (MultipartError, _('wrong multipart size')),
    40001030: (MultipartPartIdInvalid, _('wrong multipart part id')),
    40001031: (DuplicatePart, _('duplicate multipart part')),
    40001032: (MultipartError, _('oversize multipart part')),
    40001033: (MultipartError, _('overflow multipart part')),
    40001034: (MultipartError, _('unexpect multipart length')),
    40001035: (MultipartNotFound, _('notfound multipart uuid')),
    40001036: (MultipartCompleted, _('completed multipart')),
    40001037: (MultipartIncomplete, _('incomplete multipart parts')),
    40001038: (MultipartError, _('invalid append file')),
    40001041: (BadRequest, _('request wrong type')),
    40001042: (BadRequest, _('request wrong timestamp')),
    40001043: (BadRequest, _('request wrong column')),
    40001044: (BadRequest, _('request wrong list')),
    40001045: (BadRequest, _('not found')),
    40001046: (BadRequest, _('wrong length')),
    40001047: (BadRequest, _('wrong check column')),
    40001051: (BadRequest, _('encode data error')),
    40001052: (BadRequest, _('decode data error')),
    40001055: (BadRequest, _('put and check error')),
    40001161: (BadRequest, _('wrong range')),
    40010001: (BadRequest, _('not enough arguments')),
    40010002: (BadRequest, _('url not allowed')),
    40010003: (BadRequest, _('tasks number error')),
    40010029: (BadRequest, _('only 1~10 tasks supported in get')),
    40010033: (BadRequest, _('decode tasks error')),
    40011001: (PreprocessingError, _('invalid x-gmkerl-type')),
    40011002: (PreprocessingError, _('invalid x-gmkerl-value')),
    40011003: (PreprocessingError, _('invalid x-gmkerl-unsharp')),
    40011004: (PreprocessingError, _('invalid x-gmkerl-quality')),
    40011005: (PreprocessingError, _('invalid x-gmkerl-exif-switch')),
    40011006: (PreprocessingError, _('invalid x-gmkerl-gifto')),
    40011007: (PreprocessingError, _('invalid x-gmkerl-webp')),
    40011008: (PreprocessingError, _('invalid x-gmkerl-format')),
    40011009: (PreprocessingError, _('invalid x-gmkerl-crop')),
    40011010: (PreprocessingError, _('invalid x-gmkerl-rotate')),
    40011011: (PreprocessingError, _('invalid x-gmkerl-gaussblur')),
    40011012: (PreprocessingError, _('invalid x-gmkerl-compress')),
    40011013: (PreprocessingError, _('invalid x-gmkerl-progressive')),
    40011014: (PreprocessingError, _('invalid x-gmkerl-noicc')),
    40011015: (PreprocessingError, _('invalid x-gmkerl-watermark-switch')),
    40011016: (PreprocessingError, _('invalid x-gmkerl-watermark-align')),
    40011017: (PreprocessingError, _('invalid x-gmkerl-watermark-margin')),
    40011018: (PreprocessingError, _('invalid x-gmkerl-watermark-opacity')),
    40011019: (PreprocessingError, _('invalid x-gmkerl-watermark-animate')),
    40011020: (PreprocessingError, _('invalid x-gmkerl-watermark-font')),
    40011021: (PreprocessingError, _('invalid x-gmkerl-watermark-text')),
    40011022: (PreprocessingError, _('invalid x-gmkerl-watermark-color')),
    40011023: (PreprocessingError, _('invalid x-gmkerl-watermark-border')),
    40011024: (PreprocessingError, _('invalid x-gmkerl-watermark-size')),
    40011025: (PreprocessingError, _('invalid x-gmkerl-gradient-orientation')),
    40011026: (PreprocessingError, _('invalid x-gmkerl-gradient-pos')),
    40011027: (PreprocessingError, _('invalid x-gmkerl-gradient-startcolor')),
    40011028: (PreprocessingError, _('invalid x-gmkerl-gradient-stopcolor')),
    40011029: (PreprocessingError, _('invalid x-gmkerl-extract-func')),
    40011030: (PreprocessingError, _('invalid x-gmkerl-extract-color-count')),
    40011031: (PreprocessingError, _('invalid x-gmkerl-extract-offset')),
    40011032: (PreprocessingError, _('invalid x-gmkerl-extract-palette')),
    40011033: (PreprocessingError, _('invalid x-gmkerl-canvas')),
    40011034: (PreprocessingError, _('invalid x-gmkerl-canvas-color')),
    40011035: (PreprocessingError, _('invalid param in thumb')),
    40011050: (MultipartError, _('invalid app name')),
    40011051: (MultipartError, _('invalid x-svc-part-id')),
    40011052: (MultipartError, _('invalid x-svc-multi-length')),
    40011053: (MultipartError, _('invalid x-svc-multi-type')),
    40011054: (MultipartError, _('invalid x-svc-part-size')),
    40011055: (MultipartError, _('invalid invalid multipart stage')),
    40011056: (MultipartError, _('invalid invalid x-svc-multi-uuid')),
    40011057: (MultipartError, _('invalid UTF8 Key')),
    40011058: (MultipartNotFound, _('invalid x-svc-multi-uuid not found')),
    40011059: (MultipartError, _('file already upload')),
    40011060: (FileMD5Mismatch, _('file md5 not match')),
    40011061: (PartIdError, _('part id error')),
    40011062: (PartAlreadyComplete, _('part already complete')),
    40011091: (BadRequest, _('invalid app name')),
    40011092: (InvalidTTL, _('invalid file ttl')),
    40000000: (BadRequest, _('storage bad request')),
    40000001: (BadRequest, _('need save-key')),
    40000002: (BadRequest, _('need body')),
    40000003: (BadRequest, _('need bucket name')),
    40000004: (BadRequest, _('need expiration')),
    40000005: (BadRequest, _('need file')),
    40000006: (BadRequest, _('content md5 not match')),
    40000007: (BadRequest, _('need policy')),
    40000008: (BadRequest, _('need signature')),
    40000009: (BadRequest, _('decode policy error')),
    40000010: (BadRequest, _('data too long for ext-param')),
    40000011: (BadRequest, _('chunked request bodies not supported yet')),
    40000012: (BadRequest, _('write file to fs error')),
    40000013: (BadRequest, _('need content-md5 but no body provided')),
    40000014: (BadRequest, _('need content-md5 but no content provided')),
    40000015: (BadRequest, _('missing required arguments')),
    40000016: (BadRequest, _('missing file_hash argument')),
    40000017: (BadRequest, _('missing file_blocks argument')),
    40000018: (BadRequest, _('too many file blocks')),
    40000019: (BadRequest, _('missing file_size argument')),
    40000020: (BadRequest, _('missing save_token argument')),
    40000021: (BadRequest, _('missing block_index argument')),
    40000022: (BadRequest, _('missing block_hash argument')),
    40000023: (BadRequest, _('block already exists')),
    40000024: (BadRequest, _('block not finished')),
    40000025: (BadRequest, _('file size not match')),
    40000026: (BadRequest, _('block index out of range')),
    40000027: (BadRequest, _('block size too small, at least 100KB')),
    40000028: (BadRequest, _('block size too large, at most 5MB')),
    40000029: (BadRequest, _('save-key encoding should be utf8')),
    40000030: (BadRequest, _('path encoding should be utf8')),
    40000031: (BadRequest, _('filename should be utf8')),
    40000032: (BadRequest, _('ffmpeg args error')),
    40000033: (BadRequest, _('failed to read firstchunk')),
    40000034: (BadRequest, _('client error')),
    40000035: (BadRequest, _('need purge body')),
    40000036: (BadRequest, _('uri bucket must be same as param bucket')),
    40000037: (BadRequest, _('unknown service')),
    40000038: (BadRequest, _('no boundary defined in Content-Type')),
    40000039: (BadRequest, _('Content-Length is equal to 0')),
    40000040: (CopyOtherBucket, _('source bucket not equal target bucket')),
    40000041: (CopySameKey, _('source key equals to target key')),
    40000042: (CopySourceInvalid, _('source key wrong')),
    40000043: (MetadataDirectiveInvalid, _('wrong metadata directive')),
    40000044: (MetadataRequired, _('need metadata')),
    40100001: (DateMissing, _('need date header')),
    40100002: (DateOffset, _('date offset error')),
    40100003: (AuthenticationError, _('unknown realm in authorization header')),
    40100004: (AuthorizationRequired, _('need authorization header')),
    40100005: (SignatureError, _('signature error')),
    40100006: (UserNotFound, _('user not exists')),
    40100007: (AuthenticationError, _('user blocked')),
    40100008: (AuthenticationError, _('user blocked in this bucket')),
    40100009: (PasswordError, _('user password error')),
    40100010: (AuthenticationError, _('account not exist')),
    40100011: (AuthenticationError, _('account blocked')),
    40100012: (BucketNotFound, _('bucket not exist')),
    40100013: (AuthenticationError, _('bucket blocked')),
    40100014: (AuthenticationError, _('bucket removed')),
    40100015: (AuthenticationError, _('bucket read only')),
    40100016: (DateInvalid, _('invalid date value in header')),
    40100017: (AuthenticationError, _('user need permission')),
    40100018: (AuthenticationError, _('account inactivate')),
    40100019: (AuthenticationError, _('account forbidden')),
    40100020: (AuthenticationError, _('account reject')),
    40100021: (AuthenticationError, _('overdue account')),
    40100022: (AuthenticationError, _('uri prefix error')),
    40100023: (AuthenticationError, _('uri postfix error')),
    40100024: (AuthenticationError, _('expire error')),
    40100025: (AuthenticationError, _('auth error')),
    40300001: (Forbidden, _('file name contains invalid chars (\\r\\n\\t)')),
    40300002: (Forbidden, _('file path too long')),
    40300003: (Forbidden, _('file name too long')),
    40300004: (Forbidden, _('bucket is full')),
    40300005: (DirectoryNotEmpty, _('directory not empty')),
    40300006: (Forbidden, _('authorization has expired')),
    40300007: (Forbidden, _('content md5 not match')),
    40300008: (Forbidden, _('file too small')),
    40300009: (Forbidden, _('file too large')),
    40300010: (Forbidden, _('file type error')),
    40300011: (Forbidden, _('has no permission to delete')),
    40300012: (Forbidden, _('need content-type')),
    40300013: (Forbidden, _('form api disabled')),
    40300014: (Forbidden, _('order must be asc or desc')),
    40300015: (Forbidden, _('path is not a file, maybe a directory')),
    40300016: (InvalidSecret, _('content-secret only accept [a-zA-Z0-9]')),
    40300017: (PreprocessingError, _('no thumb setting found for bucket')),
    40300018: (NotAnImage, _('not an image')),
    40300019: (PreprocessingError, _('image width too small or too big')),
    40300020: (PreprocessingError, _('image height too small or too big')),
    40300021: (PreprocessingError, _('image limit exceeded')),
    40300022: (PreprocessingError, _('invalid image-width-range')),
    40300023: (PreprocessingError, _('invalid image-height-range')),
    40300024: (Forbidden, _('exceed max size')),
    40300025: (Forbidden, _('wrong content-type header')),
    40300026: (Forbidden, _('need content-length header')),
    40300027: (Forbidden, _('request body too big')),
    40300028: (Forbidden, _('request has expired')),
    40300029: (Forbidden, _('purge too much items')),
    40300030: (Forbidden, _('wrong content-length header')),
    40300031: (Forbidden, _("only support that list flat files by bucket's root folder")),
    40300032: (Forbidden, _('start time format error')),
    40300033: (Forbidden, _('end time format error')),
    40300034: (Forbidden, _('start time bigger than end time')),
    40300035: (Forbidden, _('content-length of policy format error')),
    40310007: (Forbidden, _("Binded domain and source domain can't be the same")),
    40400001: (NotFound, _('file or directory not found')),
    40400002: (NotFound, _('base64 decoded err')),
    40401004: (NotFound, _('Not found, mark as deleted')),
    40401005: (NotFound, _('Not found, block deleted')),
    40401006: (NotFound, _('type invalid')),
    40600001: (PathConflict, _('dir not acceptable')),
    40600002: (FolderExists, _('folder already exists')),
    40600003: (BadRequest, _('single-copy bucket not support form api')),
    40600004: (BadRequest, _('single-copy bucket not support breakpoint resume')),
    40800001: (BadRequest, _('read client request timeout')),
    41200001: (BadRequest, _('precondition failed')),
    41300001: (BadRequest, _('content length too large')),
    41500001: (BadRequest, _('media type error, need content-type')),
    42900001: (TooManyRequests, _('too many requests')),
    42900002: (TooManyRequests, _('too many requests of the same uri')),
    42900003: (TooManyRequests, _('too many requests of the same bucket')),
    42900004: (TooManyRequests, _('request banned')),
    42900005: (TooManyRequests, _('bandwidth limit')),
    42900006: (TooManyRequests, _('too many auth check')),
    50300000: (ServiceUnavailable, _('unknown error')),
    50300001: (ServiceUnavailable, _('write hub failed')),
    50300002: (ServiceUnavailable, _('decode error')),
    50300003: (ServiceUnavailable, _('ffmpeg error')),
    50300006: (ServiceUnavailable, _('get hub error')),
    50300007: (ServiceUnavailable, _('capture file from fs error')),
    50300008: (ServiceUnavailable, _('delete hub error')),
    50300009: (ServiceUnavailable, _('get body temp file error')),
    50300010: (ServiceUnavailable, _('read body temp file error')),
    50300011: (ServiceUnavailable, _('capture file from ffmpeg error')),
    50300012: (ServiceUnavailable, _('service error in thumb')),
    50300013: (ServiceUnavailable, _('put file capture timeout')),
    50300014: (ServiceUnavailable, _('get client socket error')),
    50300015: (ServiceUnavailable, _('decode image info error')),
    50300016: (ServiceUnavailable, _('get image info error')),
    50300017: (ServiceUnavailable, _('failed to new md5')),
    50300018: (ServiceUnavailable, _('failed to new form')),
    50300020: (ServiceUnavailable, _('put file capture error')),
    50300021: (ServiceUnavailable, _('put capture broken pipe')),
    50300022: (ServiceUnavailable, _('new resource error')),
    50300023: (ServiceUnavailable, _('connect to db error')),
    50300024: (ServiceUnavailable, _('get master failed')),
    50300025: (ServiceUnavailable, _('write info error')),
    50300026: (ServiceUnavailable, _('get data error')),
    50300027: (ServiceUnavailable, _('put file to fs error')),
    50300028: (ServiceUnavailable, _('get file from fs error')),
    50300029: (ServiceUnavailable, _('unknow error')),
    50300030: (ServiceUnavailable, _('upstream closed connection')),
    50300031: (ServiceUnavailable, _('read upstream timeout')),
    50300032: (ServiceUnavailable, _('wrong data')),
    50300033: (ServiceUnavailable, _('new resource error')),
    50300034: (ServiceUnavailable, _('get info errors')),
    50300035: (ServiceUnavailable, _('decode hub body error')),
    50300036: (ServiceUnavailable, _('send to message queue error')),
    50300038: (ServiceUnavailable, _('failed to new http')),
    50300039: (ServiceUnavailable, _('failed to get client body reader')),
    50300040: (ServiceUnavailable, _('wrong config')),
    50300041: (ServiceUnavailable, _('connect to database error')),
    50300042: (ServiceUnavailable, _('delete path error')),
    50300043: (ServiceUnavailable, _('put task to message queue error')),
    50300044: (ServiceUnavailable, _('avalon list dir error')),
}

ERRORS_BY_CODE: dict[int, type[StorageError]] = {code: row[0] for code, row in ERRNO.items()}


def table_message(code: int | None) -> str | None:
    """The table's message for `code` (in English; `storage.texts` translates it); None for a
    code not in the table."""
    row = ERRNO.get(code) if code is not None else None
    return None if row is None else row[1]


def _error_class_for_status(status: int) -> type[StorageError]:
    """Class for an answer without a known code (HEAD has no body, proxies answer in HTML)."""
    if status == 401:
        return AuthenticationError
    if status == 404:
        return NotFound
    if status == 400:
        return BadRequest
    if status == 403:
        return Forbidden
    if status == 429:
        return TooManyRequests
    if status == 503:
        return ServiceUnavailable
    if status >= 500:
        return ServerError
    return StorageError


def error_from_response(response: requests.Response) -> StorageError:
    """Typed error for a 4xx/5xx answer whose body is `{"msg", "code", "id", "detail"?}` (or
    anything): the class of the code's row in the error table (`storage.client.errno`), else
    one chosen by the HTTP status."""
    headers = dict(response.headers)
    code: int | None = None
    msg = response.reason or "error"
    request_id: str | None = None
    detail = ""
    try:
        payload = response.json()
    except ValueError:
        payload = None
    if isinstance(payload, dict):
        code = as_int(payload.get("code"))
        msg = str(payload.get("msg") or msg)
        request_id = str(payload["id"]) if payload.get("id") is not None else None
        detail = str(payload.get("detail") or "")
    if code is None:
        # A HEAD answer has no body; the code may then come in a header.
        code = int_header(response.headers, "x-error-code")
    cls = ERRORS_BY_CODE.get(code) if code is not None else None
    if cls is None:
        cls = _error_class_for_status(response.status_code)
    return cls(msg, code=code, request_id=request_id, status=response.status_code, headers=headers,
               detail=detail)
