"""The FORM API (api/form_api.md) at the sandbox: policy, signature, limits, answer, return-url,
notify-url, and CORS on the storage port."""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import json
import re
import time
from urllib.parse import parse_qsl, urlsplit

import pytest
import requests
from PIL import Image

from tests.sandbox.form_support import FormClient, body_signature, encode_policy
from tests.sandbox.test_storage_client import StorageClient, md5_hex


@pytest.fixture
def form(sandbox):
    return FormClient(sandbox)


@pytest.fixture
def storage(sandbox):
    return StorageClient(sandbox)


def png(width: int = 40, height: int = 20) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(buffer, format="PNG")
    return buffer.getvalue()


def refusal(response: requests.Response, code: int, msg: str) -> dict:
    """errno.md's code and exact message, the status code // 100000, and a detail."""
    assert response.status_code == code // 100000, response.text
    body = response.json()
    assert (body["code"], body["msg"]) == (code, msg), body
    assert body["id"] and body["detail"]
    return body


# --- success -----------------------------------------------------------------------------


def test_a_signed_form_upload_stores_the_file_and_answers_the_result(form, storage):
    response = form.post(form.policy("/form/hello.txt"), b"hello form")
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["code"] == 200 and answer["message"] == "ok"
    assert answer["url"] == "/form/hello.txt"
    assert abs(answer["time"] - form.sandbox.now()) < 60
    assert "image-width" not in answer
    assert storage.get("/form/hello.txt").content == b"hello form"


def test_the_test_signer_gives_the_pages_own_example():
    """api/authorization.md's worked example (the text it signs shows the date as
    "Wed, 09 Nov 2016 ..."); the tests below prove the sandbox accepts this signer's output."""
    policy = ("eyJidWNrZXQiOiAidXB5dW4tdGVtcCIsICJzYXZlLWtleSI6ICIvZGVtby5qcGciLCAiZXhwaXJhdGlvbiI6"
              "ICIxNDc4Njc0NjE4IiwgImRhdGUiOiAiV2VkLCA5IE5vdiAyMDE2IDE0OjI2OjU4IEdNVCIsICJjb250ZW50"
              "LW1kNSI6ICI3YWM2NmMwZjE0OGRlOTUxOWI4YmQyNjQzMTJjNGQ2NCJ9")
    assert body_signature("/upyun-temp", policy, "password123", "Wed, 09 Nov 2016 14:26:58 GMT",
                          "7ac66c0f148de9519b8bd264312c4d64") == "DTGOeaCa1yk1JWG4G3DH+u5sI5M="


def test_the_date_and_content_md5_of_the_policy_are_signed(form, storage):
    data = b"signed with date and md5"
    policy = form.policy("/form/dated.txt", date="Wed, 09 Nov 2016 14:26:58 GMT",
                         **{"content-md5": hashlib.md5(data).hexdigest()})
    assert form.post(policy, data).status_code == 200
    assert storage.get("/form/dated.txt").content == data


def test_service_stands_for_bucket_as_the_official_sdks_send_it(form):
    policy = form.policy("/form/service.txt")
    policy["service"] = policy.pop("bucket")
    assert form.post(policy).status_code == 200


def test_save_key_placeholders_take_the_time_md5_random_and_file_name(form, storage):
    data = b"placeholders"
    policy = form.policy("/{year}/{mon}/{day}/{hour}_{min}_{sec}_{filename}{.suffix}|"
                         "{suffix}|{filemd5}|{random}|{random32}")
    before = time.gmtime(form.sandbox.now())
    answer = form.post(policy, data, filename="sample.jpg").json()
    url = answer["url"]
    assert url.startswith(f"/{before.tm_year:04d}/{before.tm_mon:02d}/{before.tm_mday:02d}/")
    name = url.rsplit("/", 1)[1]
    stamp, suffix, md5, random16, random32 = name.split("|")
    assert re.fullmatch(r"\d\d_\d\d_\d\d_sample\.jpg", stamp)
    assert suffix == "jpg" and md5 == hashlib.md5(data).hexdigest()
    assert re.fullmatch(r"[a-z0-9]{16}", random16) and re.fullmatch(r"[a-z0-9]{32}", random32)
    assert storage.get(url).content == data


def test_an_image_answer_carries_its_size_type_and_frames(form):
    answer = form.post(form.policy("/form/red.png"), png(40, 20), filename="red.png").json()
    assert (answer["image-width"], answer["image-height"]) == (40, 20)
    assert (answer["image-type"], answer["image-frames"]) == ("PNG", 1)


def test_limits_that_hold_let_the_file_through(form):
    policy = form.policy("/form/limited.png", **{
        "content-length-range": "10,100000", "allow-file-type": "jpg,png",
        "image-width-range": "10,50", "image-height-range": "0,20"})
    assert form.post(policy, png(40, 20), filename="ok.PNG").status_code == 200


def test_metadata_secret_and_content_type_of_the_policy_are_stored(form, storage):
    policy = form.policy("/form/meta.bin", **{"x-svc-meta-owner": "ann", "x-svc-meta-ttl": "3",
                                              "content-secret": "abc123",
                                              "content-type": "text/x-note"})
    assert form.post(policy).status_code == 200
    head = storage.head("/form/meta.bin")
    assert head.headers["x-svc-meta-owner"] == "ann"
    assert head.headers["x-svc-meta-ttl"] == "3"
    assert head.headers["x-svc-meta-secret"] == "abc123"
    assert head.headers["Content-Type"] == "text/x-note"


def test_ext_param_comes_back_in_the_answer(form):
    answer = form.post(form.policy("/form/ext.txt", **{"ext-param": "clientId_42"})).json()
    assert answer["ext-param"] == "clientId_42"


def test_b64encoded_files_are_decoded_before_they_are_stored(form, storage):
    policy = form.policy("/form/decoded.txt", b64encoded="on")
    assert form.post(policy, base64.b64encode(b"was base64")).status_code == 200
    assert storage.get("/form/decoded.txt").content == b"was base64"


def test_x_gmkerl_thumb_processes_a_form_upload(form, storage):
    policy = form.policy("/form/thumb.png", **{"x-gmkerl-thumb": "/fw/20/format/jpg"})
    answer = form.post(policy, png(40, 20), filename="big.png").json()
    assert (answer["image-width"], answer["image-height"], answer["image-type"]) == \
        (20, 10, "JPEG")
    assert Image.open(io.BytesIO(storage.get("/form/thumb.png").content)).format == "JPEG"


def test_get_theme_color_answers_the_colours(form):
    policy = form.policy("/form/colour.png", **{"x-gmkerl-type": "get_theme_color",
                                                "x-gmkerl-extract-format": "hex",
                                                "x-gmkerl-extract-color-count": "4"})
    answer = form.post(policy, png(), filename="c.png").json()
    assert answer["colors"][0]["color"] == "0xc81e1e"


def test_get_meta_answers_the_image_information(form):
    policy = form.policy("/form/meta.png", **{"x-gmkerl-type": "get_meta"})
    answer = form.post(policy, png(40, 20), filename="m.png").json()
    assert answer["meta"]["width"] == 40 and answer["meta"]["type"] == "PNG"


# --- return-url and notify-url ---------------------------------------------------------


def test_return_url_is_visited_with_the_result_as_its_query(form):
    policy = form.policy("/form/back.txt", **{"return-url": "http://shop.example/return/?a=1",
                                              "ext-param": "x y"})
    response = form.post(policy)
    assert response.status_code == 302
    location = urlsplit(response.headers["Location"])
    assert (location.netloc, location.path) == ("shop.example", "/return/")
    query = dict(parse_qsl(location.query))
    assert query["a"] == "1"
    assert (query["code"], query["message"], query["url"]) == ("200", "ok", "/form/back.txt")
    assert query["time"].isdigit() and query["ext-param"] == "x y"


def test_a_refusal_after_the_signature_goes_to_return_url(form):
    policy = form.policy("/form/too-big.txt", **{"return-url": "http://shop.example/r",
                                                 "content-length-range": "0,3"})
    response = form.post(policy, b"four")
    assert response.status_code == 302
    query = dict(parse_qsl(urlsplit(response.headers["Location"]).query))
    assert (query["code"], query["message"]) == ("40300009", "file too large")


def test_notify_url_gets_the_result_signed_without_holding_up_the_answer(form, origin_server):
    origin_server.page("/notify", b"ok")
    policy = form.policy("/form/notified.txt", **{"notify-url": f"{origin_server.address}/notify"})
    answer = form.post(policy)
    assert answer.status_code == 200
    deadline = time.monotonic() + 10
    while not origin_server.requests and time.monotonic() < deadline:
        time.sleep(0.1)
    [call] = origin_server.requests
    assert call.method == "POST" and call.path == "/notify"
    fields = dict(parse_qsl(call.body.decode()))
    assert (fields["code"], fields["message"], fields["url"]) == ("200", "ok",
                                                                 "/form/notified.txt")
    assert call.headers["Content-MD5"] == hashlib.md5(call.body).hexdigest()
    text = f"POST&/notify&{call.headers['Date']}&{call.headers['Content-MD5']}"
    key = md5_hex(form.password).encode()
    signature = base64.b64encode(hmac.new(key, text.encode(), hashlib.sha1).digest()).decode()
    assert call.headers["Authorization"] == f"SVC {form.operator}:{signature}"
    report = form.sandbox.control("GET", "/storage/notifications").json()["notifications"]
    assert report[-1]["done"] is True and report[-1]["calls"][0]["status"] == 200


def test_a_failed_notification_is_made_again_a_minute_later(form, origin_server):
    origin_server.fail_with(500)
    policy = form.policy("/form/retry.txt", **{"notify-url": f"{origin_server.address}/n"})
    assert form.post(policy).status_code == 200
    deadline = time.monotonic() + 10
    while len(origin_server.requests) < 1 and time.monotonic() < deadline:
        time.sleep(0.1)
    origin_server.fail_with(None)
    origin_server.page("/n", b"ok")
    form.sandbox.advance(61)
    deadline = time.monotonic() + 10
    while len(origin_server.requests) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(origin_server.requests) == 2


# --- refusals ----------------------------------------------------------------------------


def test_an_expired_policy_is_refused(form, storage):
    policy = form.policy("/form/late.txt", expiration=int(form.sandbox.now()) - 5)
    refusal(form.post(policy), 40300006, "authorization has expired")
    assert storage.head("/form/late.txt").status_code == 404


def test_a_policy_for_another_bucket_than_the_path_is_refused(form):
    policy = form.policy("/form/other.txt", bucket="another-bucket")
    body = refusal(form.post(policy), 40000036, "uri bucket must be same as param bucket")
    assert "another-bucket" in body["detail"]


@pytest.mark.parametrize("data, code, msg", [
    (b"ab", 40300008, "file too small"),
    (b"abcdefghijk", 40300009, "file too large"),
])
def test_a_file_outside_content_length_range_is_refused(form, storage, data, code, msg):
    policy = form.policy("/form/sized.txt", **{"content-length-range": "3,10"})
    refusal(form.post(policy, data), code, msg)
    assert storage.head("/form/sized.txt").status_code == 404


def test_a_bad_signature_is_refused(form):
    refusal(form.post(form.policy(), password="not-the-password"), 40100005, "signature error")


def test_a_signature_without_the_policys_date_is_refused(form):
    policy = form.policy("/form/dated.txt", date="Wed, 09 Nov 2016 14:26:58 GMT")
    encoded = encode_policy(policy)
    unsigned_date = body_signature(f"/{form.bucket}", encoded, form.password)
    response = form.post(policy, authorization=f"SVC {form.operator}:{unsigned_date}")
    refusal(response, 40100005, "signature error")


def test_a_file_type_outside_allow_file_type_is_refused(form):
    policy = form.policy("/form/x.exe", **{"allow-file-type": "jpg,png"})
    body = refusal(form.post(policy, filename="tool.exe"), 40300010, "file type error")
    assert "exe" in body["detail"]


@pytest.mark.parametrize("extra, code, msg", [
    ({"image-width-range": "0,10"}, 40300019, "image width too small or too big"),
    ({"image-height-range": "30,100"}, 40300020, "image height too small or too big"),
    ({"image-width-range": "10"}, 40300022, "invalid image-width-range"),
    ({"image-height-range": "9,1"}, 40300023, "invalid image-height-range"),
])
def test_image_ranges_are_checked(form, extra, code, msg):
    refusal(form.post(form.policy("/form/img.png", **extra), png(40, 20), filename="i.png"),
            code, msg)


def test_image_ranges_on_a_file_that_is_not_an_image_are_refused(form):
    policy = form.policy("/form/t.txt", **{"image-width-range": "0,10"})
    refusal(form.post(policy, b"text"), 40300018, "not an image")


def test_a_content_md5_that_does_not_match_is_refused(form):
    policy = form.policy("/form/md5.txt", **{"content-md5": "0" * 32})
    refusal(form.post(policy), 40000006, "content md5 not match")


@pytest.mark.parametrize("drop, code, msg", [
    ("bucket", 40000003, "need bucket name"),
    ("save-key", 40000001, "need save-key"),
    ("expiration", 40000004, "need expiration"),
])
def test_a_policy_without_a_required_parameter_is_refused(form, drop, code, msg):
    policy = form.policy()
    del policy[drop]
    refusal(form.post(policy), code, msg)


@pytest.mark.parametrize("fields, code, msg", [
    ({"policy": ""}, 40000007, "need policy"),
    ({"policy": "not base64!"}, 40000009, "decode policy error"),
    ({"policy": base64.b64encode(b"[1, 2]").decode()}, 40000009, "decode policy error"),
    ({"authorization": ""}, 40000008, "need signature"),
])
def test_a_form_without_a_readable_policy_or_an_authorization_is_refused(form, fields, code,
                                                                          msg):
    refusal(form.post(fields=fields), code, msg)


@pytest.mark.parametrize("extra, code, msg, named", [
    ({"content-length-range": "10"}, 40000000, "storage bad request", "content-length-range"),
    ({"notifyurl": "http://x"}, 40000000, "storage bad request", "notifyurl"),
    ({"apps": "[]"}, 40010003, "tasks number error", "apps"),
    ({"ext-param": "x" * 256}, 40000010, "data too long for ext-param", "255"),
    ({"save-key": "/{nonsense}.txt"}, 40000000, "storage bad request", "{nonsense}"),
    ({"x-gmkerl-thumb": "/fw/0"}, 40011035, "invalid param in thumb", "fw"),
    ({"x-gmkerl-thumb": "nosuchversion"}, 40300017, "no thumb setting found for bucket",
     "nosuchversion"),
    ({"content-secret": "no spaces"}, 40300016, "content-secret only accept [a-zA-Z0-9]", ""),
    ({"content-length": "12"}, 40001002, "wrong content-length", "12"),
])
def test_a_bad_policy_value_is_refused_naming_it(form, extra, code, msg, named):
    body = refusal(form.post(form.policy("/form/bad.txt", **extra), png(), filename="b.png"),
                   code, msg)
    assert named in body["detail"]


def test_an_unknown_operator_is_refused(form):
    refusal(form.post(operator="nobody"), 40100006, "user not exists")


def test_a_form_without_a_file_is_refused(form):
    refusal(form.post(with_file=False), 40000005, "need file")


def test_a_form_with_more_parts_than_the_server_reads_is_refused(form):
    files = [(f"extra{n}", (f"{n}.txt", b"x")) for n in range(101)]
    response = requests.post(f"{form.base}/{form.bucket}", files=files, timeout=30)
    body = refusal(response, 40000000, "storage bad request")
    assert "multipart" in body["detail"]


def test_a_post_to_the_bucket_that_is_no_form_is_refused(form):
    response = requests.post(f"{form.base}/{form.bucket}", data=b"{}",
                             headers={"Content-Type": "application/json"}, timeout=30)
    refusal(response, 40300025, "wrong content-type header")


# --- CORS --------------------------------------------------------------------------------

ORIGIN = "http://shop.example:8000"


def test_a_preflight_from_any_origin_is_allowed_by_default(form):
    response = requests.options(f"{form.base}/{form.bucket}/a.txt", headers={
        "Origin": ORIGIN, "Access-Control-Request-Method": "PUT",
        "Access-Control-Request-Headers": "authorization, x-date, content-md5"}, timeout=30)
    assert response.status_code == 204
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert "PUT" in response.headers["Access-Control-Allow-Methods"]
    assert response.headers["Access-Control-Allow-Headers"] == "authorization, x-date, content-md5"


def test_answers_to_another_origin_expose_the_providers_headers(form, storage):
    storage.put("/cors/a.txt", b"a", headers={"x-svc-meta-owner": "ann"})
    response = storage.head("/cors/a.txt", headers={"Origin": ORIGIN})
    exposed = [name.strip().lower() for name in
               response.headers["Access-Control-Expose-Headers"].split(",")]
    assert {"x-svc-file-size", "x-svc-list-iter", "x-svc-meta-owner"} <= set(exposed)
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    upload = form.post(form.policy("/cors/form.txt"), headers={"Origin": ORIGIN})
    assert upload.headers["Access-Control-Allow-Origin"] == "*"


def test_allowed_origins_can_be_limited_and_others_are_refused(form, storage):
    set_origins = form.sandbox.control("POST", "/storage/cors", {"origins": [ORIGIN]})
    assert set_origins.json() == {"origins": [ORIGIN]}
    try:
        allowed = requests.options(f"{form.base}/{form.bucket}", headers={
            "Origin": ORIGIN, "Access-Control-Request-Method": "POST"}, timeout=30)
        assert allowed.headers["Access-Control-Allow-Origin"] == ORIGIN
        assert "Origin" in allowed.headers["Vary"]
        refused = requests.options(f"{form.base}/{form.bucket}", headers={
            "Origin": "http://evil.example", "Access-Control-Request-Method": "POST"}, timeout=30)
        body = refusal(refused, 40000000, "storage bad request")
        assert "http://evil.example" in body["detail"]
        answer = storage.get("/", headers={"Origin": "http://evil.example"})
        assert "Access-Control-Allow-Origin" not in answer.headers
    finally:
        form.sandbox.control("POST", "/storage/cors", {"origins": None})
    assert form.sandbox.control("GET", "/storage/cors").json() == {"origins": ["*"]}


def test_a_bad_cors_setting_is_refused_naming_the_field(form):
    response = form.sandbox.control("POST", "/storage/cors", {"origins": ["shop.example"]})
    assert response.status_code == 400 and response.json()["field"] == "origins"
    assert json.loads(form.sandbox.control("GET", "/storage/cors").content) == {"origins": ["*"]}
