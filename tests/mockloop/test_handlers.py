"""The ASGI app runs Django's middleware chain and views in one thread per request, a
thread it reuses."""

import asyncio
import inspect
import threading

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


@pytest.mark.django_db(transaction=True)
def test_requests_reuse_a_thread_of_the_pool(monkeypatch):
    """One request after another: the same thread, not a new one per request."""
    from mockloop import handlers

    created: list[object] = []
    original = handlers._RequestThread.__init__

    def counting(self) -> None:
        created.append(self)
        original(self)

    monkeypatch.setattr(handlers._RequestThread, "__init__", counting)
    for _ in range(4):
        assert _get("/healthz")[0] == 200
    assert len(created) <= 1
    assert django_asgi_app.threads._idle


def test_a_thread_still_running_work_is_not_lent_again():
    """A request whose client left may leave its view running: that thread ends after
    it, and the next request gets another."""
    from mockloop.handlers import RequestThreads

    threads = RequestThreads(idle_max=2)
    first = threads.lease()
    threads.release(first)
    assert threads.lease() is first  # reused
    release = threading.Event()
    first.submit(release.wait, 5)
    threads.release(first)
    assert threads.lease() is not first
    release.set()


def test_the_pool_keeps_at_most_its_idle_limit():
    from mockloop.handlers import RequestThreads

    threads = RequestThreads(idle_max=2)
    leased = [threads.lease() for _ in range(4)]
    for thread in leased:
        threads.release(thread)
    assert len(threads._idle) == 2


def test_sqlite_request_threads_keep_their_connection():
    from django.db import connections

    settings_dict = connections.settings["default"]
    if not settings_dict["ENGINE"].endswith("sqlite3"):
        pytest.skip("PostgreSQL: the connection pool reuses connections")
    assert settings_dict["CONN_MAX_AGE"] > 0 and settings_dict["CONN_HEALTH_CHECKS"]
