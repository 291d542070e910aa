"""gunicorn settings of a web node (`gunicorn -c deploy/gunicorn.conf.py backoffice.wsgi`).

The bind address and worker count come from the environment (`GUNICORN_BIND`, default
127.0.0.1:8000; `GUNICORN_WORKERS`, default 2), so the same file serves every host. With
PROMETHEUS_MULTIPROC_DIR set, the directory is emptied when gunicorn starts (metrics of a
previous run would add up otherwise) and a worker's files are marked dead when it exits.
"""

import os
from pathlib import Path

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", "2"))
# Parts of 1 MiB are forwarded to the provider inside the request: allow for a slow provider.
timeout = 120
# nginx in front: believe its X-Forwarded-* headers only from the local proxy.
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1")
accesslog = "-"
# gunicorn's own lines and its access lines in the back-office's format: UTC time stamps with
# their offset (backoffice.operations.logs), JSON with LOG_FORMAT=json. The time comes from the
# formatter, so the access line leaves out gunicorn's own local-time %(t)s.
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s"'
_log_format = "json" if os.environ.get("LOG_FORMAT") == "json" else "plain"
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"()": "backoffice.operations.logs.UtcFormatter"},
        "json": {"()": "backoffice.operations.logs.JsonFormatter"},
    },
    "handlers": {
        "error_console": {"class": "logging.StreamHandler", "formatter": _log_format,
                          "stream": "ext://sys.stderr"},
        "console": {"class": "logging.StreamHandler", "formatter": _log_format,
                    "stream": "ext://sys.stdout"},
    },
    "loggers": {
        "gunicorn.error": {"level": "INFO", "handlers": ["error_console"], "propagate": False},
        "gunicorn.access": {"level": "INFO", "handlers": ["console"], "propagate": False},
    },
    "root": {"level": "WARNING", "handlers": []},
}


def on_starting(server):  # type: ignore[no-untyped-def]
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if folder:
        for entry in Path(folder).glob("*.db"):
            entry.unlink(missing_ok=True)


def child_exit(server, worker):  # type: ignore[no-untyped-def]
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)


