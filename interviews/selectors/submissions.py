"""Submissions as a viewer may see them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import QuerySet

from interviews.models import Stage, Submission
from interviews.selectors.access import submissions_visible_to
from interviews.services.errors import NotFound

if TYPE_CHECKING:
    from interviews.selectors.access import AnyUser


def submission_for(user: AnyUser, submission_id: int) -> Submission:
    submission = (
        submissions_visible_to(user)
        .select_related("stage", "stage__loop", "stage__coach", "question")
        .prefetch_related("tests")
        .filter(pk=submission_id)
        .first()
    )
    if submission is None:
        raise NotFound("Submission not found.")
    return submission


def stage_submissions(stage: Stage) -> QuerySet[Submission]:
    """The stage's submissions, newest first, with their test results (the stage was
    already checked to be visible)."""
    return (
        Submission.objects.filter(stage=stage)
        .select_related("stage")
        .prefetch_related("tests")
        .order_by("-created_at", "-id")
    )
