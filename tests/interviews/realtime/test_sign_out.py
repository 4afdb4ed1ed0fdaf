"""Sessions that end: a token per login with an expiry, logout revokes the caller's token
and closes the room sockets opened with it (or with the browser session) with 4401; an
expired token is refused on REST and on the socket."""

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from interviews.realtime.consumers import SIGNED_OUT
from mockloop.asgi import application
from tests.interviews.realtime.test_consumer import _closed_with, connect, drain, make_room

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

PASSWORD = "pw-Correct-Horse-9"


@database_sync_to_async
def login(user) -> tuple[APIClient, str]:
    user.set_password(PASSWORD)
    user.save()
    client = APIClient()
    response = client.post(
        "/api/v1/auth/login/", {"username": user.username, "password": PASSWORD}, format="json"
    )
    assert response.status_code == 200, response.content
    return client, response.json()["token"]


@database_sync_to_async
def call(method: str, path: str, token: str | None = None, client: APIClient | None = None):
    client = client or APIClient()
    headers = {"HTTP_AUTHORIZATION": f"Token {token}"} if token else {}
    return getattr(client, method)(path, format="json", **headers)


async def test_every_login_gets_its_own_token_and_logout_revokes_only_that_one():
    room = await make_room()
    _, first = await login(room["owner"])
    _, second = await login(room["owner"])
    assert first != second
    assert (await call("get", "/api/v1/me/", first)).status_code == 200
    assert (await call("post", "/api/v1/auth/logout/", first)).status_code == 204
    refused = await call("get", "/api/v1/me/", first)
    assert refused.status_code == 401
    assert (await call("get", "/api/v1/me/", second)).status_code == 200


async def test_logout_closes_the_sockets_opened_with_that_token_with_4401():
    room = await make_room()
    _, first = await login(room["owner"])
    _, second = await login(room["owner"])
    revoked, _, _ = await connect(room["stage"], token=first)
    kept, _, _ = await connect(room["stage"], token=second)
    await drain(revoked)
    await drain(kept)
    assert (await call("post", "/api/v1/auth/logout/", first)).status_code == 204
    assert await _closed_with(revoked) == SIGNED_OUT
    assert await _closed_with(kept) is None  # another login's socket stays
    await kept.disconnect()


async def test_logout_of_a_browser_session_closes_its_sockets_with_4401():
    room = await make_room()
    client, _ = await login(room["owner"])
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    browser = WebsocketCommunicator(
        application,
        f"/ws/stages/{room['stage'].pk}/",
        headers=[(b"origin", b"http://testserver"), (b"cookie", cookie)],
    )
    connected, _ = await browser.connect(timeout=5)
    assert connected
    hello = await browser.receive_json_from(timeout=5)
    assert hello["type"] == "hello"
    client.get("/")  # the csrftoken cookie, for the session's POST
    csrf = client.cookies["csrftoken"].value

    @database_sync_to_async
    def logout():
        return client.post("/api/v1/auth/logout/", format="json", HTTP_X_CSRFTOKEN=csrf)

    assert (await logout()).status_code == 204
    assert await _closed_with(browser) == SIGNED_OUT


@database_sync_to_async
def expire(key: str) -> None:
    AuthToken.objects.filter(token_key=key[:15]).update(expiry=timezone.now() - timedelta(1))


async def test_an_expired_token_is_refused_on_rest_and_on_the_socket():
    room = await make_room()
    _, token = await login(room["owner"])
    await expire(token)
    refused = await call("get", "/api/v1/me/", token)
    assert refused.status_code == 401
    assert refused.json()["code"] == "token_expired"
    assert (await call("get", "/api/v1/me/", token)).json()["code"] == "authentication_failed"
    _, token = await login(room["owner"])
    await expire(token)
    socket, connected, _ = await connect(room["stage"], token=token)
    assert connected
    assert await socket.receive_output(timeout=5) == {"type": "websocket.close", "code": 4401}


async def test_tokens_are_issued_with_an_expiry(settings):
    room = await make_room()
    _, token = await login(room["owner"])
    row = await database_sync_to_async(AuthToken.objects.get)(token_key=token[:15])
    assert row.expiry is not None
    assert timedelta(days=6) < row.expiry - timezone.now() <= timedelta(days=7)
