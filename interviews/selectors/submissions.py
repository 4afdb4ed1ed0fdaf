"""Submissions as a viewer may see them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from interviews import bank_cache
from interviews.models import FollowUp, Part, Question, Stage, StageFollowUp, Submission
from interviews.selectors.access import submissions_visible_to
from interviews.selectors.stages import open_part_numbers, stage_question_ids
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


@dataclass(frozen=True)
class QuestionJudgingFacts:
    """What taking a submission (and the scripted interviewer's turn after a verdict)
    needs of a question version, which never changes once a stage uses it."""

    kind: str
    languages: tuple[str, ...]
    parts: frozenset[int]
    #: Parts some follow-up unlocks: locked until such a follow-up is pushed.
    gated_parts: frozenset[int]
    #: Whether a passed part may fire a scripted follow-up (an `on_part_passed` one).
    fires_on_part_passed: bool


def question_judging_facts(
    question_id: int, generation: int | None = None
) -> QuestionJudgingFacts | None:
    """The question's facts (None: no such question), kept in the process memo under the
    bank generation: a submission POST and a judged job read none of its rows."""
    if generation is None:
        generation = bank_cache.bank_generation()
    key = ("judging-facts", question_id)
    facts = bank_cache.process_memo.get(generation, key)
    if facts is None:
        # Two queries: the parts with their question's columns (a question without parts
        # is read on its own), and the follow-ups.
        parts = list(
            Part.objects.filter(question_id=question_id).values_list(
                "position", "question__kind", "question__languages"
            )
        )
        if parts:
            kind, languages = parts[0][1], parts[0][2]
        else:
            row = Question.objects.filter(pk=question_id).values_list("kind", "languages")
            found = row.first()
            if found is None:
                return None
            kind, languages = found
        follow_ups = list(
            FollowUp.objects.filter(question_id=question_id).values_list("unlocks_part", "trigger")
        )
        facts = QuestionJudgingFacts(
            kind=kind,
            languages=tuple(languages or ()),
            parts=frozenset(position for position, _, _ in parts),
            gated_parts=frozenset(unlocks for unlocks, _ in follow_ups if unlocks),
            fires_on_part_passed=any(
                trigger == FollowUp.Trigger.ON_PART_PASSED for _, trigger in follow_ups
            ),
        )
        bank_cache.process_memo.put(generation, key, facts)
    return facts


def stage_question_facts(stage_id: int, question_id: int) -> QuestionJudgingFacts | None:
    """The facts of a question of this stage by id (the id the stage detail shows), else
    None."""
    generation = bank_cache.bank_generation()
    if question_id not in stage_question_ids(stage_id, generation):
        return None
    return question_judging_facts(question_id, generation)


def stage_part_is_open(
    stage_id: int, question_id: int, facts: QuestionJudgingFacts, part: int
) -> bool:
    """`stages.part_is_open` from the question's facts: a query only for a part that a
    follow-up unlocks (whether one was pushed into this stage)."""
    if part not in facts.parts:
        return False
    pushed = ()
    if part in facts.gated_parts:
        pushed = StageFollowUp.objects.filter(
            stage_id=stage_id, question_id=question_id, unlocks_part=part
        ).values_list("unlocks_part", flat=True)
    return part in open_part_numbers([part], facts.gated_parts, pushed)
