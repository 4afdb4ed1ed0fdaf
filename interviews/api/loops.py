"""Loop templates and loops."""

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from interviews.selectors.access import loops_visible_to
from interviews.selectors.loops import loop_for, loop_templates_published
from interviews.services.loops import loop_start

from .base import PracticeApi, StrictBooleanField, StrictSerializer
from .practice_serializers import LoopOutSerializer, LoopTemplateOutSerializer


class LoopTemplateListApi(PracticeApi):
    @extend_schema(responses={200: LoopTemplateOutSerializer(many=True)})
    def get(self, request: Request) -> Response:
        templates = loop_templates_published()
        return Response(LoopTemplateOutSerializer(templates, many=True).data)


class LoopStartInputSerializer(StrictSerializer):
    template = serializers.SlugRelatedField(
        slug_field="slug",
        queryset=loop_templates_published(),
        error_messages={"does_not_exist": 'No published loop template "{value}".'},
    )
    coached = StrictBooleanField(required=False, default=False)


class LoopListApi(PracticeApi):
    @extend_schema(responses={200: LoopOutSerializer(many=True)}, operation_id="loops_list")
    def get(self, request: Request) -> Response:
        loops = loops_visible_to(request.user)
        return Response(LoopOutSerializer(loops, many=True).data)

    @extend_schema(
        request=LoopStartInputSerializer,
        responses={201: LoopOutSerializer},
        operation_id="loops_start",
        description="Candidates only: start a loop of a published template.",
    )
    def post(self, request: Request) -> Response:
        serializer = LoopStartInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        loop = loop_start(candidate=request.user, **serializer.validated_data)
        loop = loop_for(request.user, loop.pk)
        return Response(LoopOutSerializer(loop).data, status=status.HTTP_201_CREATED)


class LoopDetailApi(PracticeApi):
    @extend_schema(responses={200: LoopOutSerializer})
    def get(self, request: Request, loop_id: int) -> Response:
        loop = loop_for(request.user, loop_id)
        return Response(LoopOutSerializer(loop).data)


urlpatterns = [
    path("loop-templates/", LoopTemplateListApi.as_view(), name="loop-templates"),
    path("loops/", LoopListApi.as_view(), name="loops"),
    path("loops/<int:loop_id>/", LoopDetailApi.as_view(), name="loop-detail"),
]
