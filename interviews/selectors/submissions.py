"""Submissions as a viewer may see them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from interviews.models import Stage, Submission
from interviews.selectors.access import submissions_visible_to
from interviews.services.errors import NotFound

if TYPE_CHECKING:
    from interviews.selectors.access import AnyUser


def submission_for(user: AnyUser, submission_id: int) -> Submission:
    """A submission the user may see, with its test results. Its stage and question are
    not joined: the detail shows only their ids, and a room polls this once per verdict
    (the joins were most of the request's ORM work: bench/judge.py)."""
    submission = (
        submissions_visible_to(user).prefetch_related("tests").filter(pk=submission_id).first()
    )
    if submission is None:
        raise NotFound(_("Submission not found."))
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


def submission_queue_position(submission: Submission) -> int | None:
    """Where a queued submission stands in the judge's queue (1: next), or None when it is
    not queued. Runs go ahead of submits (`judging.tasks.RUN_PRIORITY`), so a run counts
    the runs queued before it and a submit every queued run plus the submits before it.
    An estimate: a message the broker re-delivers keeps its place."""
    if submission.status != Submission.Status.QUEUED:
        return None
    ahead = Q(mode=Submission.Mode.RUN) if submission.mode == Submission.Mode.SUBMIT else Q()
    earlier = Q(created_at__lt=submission.created_at) | Q(
        created_at=submission.created_at, pk__lt=submission.pk
    )
    if submission.mode == Submission.Mode.RUN:
        earlier &= Q(mode=Submission.Mode.RUN)
    return (
        Submission.objects.filter(status=Submission.Status.QUEUED)
        .filter(ahead | earlier)
        .exclude(pk=submission.pk)
        .count()
        + 1
    )
