"""Websocket routes for live rooms (the consumer arrives with the live-room step)."""

websocket_urlpatterns: list = []
