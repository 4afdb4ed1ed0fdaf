"""The ASGI app runs Django's middleware chain and views in one thread per request."""

import asyncio
import inspect

import pytest
from asgiref.testing import ApplicationCommunicator

from mockloop.asgi import django_asgi_app
from mockloop.handlers import SyncChainASGIHandler


def test_the_chain_is_built_synchronous():
    assert isinstance(django_asgi_app, SyncChainASGIHandler)
    assert not inspect.iscoroutinefunction(django_asgi_app._middleware_chain)


def _get(path: str, headers: list[tuple[bytes, bytes]] = ()) -> tuple[int, dict, bytes]:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"host", b"localhost"), *headers],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }

    async def run():
        app = ApplicationCommunicator(django_asgi_app, scope)
        await app.send_input({"type": "http.request", "body": b"", "more_body": False})
        start = await app.receive_output(5)
        body = b""
        while True:
            message = await app.receive_output(5)
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        return start["status"], {k.lower(): v for k, v in start["headers"]}, body

    return asyncio.run(run())


@pytest.mark.django_db(transaction=True)
def test_requests_pass_every_middleware_and_errors_stay_json():
    status, headers, body = _get("/healthz", [(b"x-request-id", b"rid-42")])
    assert (status, body) == (200, b'{"status": "ok"}')
    assert headers[b"x-request-id"] == b"rid-42"  # our middleware
    assert b"content-security-policy" in headers  # django-csp's
    assert headers[b"x-frame-options"] == b"DENY"  # Django's innermost
    status, headers, body = _get("/api/v1/me/")
    assert status == 401 and b"detail" in body  # DRF, through the whole chain
