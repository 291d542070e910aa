"""In a real browser, on a page of another origin: the storage port answers CORS, so the page
can post the FORM API and send signed REST requests with `X-Date` (which a browser may set,
where it may not set `Date`), and read the provider's headers; an origin the setting does not
allow is refused by the browser."""

from __future__ import annotations

import hashlib
from email.utils import formatdate

import pytest

from tests.sandbox.form_support import FormClient, body_signature, encode_policy
from tests.sandbox.test_storage_client import StorageClient, current_signature

pytestmark = pytest.mark.browser

FORM_POST = """async ([url, policy, authorization]) => {
  const form = new FormData();
  form.append("policy", policy);
  form.append("authorization", authorization);
  form.append("file", new Blob(["from the browser"]), "b.txt");
  const answer = await fetch(url, {method: "POST", body: form});
  return {status: answer.status, body: await answer.json()};
}"""

SIGNED_PUT_AND_HEAD = """async ([url, date, put, head]) => {
  const sent = await fetch(url, {method: "PUT", body: "put from the browser",
                                 headers: {"Authorization": put, "X-Date": date}});
  const seen = await fetch(url, {method: "HEAD",
                                 headers: {"Authorization": head, "X-Date": date}});
  return {put: sent.status, head: seen.status, size: seen.headers.get("x-svc-file-size"),
          type: seen.headers.get("x-svc-file-type")};
}"""

REFUSED = """async ([url]) => {
  try { await fetch(url, {method: "PUT", body: "x", headers: {"X-Date": "now"}}); }
  catch (error) { return "refused"; }
  return "answered";
}"""


@pytest.fixture
def other_origin(page, origin_server):
    origin_server.page("/", b"<!doctype html><title>shop</title>", content_type="text/html")
    page.goto(f"{origin_server.address}/")
    return page


def test_a_page_of_another_origin_posts_the_form(other_origin, sandbox):
    form = FormClient(sandbox)
    policy = encode_policy(form.policy("/cors/browser.txt"))
    authorization = f"SVC {form.operator}:" + body_signature(f"/{form.bucket}", policy,
                                                             form.password)
    answer = other_origin.evaluate(FORM_POST, [f"{form.base}/{form.bucket}", policy,
                                               authorization])
    assert answer["status"] == 200
    assert answer["body"]["url"] == "/cors/browser.txt"
    assert StorageClient(sandbox).get("/cors/browser.txt").content == b"from the browser"


def test_a_page_of_another_origin_sends_signed_rest_requests_with_x_date(other_origin,
                                                                          sandbox):
    storage = StorageClient(sandbox)
    date = formatdate(sandbox.now(), usegmt=True)
    uri = storage.uri("/cors/rest.txt")
    put = f"SVC {storage.operator}:" + current_signature("PUT", uri, date, storage.password)
    head = f"SVC {storage.operator}:" + current_signature("HEAD", uri, date, storage.password)
    answer = other_origin.evaluate(SIGNED_PUT_AND_HEAD, [storage.base + uri, date, put, head])
    assert answer == {"put": 200, "head": 200, "size": str(len(b"put from the browser")),
                      "type": "file"}
    assert hashlib.md5(storage.get("/cors/rest.txt").content).hexdigest() == \
        hashlib.md5(b"put from the browser").hexdigest()


def test_an_origin_that_is_not_allowed_is_refused_by_the_browser(other_origin, sandbox):
    sandbox.control("POST", "/storage/cors", {"origins": ["http://shop.example"]})
    try:
        storage = StorageClient(sandbox)
        assert other_origin.evaluate(REFUSED, [storage.base + storage.uri("/cors/x.txt")]) == \
            "refused"
    finally:
        sandbox.control("POST", "/storage/cors", {"origins": None})
