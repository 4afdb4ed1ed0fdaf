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
