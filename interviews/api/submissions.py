"""Submissions: running code against the samples (or given stdin) and submitting it
against the hidden tests."""

from django.urls import path
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from interviews.models import Submission
from interviews.models.bank import Language
from interviews.selectors.stages import stage_for, stage_state_for
from interviews.selectors.submissions import stage_submissions, submission_for
from interviews.services.submissions import submission_create

from .base import (
    PracticeApi,
    ScopedThrottle,
    StrictCharField,
    StrictIntegerField,
    StrictSerializer,
)
from .practice_serializers import SubmissionOutSerializer, SubmissionQueuedSerializer
from .throttles import SubmitPartThrottle


class SubmissionInputSerializer(StrictSerializer):
    stage = StrictIntegerField()
    question = StrictIntegerField(help_text="The question's id as given in the stage detail.")
    part = StrictIntegerField(min_value=1, help_text="1-based part number.")
    language = serializers.ChoiceField(choices=Language.choices)
    # The 64 KiB limit is the service's (413), so no max_length here.
    code = StrictCharField(trim_whitespace=False)
    mode = serializers.ChoiceField(choices=Submission.Mode.choices)
    stdin = StrictCharField(
        required=False,
        allow_null=True,
        allow_blank=True,
        trim_whitespace=False,
        default=None,
        help_text="run mode only: replaces the sample tests.",
    )


class SubmissionCreateApi(PracticeApi):
    throttle_classes = [ScopedThrottle, SubmitPartThrottle]
    throttle_scope = "submissions"

    @extend_schema(
        request=SubmissionInputSerializer,
        responses={202: SubmissionQueuedSerializer},
        description="Queue a run or submit of one open part of a coding question of your "
        "live stage. Code over 64 KiB → 413; a locked or absent part → 409; too many "
        "submissions, or too many submits of the same part (scope `submit_part`) → 429 "
        "with `Retry-After`.",
    )
    def post(self, request: Request) -> Response:
        serializer = SubmissionInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        stage = stage_state_for(request.user, data["stage"])
        submission = submission_create(
            stage=stage,
            author=request.user,
            question_id=data["question"],
            part=data["part"],
            language=data["language"],
            code=data["code"],
            mode=data["mode"],
            stdin=data["stdin"],
        )
        return Response(
            SubmissionQueuedSerializer(submission).data, status=status.HTTP_202_ACCEPTED
        )


class StageSubmissionsQuerySerializer(serializers.Serializer):
    limit = serializers.IntegerField(required=False, min_value=1, max_value=500, default=200)


class StageSubmissionsApi(PracticeApi):
    @extend_schema(
        parameters=[
            OpenApiParameter("limit", int, description="At most this many (default 200)."),
        ],
        responses={200: SubmissionOutSerializer(many=True)},
        description="The stage's submissions, newest first, as `GET /submissions/{id}/` "
        "shows each (hidden tests: index and verdict only). The candidate, "
        "the stage's coach and admins; a room loads its verdict table from it.",
    )
    def get(self, request: Request, stage_id: int) -> Response:
        stage = stage_for(request.user, stage_id)
        query = StageSubmissionsQuerySerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        submissions = stage_submissions(stage)[: query.validated_data["limit"]]
        return Response(SubmissionOutSerializer(submissions, many=True).data)


class SubmissionDetailApi(PracticeApi):
    @extend_schema(responses={200: SubmissionOutSerializer})
    def get(self, request: Request, submission_id: int) -> Response:
        submission = submission_for(request.user, submission_id)
        return Response(SubmissionOutSerializer(submission).data)


urlpatterns = [
    path("submissions/", SubmissionCreateApi.as_view(), name="submissions"),
    path(
        "submissions/<int:submission_id>/",
        SubmissionDetailApi.as_view(),
        name="submission-detail",
    ),
    path(
        "stages/<int:stage_id>/submissions/",
        StageSubmissionsApi.as_view(),
        name="stage-submissions",
    ),
]
