"""Reads, and every "who may see what" rule of the practice side, in one place.

The HTTP API and the websocket consumers both call these, so a rule changed here changes
everywhere. Visibility (→ 404 when it fails) is decided by the `*_visible_to` querysets;
what a visible user may *do* (→ 403) by the `can_*` predicates.

- admin: everything;
- candidate: their own loops, stages, submissions;
- coach: the stages assigned to them (and the loops containing them); unassigned stages
  only as entries of the coach queue. A claimed stage is visible to its candidate, its
  coach and admins only.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING

from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone

from interviews import bank_cache
from interviews.models import (
    FollowUp,
    Loop,
    LoopTemplate,
    Part,
    Question,
    ReviewComment,
    Rubric,
    Scorecard,
    Stage,
    StageEvent,
    StageFollowUp,
    StageQuestion,
    StageTemplate,
    Submission,
)
from interviews.models.bank import QuestionStatus
from interviews.roles import ADMIN, COACH, role_of
from interviews.services.errors import NotFound

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    AnyUser = AbstractBaseUser | AnonymousUser


# --- roles and predicates ----------------------------------------------------------------


def is_admin(user: AnyUser) -> bool:
    return role_of(user) == ADMIN


def is_coach_or_admin(user: AnyUser) -> bool:
    return role_of(user) in (COACH, ADMIN)


def is_stage_owner(user: AnyUser, stage: Stage) -> bool:
    return bool(user.is_authenticated) and stage.loop.candidate_id == user.pk


def can_act_as_coach(user: AnyUser, stage: Stage) -> bool:
    """The stage's assigned coach, or an admin: may push follow-ups, note, score, see
    private events and coach-only data."""
    role = role_of(user)
    if role == ADMIN:
        return True
    return role == COACH and stage.coach_id == user.pk


def can_drive_stage(user: AnyUser, stage: Stage) -> bool:
    """May start and finish the stage's clock."""
    return is_stage_owner(user, stage) or can_act_as_coach(user, stage)


def can_see_private(user: AnyUser, stage: Stage) -> bool:
    """Private events, coach notes and scorecard private notes."""
    return can_act_as_coach(user, stage)


def can_see_review_score(user: AnyUser, stage: Stage) -> bool:
    """The owner only once the stage is done (the score reveals the planted flaws)."""
    return can_act_as_coach(user, stage) or stage.status == Stage.Status.DONE


def can_use_coach_queue(user: AnyUser) -> bool:
    return is_coach_or_admin(user)


# --- loop templates ----------------------------------------------------------------------


def loop_templates_published() -> QuerySet[LoopTemplate]:
    return LoopTemplate.objects.filter(status=QuestionStatus.PUBLISHED).prefetch_related(
        Prefetch("stages", queryset=StageTemplate.objects.order_by("position"))
    )


# --- loops -------------------------------------------------------------------------------


def stages_visible_to(user: AnyUser) -> QuerySet[Stage]:
    if not user.is_authenticated:
        return Stage.objects.none()
    if is_admin(user):
        return Stage.objects.all()
    return Stage.objects.filter(Q(loop__candidate=user) | Q(coach=user))


def loops_visible_to(user: AnyUser) -> QuerySet[Loop]:
    """Loops with the stages the user may see prefetched (a coach sees only the stages
    assigned to them, even inside a loop they can open)."""
    if not user.is_authenticated:
        return Loop.objects.none()
    if is_admin(user):
        loops = Loop.objects.all()
    else:
        visible_loop_ids = stages_visible_to(user).values("loop_id")
        loops = Loop.objects.filter(Q(candidate=user) | Q(pk__in=visible_loop_ids))
    return loops.select_related("template", "candidate").prefetch_related(
        Prefetch(
            "stages",
            queryset=stages_visible_to(user).select_related("coach").order_by("position"),
            to_attr="visible_stages",
        )
    )


def loop_for(user: AnyUser, loop_id: int) -> Loop:
    loop = loops_visible_to(user).filter(pk=loop_id).first()
    if loop is None:
        raise NotFound("Loop not found.")
    return loop


# --- stages ------------------------------------------------------------------------------


def stage_for(user: AnyUser, stage_id: int) -> Stage:
    """A stage the user may see (with its loop and coach loaded), else NotFound."""
    stage = (
        stages_visible_to(user)
        .select_related("loop", "loop__candidate", "coach")
        .filter(pk=stage_id)
        .first()
    )
    if stage is None:
        raise NotFound("Stage not found.")
    return stage


def coach_queue() -> QuerySet[Stage]:
    """Stages whose candidate asked for a coach and that nobody has claimed yet."""
    return (
        Stage.objects.filter(
            coach_requested=True,
            coach__isnull=True,
            status__in=[Stage.Status.PENDING, Stage.Status.LIVE],
        )
        .select_related("loop", "loop__candidate", "loop__template")
        .order_by("started_at", "id")
    )


def stage_claim_target_for(user: AnyUser, stage_id: int) -> Stage:
    """The stage a `claim` acts on: one the user can see, or (for coaches and admins) any
    stage that was put up for a coach — claimed or not, so that "taken" can be told apart
    from "absent" (409 vs 404)."""
    candidates = stages_visible_to(user)
    if is_coach_or_admin(user):
        candidates = Stage.objects.filter(
            Q(pk__in=candidates.values("pk")) | Q(coach_requested=True)
        )
    stage = (
        candidates.select_related("loop", "loop__candidate", "coach").filter(pk=stage_id).first()
    )
    if stage is None:
        raise NotFound("Stage not found.")
    return stage


def time_remaining_ms(stage: Stage, now: datetime | None = None) -> int:
    """Milliseconds left on the stage's clock, decided by the server."""
    if stage.status == Stage.Status.DONE:
        return 0
    if stage.paused_remaining_ms is not None:
        return int(stage.paused_remaining_ms)
    if stage.status == Stage.Status.PENDING or stage.deadline is None:
        return stage.minutes * 60_000
    left = stage.deadline - (now or timezone.now())
    return max(0, int(left.total_seconds() * 1000))


def stage_rubric(stage: Stage) -> Rubric | None:
    """The stage's own rubric, else its first question's."""
    if stage.rubric_id:
        return stage.rubric
    first = stage.stage_questions.select_related("question__rubric").order_by("position").first()
    return first.question.rubric if first else None


def stage_question_get(stage: Stage, question_id: int) -> Question | None:
    """A question of this stage by id (the id the stage detail shows), else None."""
    link = (
        StageQuestion.objects.select_related("question")
        .filter(stage=stage, question_id=question_id)
        .first()
    )
    return link.question if link else None


# --- parts: which are open ---------------------------------------------------------------


def open_part_numbers(
    part_numbers: Iterable[int], follow_up_unlocks: Iterable[int | None], pushed: Iterable[int]
) -> set[int]:
    """Part 1 is always open; a part no follow-up unlocks is open from the start; a part
    some follow-up unlocks opens once such a follow-up was pushed into the stage."""
    gated = {n for n in follow_up_unlocks if n}
    pushed_set = set(pushed)
    return {n for n in part_numbers if n == 1 or n not in gated or n in pushed_set}


def part_is_open(stage: Stage, question: Question, part: int) -> bool:
    """Whether the part exists and is unlocked in this stage (absent and locked look
    alike, so a locked part's existence does not leak)."""
    if not Part.objects.filter(question=question, position=part).exists():
        return False
    unlocks = FollowUp.objects.filter(question=question).values_list("unlocks_part", flat=True)
    pushed = StageFollowUp.objects.filter(
        stage=stage, question=question, unlocks_part__isnull=False
    ).values_list("unlocks_part", flat=True)
    return part in open_part_numbers([part], unlocks, pushed)


def stage_detail_for(user: AnyUser, stage_id: int) -> Stage:
    """The stage as this user may see it, ready to serialise.

    Sets, on the returned objects:
    - `stage.viewer_is_coach`: whether coach-only data may be shown;
    - `stage.question_list`: the questions the viewer may read (none for the candidate
      while the stage is pending: the clock has not started, so neither has reading);
    - on each question `part_list` (parts with `locked` and `sample_tests`; locked parts
      are left out for the candidate), and for coaches `follow_up_list` (with `pushed`)
      and `flaw_list`;
    - `stage.rubric_obj`: the rubric used to score the stage.
    Hidden tests are never loaded here.
    """
    stage = stage_for(user, stage_id)
    coach_view = can_act_as_coach(user, stage)
    links = list(
        StageQuestion.objects.filter(stage=stage).select_related("question").order_by("position")
    )
    pushed = list(
        StageFollowUp.objects.filter(stage=stage)
        .select_related("pushed_by")
        .order_by("created_at", "id")
    )
    stage.pushed_list = pushed
    stage.answer_list = list(stage.answers.all())
    stage.viewer_is_coach = coach_view

    questions = []
    if coach_view or stage.status != Stage.Status.PENDING:
        structures = bank_cache.question_structures({link.question_id for link in links})
        pushed_ids = {p.follow_up_id for p in pushed if p.follow_up_id}
        for link in links:
            question = link.question
            structure = structures[question.pk]
            open_numbers = open_part_numbers(
                [p.position for p in structure.parts],
                [f.unlocks_part for f in structure.follow_ups],
                [p.unlocks_part for p in pushed if p.question_id == question.pk and p.unlocks_part],
            )
            for part in structure.parts:
                part.locked = part.position not in open_numbers
            question.part_list = [p for p in structure.parts if coach_view or not p.locked]
            if coach_view:
                for follow_up in structure.follow_ups:
                    follow_up.pushed = follow_up.pk in pushed_ids
                question.follow_up_list = structure.follow_ups
                question.flaw_list = structure.flaws
            questions.append(question)
    stage.question_list = questions

    # As `stage_rubric`: the stage's own, else its first question's.
    rubric_id = stage.rubric_id or (links[0].question.rubric_id if links else None)
    rubrics = bank_cache.rubrics_with_dimensions({rubric_id} if rubric_id else set())
    stage.rubric_obj = rubrics.get(rubric_id)
    return stage


# --- submissions -------------------------------------------------------------------------


def submissions_visible_to(user: AnyUser) -> QuerySet[Submission]:
    return Submission.objects.filter(stage__in=stages_visible_to(user))


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


# --- events, reviews, scorecards ---------------------------------------------------------


def stage_events_for(user: AnyUser, stage: Stage, *, after: int = 0) -> QuerySet[StageEvent]:
    """The stage's log after `after`, without private events unless the user may see them."""
    events = StageEvent.objects.filter(stage=stage, seq__gt=after).select_related("actor")
    if not can_see_private(user, stage):
        events = events.filter(private=False)
    return events.order_by("seq")


def review_comments_of(stage: Stage) -> QuerySet[ReviewComment]:
    return (
        ReviewComment.objects.filter(stage=stage)
        .select_related("author")
        .order_by("line_start", "id")
    )


def scorecard_of(stage: Stage) -> Scorecard:
    scorecard = Scorecard.objects.select_related("coach").filter(stage=stage).first()
    if scorecard is None:
        raise NotFound("This stage has no scorecard yet.")
    return scorecard
