"""Fault injection: every action, before and after the request takes effect, counted and
filtered, with clear 400s for bad fault definitions."""

import time

import pytest
import requests


def sms_url(sandbox, path="/api/anything"):
    return f"{sandbox.info['sms_api_url']}{path}"


def real_status(method, url):
    """The service's own answer without any fault, whatever the emulator makes of the request."""
    return requests.request(method, url, timeout=5).status_code


def test_a_status_fault_answers_with_the_given_status_and_body(sandbox):
    sandbox.add_fault(service="sms", path="^/api/", action="status", status=503,
                      body={"error_code": "SYSTEM_ERROR", "message": "injected"})
    response = requests.get(sms_url(sandbox), timeout=5)
    assert response.status_code == 503
    assert response.json() == {"error_code": "SYSTEM_ERROR", "message": "injected"}


def test_a_drop_fault_closes_the_connection_without_an_answer(sandbox):
    sandbox.add_fault(service="sms", path="^/api/", action="drop")
    with pytest.raises(requests.ConnectionError):
        requests.get(sms_url(sandbox), timeout=5)


def test_a_delay_fault_answers_late(sandbox):
    expected = real_status("GET", sms_url(sandbox))
    sandbox.add_fault(service="sms", path="^/api/", action="delay", delay_ms=400)
    started = time.monotonic()
    response = requests.get(sms_url(sandbox), timeout=5)
    assert time.monotonic() - started >= 0.4
    assert response.status_code == expected  # the real answer, only late


def test_a_timeout_fault_answers_after_the_client_gave_up(sandbox):
    sandbox.add_fault(service="sms", path="^/api/", action="timeout", delay_ms=1500)
    with pytest.raises(requests.Timeout):
        requests.get(sms_url(sandbox), timeout=0.5)


def test_a_fault_fires_only_the_given_number_of_times(sandbox):
    expected = real_status("GET", sms_url(sandbox))
    sandbox.add_fault(service="sms", path="^/api/", action="status", status=599, times=2)
    statuses = [requests.get(sms_url(sandbox), timeout=5).status_code for _ in range(3)]
    assert statuses == [599, 599, expected]
    listed = sandbox.control("GET", "/faults").json()["faults"]
    assert listed[0]["remaining"] == 0 and listed[0]["hits"] == 2


def test_a_fault_filters_by_method_and_path(sandbox):
    get_messages = real_status("GET", sms_url(sandbox, "/api/messages"))
    post_templates = real_status("POST", sms_url(sandbox, "/api/templates"))
    sandbox.add_fault(service="sms", path="^/api/messages", method="POST", action="status",
                      status=599)
    assert real_status("GET", sms_url(sandbox, "/api/messages")) == get_messages
    assert real_status("POST", sms_url(sandbox, "/api/templates")) == post_templates
    assert real_status("POST", sms_url(sandbox, "/api/messages")) == 599


def test_a_fault_added_after_requests_without_faults_hits_the_next_request(sandbox):
    expected = real_status("GET", sms_url(sandbox))
    assert [real_status("GET", sms_url(sandbox)) for _ in range(3)] == [expected] * 3
    sandbox.add_fault(service="sms", path="^/api/", action="status", status=599, times=1)
    assert real_status("GET", sms_url(sandbox)) == 599
    assert real_status("GET", sms_url(sandbox)) == expected  # used up: no fault left
    sandbox.add_fault(service="sms", path="^/api/", action="status", status=598)
    assert real_status("GET", sms_url(sandbox)) == 598


def test_a_fault_added_after_faults_were_cleared_fires(sandbox):
    sandbox.add_fault(service="sms", path="^/api/", action="status", status=599)
    sandbox.control("DELETE", "/faults")
    expected = real_status("GET", sms_url(sandbox))
    assert expected != 599
    sandbox.add_fault(service="sms", path="^/api/", action="status", status=599)
    assert real_status("GET", sms_url(sandbox)) == 599


def test_a_fault_matches_the_query_string_too(sandbox):
    sandbox.add_fault(service="storage", path=r"\?usage$", action="status", status=429)
    base = sandbox.info["storage_url"]
    assert requests.get(f"{base}/bucket/?usage", timeout=5).status_code == 429


def test_a_fault_applies_only_to_its_service(sandbox):
    expected = real_status("GET", sms_url(sandbox))
    sandbox.add_fault(service="topup", path=".*", action="status", status=599)
    assert real_status("GET", sms_url(sandbox)) == expected


def test_probability_zero_never_fires(sandbox):
    expected = real_status("GET", sms_url(sandbox))
    sandbox.add_fault(service="sms", path=".*", action="status", status=599, probability=0)
    assert all(real_status("GET", sms_url(sandbox)) == expected for _ in range(5))


def test_an_after_fault_lets_the_request_take_effect_then_replaces_the_answer(sandbox):
    # The SMS settings endpoint lives on the control port, which is never faulted: it shows
    # whether the faulted template creation took effect although its answer was replaced.
    sandbox.add_fault(service="sms", path="^/api/templates$", method="POST", action="status",
                      status=599, when="after")
    template = {"title": "Welcome", "temp_sign": "Shop", "content": "Hello {$var1}",
                "sign_location": "top", "type": "industry", "report_type": "general"}
    url = sms_url(sandbox, "/api/templates")
    token = {"Authorization": sandbox.info["sms"]["token"]}
    assert requests.post(url, json=template, headers=token, timeout=5).status_code == 599
    listed = requests.get(url, headers=token, timeout=5).json()["templates"]
    assert [t["title"] for t in listed] == ["Welcome"]


def test_a_before_fault_stops_the_request_from_taking_effect(sandbox):
    sandbox.add_fault(service="sms", path="^/api/templates$", method="POST", action="drop")
    template = {"title": "Welcome", "temp_sign": "Shop", "content": "Hello {$var1}",
                "sign_location": "top", "type": "industry", "report_type": "general"}
    url = sms_url(sandbox, "/api/templates")
    token = {"Authorization": sandbox.info["sms"]["token"]}
    with pytest.raises(requests.ConnectionError):
        requests.post(url, json=template, headers=token, timeout=5)
    assert requests.get(url, headers=token, timeout=5).json()["templates"] == []


def test_faults_are_listed_and_cleared(sandbox):
    sandbox.add_fault(service="sms", path="a", action="drop")
    sandbox.add_fault(service="media", path="b", action="delay", delay_ms=10)
    assert len(sandbox.control("GET", "/faults").json()["faults"]) == 2
    assert sandbox.control("DELETE", "/faults").json() == {"deleted": 2}
    assert sandbox.control("GET", "/faults").json() == {"faults": []}


def test_reset_clears_faults(sandbox):
    expected = real_status("GET", sms_url(sandbox))
    sandbox.add_fault(service="sms", path=".*", action="status", status=599)
    sandbox.reset()
    assert real_status("GET", sms_url(sandbox)) == expected


@pytest.mark.parametrize(("fault", "field"), [
    ({"path": ".*", "action": "drop"}, "service"),
    ({"service": "mail", "path": ".*", "action": "drop"}, "service"),
    ({"service": "sms", "action": "drop"}, "path"),
    ({"service": "sms", "path": "(", "action": "drop"}, "path"),
    ({"service": "sms", "path": ".*"}, "action"),
    ({"service": "sms", "path": ".*", "action": "explode"}, "action"),
    ({"service": "sms", "path": ".*", "action": "status"}, "status"),
    ({"service": "sms", "path": ".*", "action": "status", "status": 99}, "status"),
    ({"service": "sms", "path": ".*", "action": "delay"}, "delay_ms"),
    ({"service": "sms", "path": ".*", "action": "delay", "delay_ms": -1}, "delay_ms"),
    ({"service": "sms", "path": ".*", "action": "drop", "times": 0}, "times"),
    ({"service": "sms", "path": ".*", "action": "drop", "probability": 1.5}, "probability"),
    ({"service": "sms", "path": ".*", "action": "drop", "when": "later"}, "when"),
    ({"service": "sms", "path": ".*", "action": "drop", "method": "FETCH"}, "method"),
    ({"service": "sms", "path": ".*", "action": "drop", "colour": "red"}, "colour"),
])
def test_it_rejects_a_bad_fault_naming_the_field(sandbox, fault, field):
    response = sandbox.control("POST", "/faults", fault)
    assert response.status_code == 400
    assert response.json()["field"] == field
    assert sandbox.control("GET", "/faults").json() == {"faults": []}
