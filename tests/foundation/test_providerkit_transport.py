"""providerkit's Transport: the timeout on every request, each call shown to the observers
(status, or None and the error), and transport failures mapped to the kit's failures."""

import pickle

import pytest
import requests
import responses

from providerkit.failures import NoAnswer, ProviderFailure, ShapeError, UnusableAnswer
from providerkit.observing import ProviderCall
from providerkit.timeouts import DEFAULT_TIMEOUT, check_timeout, with_read
from providerkit.transport import Transport, json_object_answer
from tests.sandbox_process import free_base_port

BASE = "https://provider.test/api"


class Recorder:
    def __init__(self) -> None:
        self.calls: list[ProviderCall] = []

    def observe(self, call: ProviderCall) -> None:
        self.calls.append(call)


class Broken:
    def observe(self, call: ProviderCall) -> None:
        raise RuntimeError("metrics down")


@pytest.fixture
def mock():
    with responses.RequestsMock() as rsps:
        yield rsps


def ticking():
    now = [100.0]

    def clock() -> float:
        now[0] += 0.25
        return now[0]

    return clock


def test_it_passes_its_timeout_to_every_request(mock):
    mock.get(f"{BASE}/a", json={})
    Transport("sms", BASE).request("GET", "/a")
    Transport("sms", BASE, timeout=with_read(90.0)).request("GET", "/a")
    assert mock.calls[0].request.req_kwargs["timeout"] == DEFAULT_TIMEOUT
    assert mock.calls[1].request.req_kwargs["timeout"] == (5.0, 90.0)


def test_the_default_connects_quickly_and_reads_longer():
    connect, read = DEFAULT_TIMEOUT
    assert connect < read


@pytest.mark.parametrize("timeout", [0, -1, (5.0, 0), True])
def test_a_timeout_that_is_not_positive_is_refused(timeout):
    with pytest.raises(ValueError, match="timeout must be positive"):
        check_timeout(timeout)


def test_observers_see_each_answer_with_its_status_path_headers_and_duration(mock):
    mock.put(f"{BASE}/files/12", status=503)
    recorder = Recorder()
    transport = Transport("storage", BASE, observers=[recorder], clock=ticking())
    response = transport.request(
        "PUT", "/files/12", params={"q": "1"}, headers={"X-Svc-Multi-Stage": "upload"}
    )
    assert response.status_code == 503  # every answer is returned; the client reads it
    [call] = recorder.calls
    assert (call.service, call.method, call.path) == ("storage", "PUT", "/api/files/12")
    assert call.status == 503 and call.error is None and call.seconds == 0.25
    assert call.headers["x-svc-multi-stage"] == "upload"  # case-insensitive, as requests'


def test_no_answer_is_observed_with_no_status_and_its_error_then_raised_as_no_answer():
    recorder = Recorder()
    transport = Transport("topup", f"http://127.0.0.1:{free_base_port()}", timeout=2,
                          observers=[recorder])
    with pytest.raises(NoAnswer) as caught:
        transport.request("POST", "/getMyBalance")
    [call] = recorder.calls
    assert call.status is None and isinstance(call.error, requests.ConnectionError)
    failure = caught.value
    assert isinstance(failure.__cause__, requests.ConnectionError)
    assert failure.connection_failed and not failure.timed_out
    assert failure.detail.startswith("POST /getMyBalance: ConnectionError: ")


def test_a_timeout_is_a_no_answer_that_says_so(mock):
    mock.get(f"{BASE}/slow", body=requests.Timeout("read timed out"))
    with pytest.raises(NoAnswer) as caught:
        Transport("media", BASE).request("GET", "/slow")
    assert caught.value.timed_out and caught.value.connection_failed


def test_an_observer_that_fails_never_breaks_the_call(mock):
    mock.get(f"{BASE}/a", json={"ok": True})
    recorder = Recorder()
    transport = Transport("sms", BASE, observers=[Broken(), recorder])
    assert transport.request("GET", "/a").json() == {"ok": True}
    assert len(recorder.calls) == 1


def test_an_answer_that_is_not_json_or_not_an_object_is_unusable(mock):
    mock.get(f"{BASE}/html", body="<html>proxy</html>", status=502)
    mock.get(f"{BASE}/list", json=[1])
    transport = Transport("sms", BASE)
    with pytest.raises(UnusableAnswer, match=r"GET /html: the answer is not JSON \(HTTP 502\)"):
        json_object_answer(transport.request("GET", "/html"), "GET /html")
    with pytest.raises(ShapeError, match="GET /list: is JSON list, not object"):
        json_object_answer(transport.request("GET", "/list"), "GET /list")


@pytest.mark.parametrize(
    "failure",
    [
        ProviderFailure("x"),
        UnusableAnswer("not JSON", 502),
        ShapeError("template: field 'id' is missing"),
        NoAnswer("GET /a: Timeout: slow", timed_out=True),
    ],
)
def test_failures_survive_pickling_as_celery_carries_them(failure):
    copy = pickle.loads(pickle.dumps(failure))
    assert type(copy) is type(failure) and str(copy) == str(failure)
    assert (copy.detail, copy.status) == (failure.detail, failure.status)
    if isinstance(failure, NoAnswer):
        assert copy.timed_out and copy.connection_failed
