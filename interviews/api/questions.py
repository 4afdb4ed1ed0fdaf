"""The question bank over HTTP: admins curate it; everyone else reads what a candidate may
see of published questions (never hidden tests, references, flaw keys or follow-ups).

Bodies are the bank-file question dict (DESIGN.md), validated by the same service as
`import_bank`, so a 400 names every problem by field path (`coding.parts[0].title`).
"""

from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, PolymorphicProxySerializer, extend_schema
from rest_framework import exceptions, status
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response

from interviews.models import Question
from interviews.models.bank import QuestionStatus
from interviews.roles import ADMIN, role_of
from interviews.selectors.bank import (
    question_list_latest,
    question_prefetch,
    question_public_prefetch,
    question_summary_annotate,
)
from interviews.services.bank_import import question_verify_reference
from interviews.services.questions import (
    question_archive,
    question_create,
    question_publish,
    question_update,
)

from .base import PracticeApi, StrictSerializer
from .question_serializers import (
    QuestionAdminSerializer,
    QuestionPublicSerializer,
    QuestionSummarySerializer,
    QuestionWriteSerializer,
    VerificationQueuedSerializer,
)


class ReadOrBankAdmin(BasePermission):
    """Signed-in users read; only admins write."""

    message = "Only admins may change the question bank."

    def has_permission(self, request: Request, view) -> bool:
        role = role_of(request.user)
        if role is None:
            return False
        return request.method in SAFE_METHODS or role == ADMIN


class NoBodySerializer(StrictSerializer):
    """Actions take no parameters; any field is unknown."""


def _is_admin(request: Request) -> bool:
    return role_of(request.user) == ADMIN


def _question_for(request: Request, question_id: int) -> Question:
    """A version the user may see: any for admins, published ones for everyone else."""
    if _is_admin(request):
        questions = question_prefetch(Question.objects.filter(pk=question_id))
    else:
        questions = question_public_prefetch(
            Question.objects.filter(pk=question_id, status=QuestionStatus.PUBLISHED)
        )
    question = questions.first()
    if question is None:
        raise exceptions.NotFound(_("Question not found."))
    return question


def _admin_view(question: Question) -> dict:
    fresh = question_prefetch(Question.objects.filter(pk=question.pk)).get()
    return QuestionAdminSerializer(fresh).data


def _reject_body(request: Request) -> None:
    NoBodySerializer(data=request.data or {}).is_valid(raise_exception=True)


QUESTION_LIST_SCHEMA = PolymorphicProxySerializer(
    component_name="QuestionListItem",
    serializers=[QuestionSummarySerializer, QuestionPublicSerializer],
    resource_type_field_name=None,
    many=True,
)


class QuestionListApi(PracticeApi):
    permission_classes = [ReadOrBankAdmin]

    @extend_schema(
        parameters=[
            OpenApiParameter("kind", str, description="coding | design | review | discussion"),
            OpenApiParameter("slug", str),
            OpenApiParameter("status", str, description="Admins: draft | published | archived"),
            OpenApiParameter("all_versions", bool, description="Admins: every version"),
        ],
        responses={200: QUESTION_LIST_SCHEMA},
        description=(
            "Admins: a summary (QuestionSummary: identity, state, counts; no prompt or "
            "tests) of the newest version of every question (all statuses; "
            "`all_versions=1` lists every version); `GET …/{id}/` has the bank-file dict. "
            "Everyone else: the newest published version of each question, as a candidate "
            "may see it (QuestionPublic)."
        ),
    )
    def get(self, request: Request) -> Response:
        params = request.query_params
        if _is_admin(request):
            if params.get("all_versions") in ("1", "true"):
                questions = Question.objects.order_by("slug", "-version")
            else:
                questions = question_list_latest()
            if params.get("status"):
                questions = questions.filter(status=params["status"])
        else:
            questions = question_list_latest(status=QuestionStatus.PUBLISHED)
        if params.get("kind"):
            questions = questions.filter(kind=params["kind"])
        if params.get("slug"):
            questions = questions.filter(slug=params["slug"])
        if _is_admin(request):
            summaries = question_summary_annotate(questions)
            return Response(QuestionSummarySerializer(summaries, many=True).data)
        questions = question_public_prefetch(questions)
        return Response(QuestionPublicSerializer(questions, many=True).data)

    @extend_schema(
        request=QuestionWriteSerializer,
        responses={201: QuestionAdminSerializer},
        description=(
            "Admins: create a question (version 1) from a bank-file question dict. "
            "`status` defaults to draft; a coding question must be verified before it is "
            "published (409)."
        ),
    )
    def post(self, request: Request) -> Response:
        question = question_create(data=request.data, actor=request.user)
        return Response(_admin_view(question), status=status.HTTP_201_CREATED)


class QuestionDetailApi(PracticeApi):
    permission_classes = [ReadOrBankAdmin]

    @extend_schema(
        responses={200: QuestionPublicSerializer},
        description="Admins get the full bank-file dict (QuestionAdmin); others the public view.",
    )
    def get(self, request: Request, question_id: int) -> Response:
        question = _question_for(request, question_id)
        if _is_admin(request):
            return Response(QuestionAdminSerializer(question).data)
        return Response(QuestionPublicSerializer(question).data)

    @extend_schema(
        request=QuestionWriteSerializer,
        responses={200: QuestionAdminSerializer},
        description=(
            "Admins: replace the version's content. A version that a stage or submission "
            "uses is never changed: a new version is created instead (the response's `id` "
            "is then the new version's). Changed coding content is unverified again."
        ),
    )
    def put(self, request: Request, question_id: int) -> Response:
        return self._update(request, question_id, partial=False)

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={200: QuestionAdminSerializer},
        description="Admins: a JSON merge patch (RFC 7386) onto the bank-file dict; as PUT.",
    )
    def patch(self, request: Request, question_id: int) -> Response:
        return self._update(request, question_id, partial=True)

    def _update(self, request: Request, question_id: int, *, partial: bool) -> Response:
        question = _question_for(request, question_id)
        question, _ = question_update(
            question=question, data=request.data, partial=partial, actor=request.user
        )
        return Response(_admin_view(question))

    @extend_schema(
        responses={204: None},
        description="Admins: archive the question (every version of its slug).",
    )
    def delete(self, request: Request, question_id: int) -> Response:
        question = _question_for(request, question_id)
        question_archive(question=question, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class QuestionPublishApi(PracticeApi):
    permission_classes = [ReadOrBankAdmin]

    @extend_schema(
        request=None,
        responses={200: QuestionAdminSerializer},
        description="Admins: publish this version (409 for an unverified coding question).",
    )
    def post(self, request: Request, question_id: int) -> Response:
        _reject_body(request)
        question = _question_for(request, question_id)
        question_publish(question=question, actor=request.user)
        return Response(_admin_view(question))


class QuestionVerifyApi(PracticeApi):
    permission_classes = [ReadOrBankAdmin]

    @extend_schema(
        request=None,
        responses={202: VerificationQueuedSerializer},
        description=(
            "Admins: queue the reference solution's run on every sample and hidden test, "
            "on the judge worker; poll the question's `verification` for progress. On "
            "success the version is marked verified and may be published."
        ),
    )
    def post(self, request: Request, question_id: int) -> Response:
        _reject_body(request)
        question = _question_for(request, question_id)
        question_verify_reference(question=question, actor=request.user)
        return Response(
            {"verification": question.verification, "question": _admin_view(question)},
            status=status.HTTP_202_ACCEPTED,
        )


urlpatterns = [
    path("questions/", QuestionListApi.as_view(), name="questions"),
    path("questions/<int:question_id>/", QuestionDetailApi.as_view(), name="question-detail"),
    path(
        "questions/<int:question_id>/publish/",
        QuestionPublishApi.as_view(),
        name="question-publish",
    ),
    path(
        "questions/<int:question_id>/verify/", QuestionVerifyApi.as_view(), name="question-verify"
    ),
]
