"""Study plans: the two-week plan and any other the bank ships."""

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from interviews.i18n import request_language
from interviews.selectors.plans import study_plan_get, study_plan_summaries, study_plan_view
from interviews.services.plans import study_plan_start

from .base import PracticeApi, StrictBooleanField, StrictSerializer


class PlanSummarySerializer(serializers.Serializer):
    slug = serializers.CharField()
    title = serializers.CharField()
    description = serializers.CharField()
    language = serializers.CharField()
    fallback_fields = serializers.ListField(child=serializers.CharField())
    day_count = serializers.IntegerField()
    started_at = serializers.DateTimeField(allow_null=True)


class PlanPracticeSerializer(serializers.Serializer):
    loop = serializers.CharField()
    loop_title = serializers.CharField()
    stage = serializers.IntegerField()
    stage_title = serializers.CharField()
    kind = serializers.CharField()
    minutes = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["not_started", "in_progress", "done"])
    times_done = serializers.IntegerField()
    last_done_at = serializers.DateTimeField(allow_null=True)
    stage_id = serializers.IntegerField(allow_null=True)
    loop_id = serializers.IntegerField(allow_null=True)
    available = serializers.BooleanField()


class PlanDaySerializer(serializers.Serializer):
    number = serializers.IntegerField()
    title = serializers.CharField()
    phase = serializers.CharField()
    focus = serializers.CharField()
    language = serializers.CharField()
    fallback_fields = serializers.ListField(child=serializers.CharField())
    practice = PlanPracticeSerializer(many=True)
    done = serializers.BooleanField()


class PlanRecommendedSerializer(PlanPracticeSerializer):
    day = serializers.IntegerField()


class PlanRecommendationSerializer(serializers.Serializer):
    dimension = serializers.CharField()
    level = serializers.FloatField()
    practice = PlanRecommendedSerializer(many=True)


class PlanSerializer(serializers.Serializer):
    slug = serializers.CharField()
    title = serializers.CharField()
    description = serializers.CharField()
    language = serializers.CharField()
    fallback_fields = serializers.ListField(child=serializers.CharField())
    started_at = serializers.DateTimeField(allow_null=True)
    today = serializers.IntegerField(allow_null=True)
    days_done = serializers.IntegerField()
    days = PlanDaySerializer(many=True)
    recommendations = PlanRecommendationSerializer(many=True)


class PlanStartInputSerializer(StrictSerializer):
    restart = StrictBooleanField(required=False, default=False)


class PlanListApi(PracticeApi):
    @extend_schema(responses={200: PlanSummarySerializer(many=True)}, operation_id="plans_list")
    def get(self, request: Request) -> Response:
        plans = study_plan_summaries(user=request.user, language=request_language(request))
        return Response(PlanSummarySerializer(plans, many=True).data)


class PlanDetailApi(PracticeApi):
    @extend_schema(responses={200: PlanSerializer}, operation_id="plan_detail")
    def get(self, request: Request, slug: str) -> Response:
        plan = study_plan_get(slug)
        view = study_plan_view(plan=plan, user=request.user, language=request_language(request))
        return Response(PlanSerializer(view).data)


class PlanStartApi(PracticeApi):
    @extend_schema(
        request=PlanStartInputSerializer,
        responses={200: PlanSerializer},
        operation_id="plan_start",
        description="Candidates only: follow the plan from today (`restart`: today is day 1).",
    )
    def post(self, request: Request, slug: str) -> Response:
        serializer = PlanStartInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        plan = study_plan_get(slug)
        study_plan_start(user=request.user, plan=plan, **serializer.validated_data)
        view = study_plan_view(plan=plan, user=request.user, language=request_language(request))
        return Response(PlanSerializer(view).data)


urlpatterns = [
    path("plans/", PlanListApi.as_view(), name="plans"),
    path("plans/<slug:slug>/", PlanDetailApi.as_view(), name="plan-detail"),
    path("plans/<slug:slug>/start/", PlanStartApi.as_view(), name="plan-start"),
]
