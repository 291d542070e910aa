"""Start the provider sandbox: every service on its own port, in one process."""

from __future__ import annotations

import logging
import signal
import socket
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from sandbox.core import clock, events, ports
from sandbox.core.account import ensure_account
from sandbox.core.events import Ticker
from sandbox.core.headercase import keep_provider_header_case
from sandbox.core.info import info, write_info_file

logger = logging.getLogger("sandbox")


def port_in_use(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return True
    return False


def name_sockets_by_address(server: object) -> None:
    """Give each listening socket its own address as SERVER_NAME, which waitress otherwise sets
    to one configured name for all: the storage line of a request is the local address it
    arrived on (sandbox.core.lines). Every listener is registered in the server's socket map."""
    for dispatcher in list(getattr(server, "map", {}).values()):
        host = getattr(dispatcher, "effective_host", None)
        if isinstance(host, str) and hasattr(dispatcher, "server_name"):
            dispatcher.server_name = host


class Command(BaseCommand):
    help = ("Run the provider sandbox (control, SMS, top-up, storage, media, delivery, purge, "
            "console).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--base-port", type=int, default=settings.SANDBOX_BASE_PORT,
                            help="control port; the services follow it (default 8100)")
        parser.add_argument("--data-dir", default=str(settings.DATA_DIR),
                            help="where all state lives; a new directory is a new account")
        parser.add_argument("--info-file", default=str(settings.BASE_DIR / "var" / "sandbox.json"))
        parser.add_argument("--host", default=settings.SANDBOX_HOST)
        parser.add_argument("--threads", type=int, default=16)

    def handle(self, *args: Any, **options: Any) -> None:
        host, base_port = options["host"], options["base_port"]
        if not 1 <= base_port <= 65535 - ports.HTTPS_OFFSET:
            raise CommandError(f"--base-port: {base_port} leaves no room for the "
                               f"{ports.HTTPS_OFFSET + 1} ports")
        ports.configure(base_port)
        busy = [(service, port) for service, port in ports.all_ports().items()
                if port_in_use(host, port)]
        storage = ports.port_of("storage")
        busy += [(f"storage, {line} line at {address}", storage)
                 for line, address in ports.storage_line_addresses(host).items()
                 if address != host and port_in_use(address, storage)]
        if port_in_use(host, ports.https_port()):
            busy.append(("delivery over HTTPS", ports.https_port()))
        if busy:
            named = ", ".join(f"{port} ({service})" for service, port in busy)
            raise CommandError(f"port already in use: {named}; choose another --base-port")

        call_command("migrate", verbosity=0, interactive=False)
        clock.forget_cache()
        account = ensure_account()
        info_file = Path(options["info_file"]).resolve()
        write_info_file(info_file, info(host, ports.all_ports(), account,
                                        ports.storage_line_addresses(host), ports.https_port()))

        ticker = Ticker(settings.SANDBOX_TICK_INTERVAL_S, clock.now)
        ticker.start()
        self.serve(host, options["threads"], info_file)
        ticker.stop()

    def serve(self, host: str, threads: int, info_file: Path) -> None:
        from waitress.server import create_server

        from sandbox.wsgi import application

        storage = ports.port_of("storage")
        extra = [f"{address}:{storage}" for address in ports.storage_line_addresses(host).values()
                 if address != host]
        listen = " ".join([f"{host}:{port}" for port in ports.all_ports().values()] + extra)
        server = create_server(
            application, listen=listen, threads=threads, ident="provider-sandbox",
            log_socket_errors=False,  # lets the drop fault close a connection silently
            max_request_body_size=16 * 1024**3, channel_timeout=300,
            connection_limit=500, clear_untrusted_proxy_headers=False,
            # Bodies up to 8 MiB (every resumable part our clients send: 1 MiB in order, 4 MiB
            # in parallel mode) stay in memory instead of a temporary file each; larger ones
            # still spill to disk, so memory stays bounded.
            inbuf_overflow=8 * 1024**2,
        )

        name_sockets_by_address(server)
        keep_provider_header_case(server)
        events.server_created(server)  # e.g. the edge's own request parser (body_limit.py)
        from sandbox.core import tls_server

        https = tls_server.start(host, ports.https_port(), ports.port_of("delivery"), application)

        def stop(signum: int, frame: object) -> None:
            raise KeyboardInterrupt

        signal.signal(signal.SIGTERM, stop)
        summary = ", ".join(f"{s} {p}" for s, p in ports.all_ports().items())
        summary += f", delivery over HTTPS {ports.https_port()}"
        self.stdout.write(f"Sandbox listening on {host}: {summary}")
        self.stdout.write(f"Data directory: {settings.DATA_DIR}; info file: {info_file}")
        self.stdout.flush()
        try:
            server.run()
        except KeyboardInterrupt:
            pass
        finally:
            https.shutdown()
            https.server_close()
            server.close()
