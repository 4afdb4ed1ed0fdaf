"""Consumer unit tests run on Channels' in-memory layer: each async test has its own event
loop, and a Redis layer cached from another loop would trip over its locks. The real
Redis layer is exercised by the integration tests against a running server."""

import pytest
from channels.layers import channel_layers


@pytest.fixture(autouse=True)
def in_memory_channel_layer(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def every_message_matches_its_declaration(monkeypatch):
    """Whatever a consumer test reads off a socket must match
    `interviews/realtime/event_types.py` with exactly the declared keys."""
    from channels.testing import WebsocketCommunicator

    from interviews.realtime.event_types import check_server_message

    receive = WebsocketCommunicator.receive_json_from

    async def checked(self, timeout=1):
        message = await receive(self, timeout)
        check_server_message(message)
        return message

    monkeypatch.setattr(WebsocketCommunicator, "receive_json_from", checked)
