"""Request ids: taken from `X-Request-Id` (when it is a sane token) or made, returned in the
response, written on every log line (`LOG_FORMAT=json`), and carried into the Celery tasks the
request queues, so one id follows a piece of work from the browser to the worker."""

from __future__ import annotations

import contextvars
import logging
import re
import uuid
from collections.abc import Callable
from typing import Any

from celery import Task
from celery.signals import before_task_publish, task_postrun, task_prerun
from django.http import HttpRequest, HttpResponse

HEADER = "X-Request-Id"
# What we accept from a client: short, and safe to write into logs and headers.
ACCEPTABLE = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")

current: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="")


def new_id() -> str:
    return uuid.uuid4().hex


class RequestIdMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        given = request.headers.get(HEADER, "")
        request_id = given if ACCEPTABLE.match(given) else new_id()
        token = current.set(request_id)
        try:
            response = self.get_response(request)
        finally:
            current.reset(token)
        response[HEADER] = request_id
        return response


class RequestIdFilter(logging.Filter):
    """Puts the current request id on every record (empty outside requests and tasks)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = current.get()
        return True


@before_task_publish.connect
def _send_with_request_id(headers: dict[str, Any] | None = None, **_kwargs: Any) -> None:
    request_id = current.get()
    if headers is not None and request_id and "request_id" not in headers:
        headers["request_id"] = request_id


_task_tokens: dict[str, contextvars.Token[str]] = {}


@task_prerun.connect
def _run_with_request_id(task_id: str | None = None, task: Task[..., Any] | None = None,
                         **_kwargs: Any) -> None:
    context = getattr(task, "request", None)
    request_id = getattr(context, "request_id", None) or (
        (getattr(context, "headers", None) or {}).get("request_id", ""))
    if task_id:
        _task_tokens[task_id] = current.set(str(request_id))


@task_postrun.connect
def _forget_request_id(task_id: str | None = None, **_kwargs: Any) -> None:
    token = _task_tokens.pop(task_id or "", None)
    if token is not None:
        try:
            current.reset(token)
        except ValueError:  # set in another context (a thread pool): just clear it
            current.set("")
