"""Stages as the candidate works them: detail, the clock, answers, review comments, the
review score and the event log."""

from typing import Any

from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiParameter,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from interviews import access
from interviews.models import Answer, Question, Stage
from interviews.models.bank import FlawCategory
from interviews.realtime.events import event_message
from interviews.selectors.stages import (
    review_comments_of,
    stage_detail_rows,
    stage_events_for,
    stage_for,
    stage_question_get,
    stage_state_for,
)
from interviews.services.answers import answer_save
from interviews.services.reviews import (
    review_comment_create,
    review_comment_delete,
    review_comment_update,
    review_score,
)
from interviews.services.stages import stage_finish, stage_start
from interviews.services.submissions import stage_unsubmitted_code

from .base import (
    PracticeApi,
    StrictBooleanField,
    StrictCharField,
    StrictDictField,
    StrictIntegerField,
    StrictSerializer,
)
from .practice_serializers import (
    AnswerOutSerializer,
    EventOutSerializer,
    ReviewCommentOutSerializer,
    ReviewScoreSerializer,
    StageCandidateSerializer,
    StageCoachSerializer,
    StageSummarySerializer,
)
from .stage_detail import stage_detail_data

STAGE_DETAIL_SCHEMA = PolymorphicProxySerializer(
    component_name="StageDetail",
    serializers=[StageCandidateSerializer, StageCoachSerializer],
    resource_type_field_name=None,
)


class StageDetailApi(PracticeApi):
    @extend_schema(
        responses={200: STAGE_DETAIL_SCHEMA},
        description=(
            "The stage with its questions as the viewer may see them. The candidate sees "
            "open parts with sample tests, pushed follow-ups and their answers (questions "
            "only once the stage has started); the assigned coach and admins also see "
            "locked parts, the bank follow-ups with coach notes and planted flaws."
        ),
    )
    def get(self, request: Request, stage_id: int) -> Response:
        # The serializers' response, assembled from cached bank pieces (stage_detail.py).
        rows = stage_detail_rows(request.user, stage_id)
        return Response(stage_detail_data(rows, now=timezone.now()))


class StageStartInputSerializer(StrictSerializer):
    solo = StrictBooleanField(required=False, default=False)


class StageStartApi(PracticeApi):
    @extend_schema(
        request=StageStartInputSerializer,
        responses={200: StageSummarySerializer},
        description="Start the clock. A coached stage waits for its coach: its coach or an "
        "admin may start it, its candidate once a coach has claimed it (409 "
        "`coach_not_claimed` before), or at once with `solo: true`, which takes it out of "
        "the coach queue and runs it with the scripted interviewer.",
    )
    def post(self, request: Request, stage_id: int) -> Response:
        stage = stage_for(request.user, stage_id)
        serializer = StageStartInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        stage = stage_start(stage=stage, actor=request.user, **serializer.validated_data)
        return Response(StageSummarySerializer(stage).data)


class StageFinishApi(PracticeApi):
    class FinishPreviewSerializer(serializers.Serializer):
        class UnsubmittedSerializer(serializers.Serializer):
            question = serializers.IntegerField(source="pk")
            title = serializers.CharField()

        unsubmitted = UnsubmittedSerializer(many=True)

    @extend_schema(responses={200: FinishPreviewSerializer})
    def get(self, request: Request, stage_id: int) -> Response:
        """What finishing now would do: the coding questions whose latest code would be
        submitted for judging (the confirm dialog names them)."""
        stage = stage_for(request.user, stage_id)
        unsubmitted = stage_unsubmitted_code(stage=stage, actor=request.user)
        return Response(self.FinishPreviewSerializer({"unsubmitted": unsubmitted}).data)

    @extend_schema(request=None, responses={200: StageSummarySerializer})
    def post(self, request: Request, stage_id: int) -> Response:
        stage = stage_for(request.user, stage_id)
        stage = stage_finish(stage=stage, actor=request.user)
        return Response(StageSummarySerializer(stage).data)


def _stage_question(stage: Stage, question_id: int | None) -> Question | None:
    if question_id is None:
        return None
    question = stage_question_get(stage, question_id)
    if question is None:
        raise serializers.ValidationError({"question": [_("Not a question of this stage.")]})
    return question


class AnswerInputSerializer(StrictSerializer):
    question = StrictIntegerField(required=False, allow_null=True, default=None)
    text = StrictCharField(
        required=False, allow_blank=True, trim_whitespace=False, max_length=200_000
    )
    notes = StrictDictField(required=False)
    scene = StrictDictField(required=False)


class StageAnswerApi(PracticeApi):
    @extend_schema(
        request=AnswerInputSerializer,
        responses={200: AnswerOutSerializer},
        description="Upsert the stage's answer for a question (or the stage-wide answer): "
        "only the fields given change. Candidate only, while the stage is live.",
    )
    def post(self, request: Request, stage_id: int) -> Response:
        stage = stage_state_for(request.user, stage_id)  # the autosave: one light query
        serializer = AnswerInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        answer = answer_save(
            stage=stage,
            actor=request.user,
            question_id=data["question"],  # the service checks it is the stage's
            text=data.get("text"),
            notes=data.get("notes"),
            scene=data.get("scene"),
        )
        return Response(answer_out(answer))


_UPDATED_AT = serializers.DateTimeField()


def answer_out(answer: Answer) -> dict[str, Any]:
    """`AnswerOutSerializer`'s output, built directly: a ModelSerializer builds its fields
    from the model on every call, a noticeable part of an autosave's CPU (issue #15).
    `tests/interviews/api/test_answer_autosave.py` pins that the two agree."""
    return {
        "id": answer.pk,
        "question": answer.question_id,
        "text": answer.text,
        "notes": answer.notes,
        "scene": answer.scene,
        "updated_at": _UPDATED_AT.to_representation(answer.updated_at),
    }


class ReviewCommentInputSerializer(StrictSerializer):
    question = StrictIntegerField(required=False, allow_null=True, default=None)
    lines = serializers.ListField(child=StrictIntegerField(), min_length=2, max_length=2)
    category = serializers.ChoiceField(choices=FlawCategory.choices)
    text = StrictCharField(max_length=10_000)


class StageReviewCommentsApi(PracticeApi):
    @extend_schema(responses={200: ReviewCommentOutSerializer(many=True)})
    def get(self, request: Request, stage_id: int) -> Response:
        stage = stage_for(request.user, stage_id)
        comments = review_comments_of(stage)
        return Response(ReviewCommentOutSerializer(comments, many=True).data)

    @extend_schema(
        request=ReviewCommentInputSerializer,
        responses={201: ReviewCommentOutSerializer},
        description="`lines` is [first, last], 1-based, inclusive, within the document.",
    )
    def post(self, request: Request, stage_id: int) -> Response:
        stage = stage_for(request.user, stage_id)
        serializer = ReviewCommentInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        first, last = data["lines"]
        comment = review_comment_create(
            stage=stage,
            author=request.user,
            question=_stage_question(stage, data["question"]),
            line_start=first,
            line_end=last,
            category=data["category"],
            text=data["text"],
        )
        return Response(ReviewCommentOutSerializer(comment).data, status=status.HTTP_201_CREATED)


class ReviewCommentChangeSerializer(StrictSerializer):
    lines = serializers.ListField(
        child=StrictIntegerField(), min_length=2, max_length=2, required=False
    )
    category = serializers.ChoiceField(choices=FlawCategory.choices, required=False)
    text = StrictCharField(max_length=10_000, required=False)


class StageReviewCommentApi(PracticeApi):
    @extend_schema(
        request=ReviewCommentChangeSerializer,
        responses={200: ReviewCommentOutSerializer},
        description="Change one's own comment while the stage is live (only the fields given).",
    )
    def patch(self, request: Request, stage_id: int, comment_id: int) -> Response:
        stage = stage_for(request.user, stage_id)
        serializer = ReviewCommentChangeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        first, last = data.get("lines", (None, None))
        comment = review_comment_update(
            stage=stage,
            author=request.user,
            comment_id=comment_id,
            line_start=first,
            line_end=last,
            category=data.get("category"),
            text=data.get("text"),
        )
        return Response(ReviewCommentOutSerializer(comment).data)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, stage_id: int, comment_id: int) -> Response:
        """Withdraw one's own comment while the stage is live."""
        stage = stage_for(request.user, stage_id)
        review_comment_delete(stage=stage, author=request.user, comment_id=comment_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class StageReviewScoreApi(PracticeApi):
    @extend_schema(
        responses={200: ReviewScoreSerializer},
        description="Recall and precision of the review comments against the planted "
        "flaws. The candidate sees it once the stage is finished (409 before).",
    )
    def get(self, request: Request, stage_id: int) -> Response:
        stage = stage_for(request.user, stage_id)
        access.access_review_score(request.user, stage)
        return Response(ReviewScoreSerializer(review_score(stage=stage)).data)


EVENT_TYPE_RE = r"^[a-z_.]+(,[a-z_.]+)*$"


def _types(value: str) -> list[str]:
    return [name for name in value.split(",") if name]


class EventsQuerySerializer(serializers.Serializer):
    after = serializers.IntegerField(required=False, min_value=0, default=0)
    limit = serializers.IntegerField(required=False, min_value=1, max_value=5000, default=1000)
    types = serializers.RegexField(EVENT_TYPE_RE, required=False, max_length=500)
    exclude = serializers.RegexField(EVENT_TYPE_RE, required=False, max_length=500)


class StageEventsApi(PracticeApi):
    @extend_schema(
        parameters=[
            OpenApiParameter("after", int, description="Only events with seq > after."),
            OpenApiParameter("limit", int, description="At most this many (default 1000)."),
            OpenApiParameter("types", str, description="Only these types (comma-separated)."),
            OpenApiParameter(
                "exclude",
                str,
                description="Not these types, e.g. `doc.update` (a room that loads the "
                "documents' merged state needs no edit history).",
            ),
        ],
        responses={200: EventOutSerializer(many=True)},
        description="The stage's event log (for replay and resync). The candidate does not "
        "see private events (coach notes, scorecards). Page with `after` = the last seq.",
    )
    def get(self, request: Request, stage_id: int) -> Response:
        stage = stage_for(request.user, stage_id)
        query = EventsQuerySerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        data = query.validated_data
        events = stage_events_for(request.user, stage, after=data["after"])
        if data.get("types"):
            events = events.filter(type__in=_types(data["types"]))
        if data.get("exclude"):
            events = events.exclude(type__in=_types(data["exclude"]))
        events = events[: data["limit"]]
        return Response([event_message(event) for event in events])


urlpatterns = [
    path("stages/<int:stage_id>/", StageDetailApi.as_view(), name="stage-detail"),
    path("stages/<int:stage_id>/start/", StageStartApi.as_view(), name="stage-start"),
    path("stages/<int:stage_id>/finish/", StageFinishApi.as_view(), name="stage-finish"),
    path("stages/<int:stage_id>/answers/", StageAnswerApi.as_view(), name="stage-answers"),
    path(
        "stages/<int:stage_id>/review-comments/",
        StageReviewCommentsApi.as_view(),
        name="stage-review-comments",
    ),
    path(
        "stages/<int:stage_id>/review-comments/<int:comment_id>/",
        StageReviewCommentApi.as_view(),
        name="stage-review-comment",
    ),
    path(
        "stages/<int:stage_id>/review-score/",
        StageReviewScoreApi.as_view(),
        name="stage-review-score",
    ),
    path("stages/<int:stage_id>/events/", StageEventsApi.as_view(), name="stage-events"),
]
