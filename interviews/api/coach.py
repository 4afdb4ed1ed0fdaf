"""What coaches (and admins) do: the queue, claiming a stage, pushing follow-ups, private
notes and the scorecard."""

from django.contrib.auth import get_user_model
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from interviews import access
from interviews.auth import user_with_role
from interviews.models import FollowUp, Scorecard
from interviews.selectors.scorecards import stage_scorecard
from interviews.selectors.stages import (
    coach_queue,
    scorecard_draft_exists,
    scorecard_of,
    stage_claim_target_for,
    stage_for,
    stage_row_for,
)
from interviews.services.errors import NotFound
from interviews.services.follow_ups import stage_push_follow_up
from interviews.services.notes import coach_note_create
from interviews.services.scorecards import scorecard_save
from interviews.services.stages import (
    stage_claim,
    stage_hand_over,
    stage_release,
    stage_shadow_join,
)

from .base import (
    PracticeApi,
    ScopedThrottle,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    StrictSerializer,
)
from .practice_serializers import (
    CoachNoteOutSerializer,
    PushedFollowUpSerializer,
    QueueEntrySerializer,
    ScorecardCandidateSerializer,
    ScorecardCoachSerializer,
    StageSummarySerializer,
)
from .report_serializers import AutoScorecardSerializer


class CoachQueueApi(PracticeApi):
    @extend_schema(
        responses={200: QueueEntrySerializer(many=True)},
        description="Unclaimed live rounds of coached loops: pending ones (in the queue "
        "from the moment their loop started; their clock waits for the coach) and live ones "
        "(started by an admin), oldest loop first.",
    )
    def get(self, request: Request) -> Response:
        access.access_coach_queue(request.user)
        entries = coach_queue()
        return Response(
            QueueEntrySerializer(entries, many=True, context={"now": timezone.now()}).data
        )


class StageClaimApi(PracticeApi):
    @extend_schema(
        request=None,
        responses={200: StageSummarySerializer},
        description="Assign the stage to the calling coach; 409 if another coach has it.",
    )
    def post(self, request: Request, stage_id: int) -> Response:
        stage = stage_claim_target_for(request.user, stage_id)
        stage = stage_claim(stage=stage, coach=request.user)
        return Response(StageSummarySerializer(stage).data)


class StageShadowApi(PracticeApi):
    @extend_schema(
        request=None,
        responses={200: StageSummarySerializer},
        description="A coach or admin joins the stage's live room as a shadow: sees and hears "
        "it, sends no media, acts on nothing. 404 for anyone else.",
    )
    def post(self, request: Request, stage_id: int) -> Response:
        stage = stage_claim_target_for(request.user, stage_id)
        stage_shadow_join(stage=stage, actor=request.user)
        return Response(StageSummarySerializer(stage).data)


class StageReleaseApi(PracticeApi):
    @extend_schema(
        request=None,
        responses={200: StageSummarySerializer},
        description="Its coach (or an admin) gives the stage back to the coach queue.",
    )
    def post(self, request: Request, stage_id: int) -> Response:
        stage = stage_for(request.user, stage_id)
        stage = stage_release(stage=stage, actor=request.user)
        return Response(StageSummarySerializer(stage).data)


class HandOverInputSerializer(StrictSerializer):
    coach = serializers.SlugRelatedField(
        slug_field="username",
        queryset=get_user_model().objects.filter(is_active=True),
        error_messages={"does_not_exist": 'No user "{value}".'},
    )


class StageHandOverApi(PracticeApi):
    @extend_schema(
        request=HandOverInputSerializer,
        responses={200: StageSummarySerializer},
        description="Its coach (or an admin) hands the stage to another coach (by username).",
    )
    def post(self, request: Request, stage_id: int) -> Response:
        stage = stage_for(request.user, stage_id)
        serializer = HandOverInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        to = user_with_role(serializer.validated_data["coach"].pk)
        stage = stage_hand_over(stage=stage, actor=request.user, to=to)
        return Response(StageSummarySerializer(stage).data)


class FollowUpInputSerializer(StrictSerializer):
    follow_up = StrictIntegerField(required=False, allow_null=True, default=None)
    text = StrictCharField(required=False, allow_blank=True, default="", max_length=10_000)

    def validate(self, data: dict) -> dict:
        if (data["follow_up"] is None) == (not data["text"].strip()):
            raise serializers.ValidationError(_("Give either `follow_up` (an id) or `text`."))
        return data


class StageFollowUpApi(PracticeApi):
    throttle_classes = [ScopedThrottle]
    throttle_scope = "follow_ups"

    @extend_schema(
        request=FollowUpInputSerializer,
        responses={201: PushedFollowUpSerializer},
        description="Push a bank follow-up of one of the stage's questions (unlocking its "
        "part; once per stage, 409 after) or free text.",
    )
    def post(self, request: Request, stage_id: int) -> Response:
        # The stage's own row: the service locks and reads it again (a coach's live push
        # is on the path bench/live.py times, and `stage_for`'s joins were most of it).
        stage = stage_row_for(request.user, stage_id)
        serializer = FollowUpInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        follow_up = None
        if serializer.validated_data["follow_up"] is not None:
            follow_up = FollowUp.objects.filter(pk=serializer.validated_data["follow_up"]).first()
            if follow_up is None:
                raise serializers.ValidationError(
                    {"follow_up": [_("Not a follow-up of this stage's questions.")]}
                )
        pushed = stage_push_follow_up(
            stage=stage,
            actor=request.user,
            follow_up=follow_up,
            text="" if follow_up else serializer.validated_data["text"],
        )
        return Response(PushedFollowUpSerializer(pushed).data, status=status.HTTP_201_CREATED)


class NoteInputSerializer(StrictSerializer):
    text = StrictCharField(max_length=20_000)


class StageNotesApi(PracticeApi):
    @extend_schema(responses={200: CoachNoteOutSerializer(many=True)})
    def get(self, request: Request, stage_id: int) -> Response:
        stage = stage_for(request.user, stage_id)
        access.access_stage_as_coach(
            request.user, stage, refusal=_("Only the stage's coach or an admin reads coach notes.")
        )
        notes = stage.coach_notes.select_related("author").order_by("created_at", "id")
        return Response(CoachNoteOutSerializer(notes, many=True).data)

    @extend_schema(request=NoteInputSerializer, responses={201: CoachNoteOutSerializer})
    def post(self, request: Request, stage_id: int) -> Response:
        stage = stage_for(request.user, stage_id)
        serializer = NoteInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        note = coach_note_create(stage=stage, author=request.user, **serializer.validated_data)
        return Response(CoachNoteOutSerializer(note).data, status=status.HTTP_201_CREATED)


class ScoreInputSerializer(StrictSerializer):
    dimension = StrictCharField(max_length=120)
    level = StrictIntegerField(min_value=1, max_value=4)
    comment = StrictCharField(required=False, allow_blank=True, default="", max_length=10_000)


class ScorecardInputSerializer(StrictSerializer):
    scores = ScoreInputSerializer(many=True, allow_empty=True)
    summary = StrictCharField(allow_blank=True, max_length=20_000)
    recommendation = serializers.ChoiceField(
        choices=Scorecard.Recommendation.choices, required=False, allow_blank=True, default=""
    )
    private_notes = StrictCharField(required=False, allow_blank=True, default="", max_length=20_000)
    submit = StrictBooleanField(required=False, default=False)


class StageScorecardApi(PracticeApi):
    @extend_schema(
        responses={
            200: PolymorphicProxySerializer(
                component_name="StageScorecard",
                serializers={"coach": ScorecardCoachSerializer, "auto": AutoScorecardSerializer},
                resource_type_field_name="source",
            )
        },
        description="The coach's scorecard (`source: coach`), or for a finished stage "
        "without one the automatic scorecard (`source: auto`, every score with its "
        "`evidence`). The candidate sees the coach's once the stage is finished and the "
        "coach has submitted it (404 while it is a draft), without `private_notes`; the "
        "coach and admins see it all, drafts included (`draft`).",
    )
    def get(self, request: Request, stage_id: int) -> Response:
        stage = stage_for(request.user, stage_id)
        view = access.access_scorecard(request.user, stage)
        if view == "coach":
            try:
                return Response(ScorecardCoachSerializer(scorecard_of(stage, drafts=True)).data)
            except NotFound:
                pass
        elif scorecard_draft_exists(stage):
            raise NotFound(_("This stage has no scorecard yet."))
        card = stage_scorecard(stage)
        if card is None:
            raise NotFound(_("This stage has no scorecard yet."))
        if isinstance(card, dict):
            return Response(AutoScorecardSerializer(card).data)
        serializer = ScorecardCoachSerializer if view == "coach" else ScorecardCandidateSerializer
        return Response(serializer(card).data)

    @extend_schema(
        request=ScorecardInputSerializer,
        responses={200: ScorecardCoachSerializer},
        description="Save the scorecard as a draft (the recommendation may stay unset), or "
        "with `submit: true` submit it (a recommendation is needed) so the candidate sees "
        "it once the stage is finished. A submitted scorecard changes only by submitting "
        "again (409 `scorecard_submitted`).",
    )
    def put(self, request: Request, stage_id: int) -> Response:
        stage = stage_for(request.user, stage_id)
        serializer = ScorecardInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        scorecard = scorecard_save(stage=stage, coach=request.user, **serializer.validated_data)
        return Response(ScorecardCoachSerializer(scorecard).data)


urlpatterns = [
    path("coach/queue/", CoachQueueApi.as_view(), name="coach-queue"),
    path("stages/<int:stage_id>/claim/", StageClaimApi.as_view(), name="stage-claim"),
    path("stages/<int:stage_id>/shadow/", StageShadowApi.as_view(), name="stage-shadow"),
    path("stages/<int:stage_id>/release/", StageReleaseApi.as_view(), name="stage-release"),
    path("stages/<int:stage_id>/hand-over/", StageHandOverApi.as_view(), name="stage-hand-over"),
    path("stages/<int:stage_id>/follow-ups/", StageFollowUpApi.as_view(), name="stage-follow-ups"),
    path("stages/<int:stage_id>/notes/", StageNotesApi.as_view(), name="stage-notes"),
    path("stages/<int:stage_id>/scorecard/", StageScorecardApi.as_view(), name="stage-scorecard"),
]
