"""Request bodies over the cap are refused before Django reads (and spools) them."""

import asyncio
import json
import socket
from urllib.parse import urlsplit

import pytest
import requests
from django.conf import settings

from mockloop.limits import RequestBodyLimit

CAP = 1000


class Inner:
    """The wrapped app: reads the whole body as Django does, then answers 200."""

    def __init__(self) -> None:
        self.calls = 0
        self.body = b""

    async def __call__(self, scope, receive, send) -> None:
        self.calls += 1
        while True:
            message = await receive()
            self.body += message.get("body", b"")
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


def call(chunks: list[bytes], headers: list[tuple[bytes, bytes]], scope_type: str = "http"):
    inner, sent = Inner(), []
    pending = [
        {"type": "http.request", "body": chunk, "more_body": i < len(chunks) - 1}
        for i, chunk in enumerate(chunks)
    ]

    async def receive():
        return pending.pop(0)

    async def send(message):
        sent.append(message)

    scope = {"type": scope_type, "headers": headers}
    asyncio.run(RequestBodyLimit(inner, CAP)(scope, receive, send))
    return inner, sent


def test_declared_length_over_the_cap_is_refused_without_calling_the_app():
    inner, sent = call([b"x" * 10], [(b"content-length", b"1001")])
    assert inner.calls == 0
    assert sent[0]["status"] == 413
    assert "over" in json.loads(sent[1]["body"])["detail"]


@pytest.mark.parametrize("length", [b"-1", b"12abc", b""])
def test_malformed_length_is_refused(length):
    inner, sent = call([b"x"], [(b"content-length", length)])
    assert inner.calls == 0 and sent[0]["status"] == 413


def test_streamed_body_over_the_cap_is_refused_once_it_passes_it():
    inner, sent = call([b"x" * 600, b"x" * 600, b"x" * 600], [])
    assert inner.calls == 1 and len(inner.body) == 600  # stopped at the chunk that passed
    assert [m.get("status") for m in sent if m["type"] == "http.response.start"] == [413]


def test_bodies_up_to_the_cap_reach_the_app_whole():
    inner, sent = call([b"x" * 500, b"y" * 500], [(b"content-length", b"1000")])
    assert inner.body == b"x" * 500 + b"y" * 500 and sent[0]["status"] == 200


def test_other_scopes_pass_through():
    inner, sent = call([b"x" * 5000], [], scope_type="websocket")
    assert inner.calls == 1 and sent[0]["status"] == 200


def test_the_shipped_server_refuses_a_huge_upload_before_it_is_sent(live_server_url):
    """Only the headers are sent, announcing 1 GiB: the 413 comes back at once."""
    host, port = urlsplit(live_server_url).netloc.split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(
            b"POST /api/v1/auth/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 1073741824\r\n\r\n{"
        )
        answer = sock.recv(4096).decode(errors="replace")
    assert answer.startswith("HTTP/1.1 413"), answer


def test_the_shipped_server_stops_reading_a_streamed_upload_at_the_cap(live_server_url):
    """A chunked upload (no Content-Length) of 4× the cap is cut off soon after the cap:
    the server answers 413 and closes, so the client cannot send the rest."""
    cap = settings.REQUEST_BODY_MAX_BYTES
    chunk = b"x" * (1024 * 1024)
    sent = 0

    def body():
        nonlocal sent
        while sent < 4 * cap:
            sent += len(chunk)
            yield chunk

    try:
        response = requests.post(
            f"{live_server_url}/api/v1/auth/login/",
            data=body(),
            headers={"Content-Type": "application/json"},
            timeout=60,
        )
        status = response.status_code
    except requests.ConnectionError:
        status = None  # the server answered and closed while we were still sending
    assert status in (413, None)
    assert cap < sent < 2 * cap  # not a byte more than the socket buffers took
