"""The stage-kind registry as the frontend reads it: labels, rooms, which questions a
stage of each kind takes (`interviews.stage_kinds`)."""

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from interviews.models.bank import QuestionKind, StageKind
from interviews.stage_kinds import ROOMS, stage_kind_list

from .base import PracticeApi


class StageKindOutSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=StageKind.choices)
    label = serializers.CharField()
    live = serializers.BooleanField()
    question_kinds = serializers.ListField(child=serializers.ChoiceField(QuestionKind.choices))
    room = serializers.ChoiceField(choices=ROOMS)


class StageKindListApi(PracticeApi):
    @extend_schema(
        responses={200: StageKindOutSerializer(many=True)},
        description="Every stage kind this server knows, in loop order: its label, whether "
        "it is a live round, the question kinds it takes and the room that shows it "
        "(`coding | design | review | discussion`).",
    )
    def get(self, request: Request) -> Response:
        return Response(StageKindOutSerializer(stage_kind_list(), many=True).data)


urlpatterns = [
    path("stage-kinds/", StageKindListApi.as_view(), name="stage-kinds"),
]
