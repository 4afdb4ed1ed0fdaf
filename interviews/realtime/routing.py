"""Websocket routes: one live room per stage."""

from django.urls import path

from .consumers import StageConsumer

websocket_urlpatterns = [path("ws/stages/<int:stage_id>/", StageConsumer.as_asgi())]
