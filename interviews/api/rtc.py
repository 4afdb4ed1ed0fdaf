"""The call relay: `GET /api/v1/rtc/ice-servers/` (DESIGN.md, "HTTP API")."""

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from interviews.services.calls import call_ice_servers_issue

from .base import PracticeApi


class IceServerOutSerializer(serializers.Serializer):
    urls = serializers.ListField(child=serializers.CharField())
    username = serializers.CharField(required=False)
    credential = serializers.CharField(required=False)


class IceServersOutSerializer(serializers.Serializer):
    ice_servers = IceServerOutSerializer(many=True)
    ttl = serializers.IntegerField(help_text="Seconds until the TURN credentials expire.")


class IceServersApi(PracticeApi):
    @extend_schema(responses={200: IceServersOutSerializer}, operation_id="rtc_ice_servers")
    def get(self, request: Request) -> Response:
        """STUN/TURN servers for the live room's call (RTCConfiguration.iceServers), with
        TURN credentials for the caller that expire after `ttl` seconds."""
        return Response(call_ice_servers_issue(actor=request.user))


urlpatterns = [
    path("rtc/ice-servers/", IceServersApi.as_view(), name="rtc-ice-servers"),
]
