"""Live-room REST endpoints: the coach's clock controls and the shared documents' state
(what a client loads before it subscribes to the websocket and resyncs after `seq`)."""

from django.urls import path
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from interviews.selectors.stages import stage_for
from interviews.services import documents, live

from .base import (
    PracticeApi,
    ScopedThrottle,
    StrictCharField,
    StrictIntegerField,
    StrictSerializer,
)
from .practice_serializers import PushedFollowUpSerializer

TIMER_OUT = inline_serializer(
    "Timer",
    {
        "reason": serializers.CharField(),
        "status": serializers.CharField(),
        "deadline": serializers.DateTimeField(allow_null=True),
        "paused": serializers.BooleanField(),
        "remaining_ms": serializers.IntegerField(),
    },
)


class StageTimerApi(PracticeApi):
    class TimerInputSerializer(StrictSerializer):
        action = StrictCharField()
        minutes = StrictIntegerField(required=False, default=0)

    @extend_schema(request=TimerInputSerializer, responses={200: TIMER_OUT})
    def post(self, request: Request, stage_id: int) -> Response:
        """Pause, resume or extend the clock (assigned coach or admin)."""
        stage = stage_for(request.user, stage_id)
        data = self.TimerInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        stage = live.stage_timer_control(stage=stage, actor=request.user, **data.validated_data)
        return Response(live.timer_payload(stage, data.validated_data["action"]))


class StageDocumentsApi(PracticeApi):
    @extend_schema(
        responses={
            200: inline_serializer(
                "StageDocuments",
                {
                    "last_seq": serializers.IntegerField(),
                    "documents": serializers.ListField(child=serializers.DictField()),
                },
            )
        }
    )
    def get(self, request: Request, stage_id: int) -> Response:
        """Merged state of every shared document (base64 Yjs updates) and the sequence
        number they include; subscribe, then resync after `last_seq`."""
        stage = stage_for(request.user, stage_id)
        last_seq = stage.last_seq
        docs = [d.as_dict() for d in documents.documents_of(stage)]
        return Response({"last_seq": last_seq, "documents": docs})


class StageChatApi(PracticeApi):
    throttle_classes = [ScopedThrottle]
    throttle_scope = "chat"

    class ChatInputSerializer(StrictSerializer):
        text = StrictCharField(max_length=live.MAX_CHAT_CHARS)

    @extend_schema(request=ChatInputSerializer, responses={201: None})
    def post(self, request: Request, stage_id: int) -> Response:
        """Post a chat message (candidate, assigned coach, admin)."""
        stage = stage_for(request.user, stage_id)
        data = self.ChatInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        event = live.chat_post(stage=stage, author=request.user, text=data.validated_data["text"])
        return Response({"seq": event.seq}, status=201)


class StageNextFollowUpApi(PracticeApi):
    class NextFollowUpInputSerializer(StrictSerializer):
        question = StrictIntegerField(required=False, allow_null=True, default=None)

    @extend_schema(request=NextFollowUpInputSerializer, responses={201: PushedFollowUpSerializer})
    def post(self, request: Request, stage_id: int) -> Response:
        """ "Next question" in a solo stage: the scripted interviewer asks its next
        after-answer follow-up now (the stage's candidate; 409 `no_follow_up_left` when
        none is left, `coach_asks_follow_ups` when a coach runs the stage)."""
        stage = stage_for(request.user, stage_id)
        data = self.NextFollowUpInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        pushed = live.stage_ask_next_follow_up(
            stage=stage, actor=request.user, question_id=data.validated_data["question"]
        )
        return Response(PushedFollowUpSerializer(pushed).data, status=201)


urlpatterns = [
    path("stages/<int:stage_id>/timer/", StageTimerApi.as_view(), name="stage-timer"),
    path("stages/<int:stage_id>/documents/", StageDocumentsApi.as_view(), name="stage-documents"),
    path("stages/<int:stage_id>/chat/", StageChatApi.as_view(), name="stage-chat"),
    path(
        "stages/<int:stage_id>/next-follow-up/",
        StageNextFollowUpApi.as_view(),
        name="stage-next-follow-up",
    ),
]
