"""Scoring and reports: coach overrides of review matches, deep-dive feedback, the loop
report, a candidate's progress and coach calibration."""

from django.urls import path
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from interviews import access
from interviews.feedback.deep_dive import deep_dive_feedback
from interviews.models import SelfAssessment
from interviews.selectors.loops import loop_for
from interviews.selectors.model_answers import model_answers_of
from interviews.selectors.reports import (
    calibration_subject,
    candidate_progress,
    coach_calibration,
    loop_report,
)
from interviews.selectors.stages import stage_for
from interviews.services.reviews import (
    review_match_override_clear,
    review_match_override_set,
    review_score,
)
from interviews.services.self_assessments import self_assessment_save

from .base import PracticeApi, StrictCharField, StrictIntegerField, StrictSerializer
from .practice_serializers import ReviewScoreSerializer
from .report_serializers import (
    CalibrationSerializer,
    DeepDiveFeedbackSerializer,
    LoopReportSerializer,
    ModelAnswersSerializer,
    ProgressSerializer,
    ReviewMatchInputSerializer,
)


class StageReviewMatchesApi(PracticeApi):
    @extend_schema(
        request=ReviewMatchInputSerializer,
        responses={200: ReviewScoreSerializer},
        description="The coach rules on one comment: it matches `flaw`, or (null) no flaw, "
        "or (null with `valid`) a valid finding that is no planted flaw. Replaces the "
        "automatic match in the review score; returns the new score.",
    )
    def put(self, request: Request, stage_id: int) -> Response:
        stage = stage_for(request.user, stage_id)
        serializer = ReviewMatchInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        review_match_override_set(
            stage=stage,
            coach=request.user,
            comment_id=serializer.validated_data["comment"],
            flaw_id=serializer.validated_data["flaw"],
            valid=serializer.validated_data["valid"],
        )
        return Response(ReviewScoreSerializer(review_score(stage=stage)).data)


class StageReviewMatchDeleteApi(PracticeApi):
    @extend_schema(
        request=None,
        responses={204: None},
        description="Drop the coach's ruling on a comment: the automatic match applies again.",
    )
    def delete(self, request: Request, stage_id: int, comment_id: int) -> Response:
        stage = stage_for(request.user, stage_id)
        review_match_override_clear(stage=stage, coach=request.user, comment_id=comment_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class StageDeepDiveFeedbackApi(PracticeApi):
    @extend_schema(
        responses={200: DeepDiveFeedbackSerializer},
        description="Checklist of the seven parts, quantification and ROI arithmetic for "
        "each answer of a deep-dive stage, with the rule and text span behind each item. "
        "The candidate sees it once the stage is finished (409 before); the coach and "
        "admins at any time. 404 for other stage kinds.",
    )
    def get(self, request: Request, stage_id: int) -> Response:
        stage = stage_for(request.user, stage_id)
        access.access_deep_dive_feedback(request.user, stage)
        return Response(DeepDiveFeedbackSerializer(deep_dive_feedback(stage=stage)).data)


class StageModelAnswersApi(PracticeApi):
    @extend_schema(
        responses={200: ModelAnswersSerializer},
        description="What a strong answer covers (the follow-ups' coach notes), the "
        "reference solution and the design doc's planted flaws, per question. The "
        "candidate reads them once the stage is finished (409 before); the coach and "
        "admins at any time; anyone else gets 404.",
    )
    def get(self, request: Request, stage_id: int) -> Response:
        stage = stage_for(request.user, stage_id)
        access.access_model_answers(request.user, stage)
        body = {"stage": stage.pk, "questions": model_answers_of(stage)}
        return Response(ModelAnswersSerializer(body).data)


class SelfScoreInputSerializer(StrictSerializer):
    dimension = StrictCharField(max_length=120)
    level = StrictIntegerField(min_value=1, max_value=4)
    comment = StrictCharField(required=False, allow_blank=True, default="", max_length=5_000)


class SelfAssessmentInputSerializer(StrictSerializer):
    scores = SelfScoreInputSerializer(many=True, allow_empty=True)


class SelfAssessmentOutSerializer(serializers.Serializer):
    stage = serializers.IntegerField(source="stage_id")
    scores = SelfScoreInputSerializer(many=True)
    updated_at = serializers.DateTimeField(allow_null=True)


class StageSelfAssessmentApi(PracticeApi):
    @extend_schema(
        responses={200: SelfAssessmentOutSerializer},
        description="The candidate's own levels against the stage's rubric (empty until "
        "they fill it in). Whoever may see the stage reads it.",
    )
    def get(self, request: Request, stage_id: int) -> Response:
        stage = stage_for(request.user, stage_id)
        assessment = SelfAssessment.objects.filter(stage=stage).first() or SelfAssessment(
            stage=stage, scores=[], updated_at=None
        )
        return Response(SelfAssessmentOutSerializer(assessment).data)

    @extend_schema(
        request=SelfAssessmentInputSerializer,
        responses={200: SelfAssessmentOutSerializer},
        description="The candidate assesses themself once the stage is finished (409 "
        "before); dimensions are the rubric's.",
    )
    def put(self, request: Request, stage_id: int) -> Response:
        stage = stage_for(request.user, stage_id)
        serializer = SelfAssessmentInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        assessment = self_assessment_save(
            stage=stage, candidate=request.user, scores=serializer.validated_data["scores"]
        )
        return Response(SelfAssessmentOutSerializer(assessment).data)


class LoopReportApi(PracticeApi):
    @extend_schema(
        responses={200: LoopReportSerializer},
        description="The loop's report: per stage the scorecard with its weighted score "
        "(rubric weights; levels 1–4 normalised to 0–1; unscored dimensions left out), "
        "recommendation and summary, the review score and deep-dive feedback; the loop's "
        "overall (mean of scored stages) and recommendation. The candidate sees stages' "
        "scorecards and feedback once each stage is finished and never private notes; a "
        "coach sees only the stages assigned to them (and the overall of those).",
    )
    def get(self, request: Request, loop_id: int) -> Response:
        loop = loop_for(request.user, loop_id)
        return Response(LoopReportSerializer(loop_report(loop=loop, viewer=request.user)).data)


class MyProgressApi(PracticeApi):
    @extend_schema(
        responses={200: ProgressSerializer},
        description="The caller's finished stages across their loops, oldest first, as "
        "chart series: weighted score per stage kind, level per dimension, review recall "
        "and precision, deep-dive coverage.",
    )
    def get(self, request: Request) -> Response:
        return Response(ProgressSerializer(candidate_progress(user=request.user)).data)


class CalibrationQuerySerializer(serializers.Serializer):
    coach = serializers.IntegerField(required=False, min_value=1)


class CoachCalibrationApi(PracticeApi):
    @extend_schema(
        parameters=[
            OpenApiParameter("coach", int, description="Admins only: another scorer's id."),
        ],
        responses={200: CalibrationSerializer},
        description="A coach's mean level per dimension against all scorers' (and the "
        "others'), with recommendation counts. Coaches see their own; admins anyone's.",
    )
    def get(self, request: Request) -> Response:
        query = CalibrationQuerySerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        subject = calibration_subject(
            viewer=request.user, coach_id=query.validated_data.get("coach")
        )
        return Response(CalibrationSerializer(coach_calibration(coach=subject)).data)


urlpatterns = [
    path(
        "stages/<int:stage_id>/review-matches/",
        StageReviewMatchesApi.as_view(),
        name="stage-review-matches",
    ),
    path(
        "stages/<int:stage_id>/review-matches/<int:comment_id>/",
        StageReviewMatchDeleteApi.as_view(),
        name="stage-review-match",
    ),
    path(
        "stages/<int:stage_id>/deep-dive-feedback/",
        StageDeepDiveFeedbackApi.as_view(),
        name="stage-deep-dive-feedback",
    ),
    path(
        "stages/<int:stage_id>/model-answers/",
        StageModelAnswersApi.as_view(),
        name="stage-model-answers",
    ),
    path(
        "stages/<int:stage_id>/self-assessment/",
        StageSelfAssessmentApi.as_view(),
        name="stage-self-assessment",
    ),
    path("loops/<int:loop_id>/report/", LoopReportApi.as_view(), name="loop-report"),
    path("me/progress/", MyProgressApi.as_view(), name="me-progress"),
    path("coach/calibration/", CoachCalibrationApi.as_view(), name="coach-calibration"),
]
