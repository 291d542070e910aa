"""Template endpoints: the exact requests sent and how answers are read (no server needed)."""

import json
from datetime import UTC, datetime

import pytest
import responses

from sms.client import Owner, SmsClient, Template
from sms.errors import SmsResponseError

BASE = "https://sms.example.test"
TOKEN = "tok-3P83lWwkoV15"
OWNER_JSON = {
    "id": 7,
    "name": "merchant",
    "general": 120,
    "vip": 30,
    "industry": 4,
    "marketing": 1,
}
TEMPLATE_JSON = {
    "id": 42,
    "title": "验证码",
    "temp_sign": "落子時",
    "content": "您的验证码是{$var1}",
    "sign_location": "bottom",
    "type": "industry",
    "report_type": "vip",
    "status": "review",
    "updated_at": "2017-04-07T08:47:37.250Z",
    "owner": OWNER_JSON,
}


@pytest.fixture
def mock():
    with responses.RequestsMock() as rsps:
        yield rsps


@pytest.fixture
def client():
    # The trailing slash must not produce "//api/...".
    return SmsClient(BASE + "/", TOKEN)


def test_it_creates_a_template_with_a_json_body_and_the_raw_token(mock, client):
    mock.post(f"{BASE}/api/templates", json=TEMPLATE_JSON, status=201)

    template = client.create_template(
        title="验证码",
        content="您的验证码是{$var1}",
        temp_sign="落子時",
        sign_location="bottom",
        type="industry",
        report_type="vip",
    )

    request = mock.calls[0].request
    assert request.method == "POST"
    assert request.url == f"{BASE}/api/templates"
    assert request.headers["Authorization"] == TOKEN
    assert request.headers["Content-Type"] == "application/json"
    assert json.loads(request.body) == {
        "title": "验证码",
        "content": "您的验证码是{$var1}",
        "temp_sign": "落子時",
        "sign_location": "bottom",
        "type": "industry",
        "report_type": "vip",
    }
    assert template == Template(
        id=42,
        title="验证码",
        temp_sign="落子時",
        content="您的验证码是{$var1}",
        sign_location="bottom",
        type="industry",
        report_type="vip",
        status="review",
        updated_at=datetime(2017, 4, 7, 8, 47, 37, 250000, tzinfo=UTC),
        owner=Owner(id=7, name="merchant", general=120, vip=30, industry=4, marketing=1),
    )


def test_it_sends_only_the_fields_being_edited(mock, client):
    mock.patch(f"{BASE}/api/templates/42", json={**TEMPLATE_JSON, "title": "新标题"})

    template = client.edit_template(42, title="新标题", sign_location="top")

    request = mock.calls[0].request
    assert request.method == "PATCH"
    assert request.url == f"{BASE}/api/templates/42"
    assert request.headers["Authorization"] == TOKEN
    assert json.loads(request.body) == {"title": "新标题", "sign_location": "top"}
    assert template.title == "新标题"


def test_an_edit_without_changes_sends_an_empty_patch_which_resubmits(mock, client):
    mock.patch(f"{BASE}/api/templates/42", json=TEMPLATE_JSON)

    template = client.edit_template(42)

    assert json.loads(mock.calls[0].request.body) == {}
    assert template.status == "review"


def test_it_deletes_a_template_and_accepts_an_empty_204(mock, client):
    mock.delete(f"{BASE}/api/templates/42", status=204, body="")

    assert client.delete_template(42) is None

    request = mock.calls[0].request
    assert (request.method, request.url) == ("DELETE", f"{BASE}/api/templates/42")
    assert request.headers["Authorization"] == TOKEN


@pytest.mark.parametrize("bad_id", [0, -3, True, "42", 4.2, None])
def test_it_refuses_a_template_id_that_is_not_a_positive_integer(mock, client, bad_id):
    with pytest.raises(ValueError, match="template_id"):
        client.delete_template(bad_id)
    assert len(mock.calls) == 0


def test_it_lists_templates_without_filters(mock, client):
    mock.get(f"{BASE}/api/templates", json={"templates": [TEMPLATE_JSON, TEMPLATE_JSON]})

    templates = client.list_templates()

    assert mock.calls[0].request.url == f"{BASE}/api/templates"
    assert [template.id for template in templates] == [42, 42]


def test_it_lists_templates_with_every_filter_in_the_query(mock, client):
    mock.get(f"{BASE}/api/templates", json={"templates": []})

    assert client.list_templates(status="defeat", type="marketing", report_type="general") == []

    request = mock.calls[0].request
    assert request.method == "GET"
    assert request.url == f"{BASE}/api/templates?status=defeat&type=marketing&report_type=general"
    assert request.headers["Authorization"] == TOKEN


@pytest.mark.parametrize(
    "filters",
    [{"status": "approved"}, {"type": "notice"}, {"report_type": "VIP"}],
)
def test_it_refuses_an_unknown_filter_value_before_any_request(mock, client, filters):
    with pytest.raises(ValueError, match="must be one of"):
        client.list_templates(**filters)
    assert len(mock.calls) == 0


def test_it_keeps_an_unknown_template_status_verbatim(mock, client):
    mock.get(f"{BASE}/api/templates", json={"templates": [{**TEMPLATE_JSON, "status": "frozen"}]})
    assert client.list_templates()[0].status == "frozen"


@pytest.mark.parametrize("owner", [None, "absent"])
def test_it_reads_a_template_without_owner(mock, client, owner):
    body = dict(TEMPLATE_JSON)
    if owner == "absent":
        del body["owner"]
    else:
        body["owner"] = owner
    mock.get(f"{BASE}/api/templates", json={"templates": [body]})
    assert client.list_templates()[0].owner is None


@pytest.mark.parametrize(
    ("field", "value"),
    [("id", "42"), ("id", True), ("title", None), ("updated_at", "yesterday"), ("owner", [])],
)
def test_it_refuses_a_template_with_a_wrong_field(mock, client, field, value):
    mock.get(f"{BASE}/api/templates", json={"templates": [{**TEMPLATE_JSON, field: value}]})
    with pytest.raises(SmsResponseError):
        client.list_templates()


def test_it_names_a_missing_template_field(mock, client):
    body = {key: value for key, value in TEMPLATE_JSON.items() if key != "temp_sign"}
    mock.post(f"{BASE}/api/templates", json=body, status=201)
    with pytest.raises(SmsResponseError, match="'temp_sign' is missing"):
        client.create_template(
            title="t",
            content="c",
            temp_sign="abc",
            sign_location="top",
            type="industry",
            report_type="vip",
        )


def test_it_refuses_a_list_answer_without_templates(mock, client):
    mock.get(f"{BASE}/api/templates", json={"items": []})
    with pytest.raises(SmsResponseError, match="'templates'"):
        client.list_templates()
