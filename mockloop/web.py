"""The web process's command line, shared by tests and benches so they run what ships, and
the free loopback port they start it (and their own Redis) on.

The Procfile and the Dockerfile spell the same command out: uvicorn serving the ASGI app
(HTTP and websockets) in `WEB_CONCURRENCY` processes, each with a pool of PostgreSQL
connections (`DB_POOL_MAX_SIZE`). One process holds one core; several share the port.
"""

from __future__ import annotations

import socket
import sys
from pathlib import Path

APP = "mockloop.asgi:application"
#: Largest websocket message (uvicorn closes with 1009 above it, before parsing it): the
#: largest legitimate one is a 256 KiB document update, base64 in JSON (~342 KiB).
WS_MAX_BYTES = 1024 * 1024
POOL_ENV = {"DB_POOL_MAX_SIZE": "10"}


def web_command(port: int, *, host: str = "127.0.0.1", workers: int = 1) -> list[str]:
    """uvicorn with the ASGI app; Channels answers no `lifespan` scope, so it is off.
    Access lines are on, as in the Procfile: the app's LOGGING configures uvicorn's loggers
    when Django starts in each worker, which would override `--no-access-log` anyway."""
    uvicorn = str(Path(sys.executable).parent / "uvicorn")
    return [
        uvicorn,
        APP,
        "--host",
        host,
        "--port",
        str(port),
        "--workers",
        str(workers),
        "--lifespan",
        "off",
        "--ws-max-size",
        str(WS_MAX_BYTES),
        # Nothing proxies a local server: a client's X-Forwarded-For is never its address
        # (uvicorn otherwise believes it from 127.0.0.1, i.e. from every local client).
        "--no-proxy-headers",
    ]


def free_port() -> int:
    """A loopback port free right now (the OS picks it; another process may take it first)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
