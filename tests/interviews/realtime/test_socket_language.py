"""A live room's error frames are sentences a person reads: they come in the socket's
language by the API's contract (`?lang=`, the saved choice, the browser's), not always
in English."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from interviews.models import AccountProfile
from mockloop.asgi import application
from tests.factories import StageFactory, UserFactory, api_token_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@database_sync_to_async
def a_room(language: str = ""):
    candidate = UserFactory()
    if language:
        AccountProfile.objects.create(user=candidate, language=language)
    stage = StageFactory(loop__candidate=candidate, status="live", started_at=timezone.now())
    return stage, api_token_for(candidate)


async def error_for(stage, token, message, *, query="", accept_language=None) -> dict:
    headers = [(b"origin", b"http://testserver")]
    if accept_language:
        headers.append((b"accept-language", accept_language.encode()))
    socket = WebsocketCommunicator(
        application, f"/ws/stages/{stage.pk}/?token={token}{query}", headers=headers
    )
    connected, _ = await socket.connect(timeout=5)
    assert connected
    await socket.send_json_to(message)
    try:
        for _ in range(20):
            frame = await socket.receive_json_from(timeout=5)
            if frame["type"] == "error":
                return frame
        raise AssertionError("no error frame")
    finally:
        await socket.disconnect()


async def test_english_by_default():
    stage, token = await a_room()
    error = await error_for(stage, token, {"type": "teleport"})
    assert error["detail"] == "Unknown message type 'teleport'."


async def test_the_saved_choice_decides():
    stage, token = await a_room("zh-Hans")
    error = await error_for(stage, token, {"type": "teleport"}, accept_language="en-GB")
    assert (error["detail"], error["code"]) == ("未知的消息类型 'teleport'。", "invalid")


async def test_else_the_browsers_language():
    stage, token = await a_room()
    error = await error_for(stage, token, {"type": "resync", "after": -1}, accept_language="zh-TW")
    assert error["detail"] == "`after` 必須是非負的序號。"


async def test_the_query_overrides_everything():
    stage, token = await a_room("zh-Hant")
    error = await error_for(stage, token, ["not", "an", "object"], query="&lang=zh-Hans")
    assert error["detail"] == "消息须是带 `type` 字段的 JSON 对象。"


async def test_domain_errors_from_the_services_too():
    """A refusal raised in a room's database thread is rendered in the socket's language."""
    stage, token = await a_room("zh-Hans")
    error = await error_for(stage, token, {"type": "cursor", "doc": "code:1", "anchor": "x"})
    assert error["code"] == "invalid_cursor"
    assert error["detail"] != "Not a cursor." and error["detail"].isascii() is False
