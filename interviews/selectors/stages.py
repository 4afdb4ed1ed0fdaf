"""A stage as a viewer may see it: the stage, its clock, questions and open parts, its
event log, review comments and scorecard."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import TYPE_CHECKING, Any

from django.db import connection
from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from interviews import bank_cache
from interviews.models import (
    Answer,
    FollowUp,
    Loop,
    Part,
    Question,
    ReviewComment,
    Rubric,
    Scorecard,
    Stage,
    StageEvent,
    StageFollowUp,
    StageQuestion,
)
from interviews.selectors.access import (
    can_act_as_coach,
    can_see_private,
    is_coach_or_admin,
    stage_is_visible_to,
    stages_visible_to,
)
from interviews.selectors.compiled import CompiledValues, instance_from_columns
from interviews.selectors.rubrics import (
    ScoringRubric,
    scoring_rubric_live,
    scoring_rubric_of_version,
)
from interviews.services.errors import NotFound
from interviews.stage_kinds import stage_kind_list

if TYPE_CHECKING:
    from interviews.selectors.access import AnyUser


# --- stages ---------------------------------------------------------------------------


def _scorecard_submitted() -> Exists:
    """Annotation: the stage's coach has submitted a scorecard (a draft does not count)."""
    return Exists(Scorecard.objects.filter(stage=OuterRef("pk"), draft=False))


def stage_for(user: AnyUser, stage_id: int) -> Stage:
    """A stage the user may see (with its loop, its template (the titles' translations)
    and coach loaded, and whether it has a submitted scorecard), else NotFound."""
    stage = (
        stages_visible_to(user)
        .select_related("loop", "loop__candidate", "loop__template", "coach")
        .annotate(scorecard_submitted=_scorecard_submitted())
        .filter(pk=stage_id)
        .first()
    )
    if stage is None:
        raise NotFound(_("Stage not found."))
    return stage


def stage_row_for(user: AnyUser, stage_id: int) -> Stage:
    """The stage's own row if the user may see it, else NotFound (the same rule as
    `stage_for`, without its joins): for a service that loads and locks the stage again
    itself."""
    stage = stages_visible_to(user).filter(pk=stage_id).first()
    if stage is None:
        raise NotFound(_("Stage not found."))
    return stage


_STAGE_STATE = CompiledValues(
    lambda stage_id: Stage.objects.filter(pk=stage_id).values(
        "id", "loop_id", "status", "coach_id", "coach_requested", "loop__candidate_id"
    )[:1],
    "stage_id",
)


def stage_state_for(user: AnyUser, stage_id: int) -> Stage:
    """The stage's state (status, coach, whether it asked for one, and its loop with only
    the candidate loaded; the rest deferred) if the user may see it, else NotFound: the
    same rule as `stage_for`, in one plain query for the stage's candidate (a second, the
    visibility rule's, for anyone else).

    For the answer autosave, which a typing candidate sends every second or so: building
    `stage_for`'s joins and annotation was a quarter of its CPU (issue #15)."""
    found = _STAGE_STATE.rows(stage_id=stage_id)
    if not found:
        raise NotFound(_("Stage not found."))
    columns = found[0]
    candidate_id = columns.pop("loop__candidate_id")
    stage = instance_from_columns(Stage, columns)
    stage.loop = instance_from_columns(Loop, {"id": stage.loop_id, "candidate_id": candidate_id})
    owner = user.is_authenticated and candidate_id == user.pk
    if not owner and not stages_visible_to(user).filter(pk=stage_id).exists():
        raise NotFound(_("Stage not found."))
    return stage


def stages_for_edit_log(stage_ids: Iterable[int]) -> dict[int, Stage]:
    """The stages of a batch of live rooms whose edits the room log writes
    (realtime/roomlog.py), with their loops and, as `edit_log_question_ids`, the ids of
    their questions (what `documents.document_edit_check` needs): two queries for the
    whole batch instead of two per room. Absent stages (deleted) are missing."""
    stages = Stage.objects.select_related("loop").in_bulk(list(stage_ids))
    for stage in stages.values():
        stage.edit_log_question_ids = set()
    links = StageQuestion.objects.filter(stage_id__in=list(stages)).values_list(
        "stage_id", "question_id"
    )
    for stage_id, question_id in links:
        stages[stage_id].edit_log_question_ids.add(question_id)
    return stages


def coach_queue() -> QuerySet[Stage]:
    """Live rounds of coached loops that nobody has claimed: pending ones from the moment
    their loop started, live ones an admin started without a coach. Oldest loop first."""
    return (
        Stage.objects.filter(
            coach_requested=True,
            coach__isnull=True,
            status__in=[Stage.Status.PENDING, Stage.Status.LIVE],
        )
        .select_related("loop", "loop__candidate", "loop__template")
        .annotate(
            scorecard_submitted=Exists(Scorecard.objects.filter(stage=OuterRef("pk"), draft=False))
        )
        .order_by("loop__created_at", "loop_id", "position")
    )


def stage_claim_target_for(user: AnyUser, stage_id: int) -> Stage:
    """The stage a `claim` acts on: one the user can see, or (for coaches and admins) any
    live round of a coached loop — claimed, solo or not, so that "taken" and "solo" can be
    told apart from "absent" (409 vs 404)."""
    candidates = stages_visible_to(user)
    if is_coach_or_admin(user):
        live_kinds = [spec.kind for spec in stage_kind_list() if spec.live]
        candidates = Stage.objects.filter(
            Q(pk__in=candidates.values("pk"))
            | Q(coach_requested=True)
            | Q(loop__coached=True, kind__in=live_kinds)
        )
    stage = (
        candidates.select_related("loop", "loop__candidate", "coach").filter(pk=stage_id).first()
    )
    if stage is None:
        raise NotFound(_("Stage not found."))
    return stage


def stage_coach_present(stage: Stage) -> bool:
    """Whether the stage's assigned coach is in the room: has more socket joins than
    leaves in the log's presence events (as `live.stage_presence` folds them; advisory —
    a web process that crashed may leave a coach present until they reconnect and leave)."""
    if stage.coach_id is None:
        return False
    counts = StageEvent.objects.filter(
        stage=stage, type="presence", actor_id=stage.coach_id
    ).aggregate(
        joined=Count("id", filter=Q(payload__state="joined")),
        left=Count("id", filter=Q(payload__state="left")),
    )
    return counts["joined"] > counts["left"]


def scripted_interviewer_on(stage: Stage) -> bool:
    """Whether scripted follow-ups (timed, on a passed part) may fire in the stage: always
    in a stage without a coach (an uncoached loop, a challenge, a round continued solo);
    in a coached one only while its coach is in the room — never while it waits for a coach
    or its coach is absent (DESIGN.md "Live stages")."""
    if not stage.coach_requested and stage.coach_id is None:
        return True
    return stage_coach_present(stage)


def scripted_interviewer_active(stage: Stage) -> bool:
    """Whether the scripted interviewer asks follow-ups in this stage now: only while it
    is live and `scripted_interviewer_on` (no coach runs it, or its coach is in the room;
    DESIGN.md: never in a coached stage while its coach is absent). Every scripted trigger
    asks this one function."""
    return stage.status == Stage.Status.LIVE and scripted_interviewer_on(stage)


def scripted_follow_ups_left(stage: Stage) -> int:
    """How many `after_answer` follow-ups the candidate may still ask for ("Next
    question"); 0 whenever the scripted interviewer is not the one asking, and in a stage
    a coach runs (the coach asks; and stage detail then needs no presence query)."""
    if stage.coach_id is not None or not scripted_interviewer_active(stage):
        return 0
    return _pending_after_answer(stage).count()


def _pending_after_answer(stage: Stage) -> QuerySet[FollowUp]:
    pushed = StageFollowUp.objects.filter(stage=stage, follow_up__isnull=False).values("follow_up")
    return FollowUp.objects.filter(
        question__in=StageQuestion.objects.filter(stage=stage).values("question"),
        trigger=FollowUp.Trigger.AFTER_ANSWER,
    ).exclude(pk__in=pushed)


def next_after_answer_follow_up(stage: Stage, question_id: int | None = None) -> FollowUp | None:
    """The follow-up the scripted interviewer asks next after an answer: the first unasked
    `after_answer` one of the question (or, without one, of the first question in stage
    order that has one left)."""
    pending = _pending_after_answer(stage)
    if question_id is not None:
        pending = pending.filter(question_id=question_id)
    order = StageQuestion.objects.filter(stage=stage, question=OuterRef("question")).values(
        "position"
    )
    return (
        pending.annotate(stage_position=Subquery(order[:1]))
        .order_by("stage_position", "position")
        .first()
    )


@cache
def _after_answer_sql() -> str:
    quote = connection.ops.quote_name
    follow_up, pushed = quote(FollowUp._meta.db_table), quote(StageFollowUp._meta.db_table)
    return (
        f"SELECT (SELECT f.{quote('id')} FROM {follow_up} f"
        f" WHERE f.{quote('question_id')} = %s AND f.{quote('trigger')} = %s"
        f" AND NOT EXISTS (SELECT 1 FROM {pushed} p WHERE p.{quote('stage_id')} = %s"
        f" AND p.{quote('follow_up_id')} = f.{quote('id')})"
        f" ORDER BY f.{quote('position')}, f.{quote('id')} LIMIT 1),"
        f" (SELECT p.{quote('answer_words')} FROM {pushed} p"
        f" WHERE p.{quote('stage_id')} = %s AND p.{quote('question_id')} = %s"
        f" ORDER BY p.{quote('created_at')} DESC, p.{quote('id')} DESC LIMIT 1)"
    )


def after_answer_progress(stage_id: int, question_id: int) -> tuple[int | None, int]:
    """For the scripted interviewer after an answer to a question of the stage is saved:
    the id of the question's next unasked `after_answer` follow-up (None: none left), and
    the words its answer held when the question's last follow-up was asked (0: none yet).

    `next_after_answer_follow_up` for one question, and the baseline beside it, in one
    plain query: it runs after every autosave of a solo stage (issue #15)."""
    with connection.cursor() as cursor:
        cursor.execute(
            _after_answer_sql(),
            [question_id, FollowUp.Trigger.AFTER_ANSWER, stage_id, stage_id, question_id],
        )
        follow_up_id, baseline = cursor.fetchone()
    return follow_up_id, baseline or 0


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


def _scoring_rubric(stage: Stage, links: list[StageQuestion]) -> ScoringRubric | None:
    """The rubric version the stage is scored on; a stage from before versions reads its
    rubric as it is now (from the bank cache: the stage detail is read often)."""
    if stage.rubric_version_id:
        version = bank_cache.rubric_versions({stage.rubric_version_id})[stage.rubric_version_id]
        return scoring_rubric_of_version(version)
    rubric_id = stage.rubric_id or (links[0].question.rubric_id if links else None)
    rubric = bank_cache.rubrics_with_dimensions({rubric_id} if rubric_id else set()).get(rubric_id)
    return scoring_rubric_live(rubric) if rubric else None


def stage_rubric(stage: Stage) -> Rubric | None:
    """The stage's own rubric, else its first question's: the rubric as the bank holds it
    now (what a new loop pins). What the stage is *scored* on is `rubric_for_stage`."""
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


# --- parts: which are open ------------------------------------------------------------


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
    scripted_left = 0
    if coach_view or stage.status != Stage.Status.PENDING:
        structures = bank_cache.question_structures({link.question_id for link in links})
        pushed_ids = {p.follow_up_id for p in pushed if p.follow_up_id}
        if stage.coach_id is None and scripted_interviewer_active(stage):
            # `scripted_follow_ups_left`, from the cached bank and the rows loaded above.
            scripted_left = sum(
                1
                for structure in structures.values()
                for follow_up in structure.follow_ups
                if follow_up.trigger == FollowUp.Trigger.AFTER_ANSWER
                and follow_up.pk not in pushed_ids
            )
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
            # Which bank follow-up is which (for the pushed ones' translations).
            question.follow_up_positions = {f.pk: f.position for f in structure.follow_ups}
            if coach_view:
                for follow_up in structure.follow_ups:
                    follow_up.pushed = follow_up.pk in pushed_ids
                question.follow_up_list = structure.follow_ups
                question.flaw_list = structure.flaws
            questions.append(question)
    stage.question_list = questions

    stage.rubric_obj = _scoring_rubric(stage, links)
    stage.scripted_follow_ups_left = scripted_left
    return stage


# --- stage detail, as rows ------------------------------------------------------------

#: The stage's own columns stage detail shows or decides on, and the few of its loop, its
#: coach and its scorecard it needs (one query; the template's translations for the title).
_DETAIL_STAGE_FIELDS = (
    "id",
    "loop_id",
    "position",
    "kind",
    "title",
    "minutes",
    "rubric_id",
    "rubric_version_id",
    "status",
    "started_at",
    "deadline",
    "paused_remaining_ms",
    "finished_at",
    "coach_requested",
    "coach_id",
)
_DETAIL_JOINED_FIELDS = (
    "coach__username",
    "loop__coached",
    "loop__candidate_id",
    "loop__candidate__username",
    "loop__template__i18n",
    "scorecard__draft",
)


_DETAIL_STAGE = CompiledValues(
    lambda stage_id: Stage.objects.filter(pk=stage_id).values(
        *_DETAIL_STAGE_FIELDS, *_DETAIL_JOINED_FIELDS
    )[:1],
    "stage_id",
)
_DETAIL_PUSHED = CompiledValues(
    lambda stage_id: (
        StageFollowUp.objects.filter(stage_id=stage_id)
        .order_by("created_at", "id")
        .values(
            "id",
            "text",
            "question_id",
            "follow_up_id",
            "unlocks_part",
            "pushed_by__username",
            "created_at",
        )
    ),
    "stage_id",
)
# Answer's own ordering (stage, then question: the question's slug and version).
_DETAIL_ANSWERS = CompiledValues(
    lambda stage_id: (
        Answer.objects.filter(stage_id=stage_id)
        .order_by("question__slug", "-question__version")
        .values("id", "question_id", "text", "notes", "scene", "updated_at")
    ),
    "stage_id",
)


@dataclass
class StageDetailRows:
    """What stage detail shows of one stage besides the bank: plain rows, no bank text.

    `stage` is a `Stage` (with its `loop`) built from one row, for the predicates that
    take a stage; it also carries `coach_username`, `candidate_username`, `template_i18n`
    and `scorecard_submitted`. `question_ids` are the stage's questions in order, `pushed`
    its pushed follow-ups (oldest first) and `answers` its answers, as `values()` rows;
    `generation` the bank generation they were read under (None: cache unreachable)."""

    stage: Stage
    viewer_is_coach: bool
    question_ids: tuple[int, ...]
    pushed: list[dict[str, Any]]
    answers: list[dict[str, Any]]
    generation: int | None


def stage_detail_rows(user: AnyUser, stage_id: int) -> StageDetailRows:
    """The stage's own rows for stage detail, if the user may see it (else NotFound).

    The hot path of the page every candidate and coach reloads: three light queries
    (`values()`, few joins, compiled once per thread: `selectors.compiled`) instead of
    model graphs, the visibility rule checked on the
    loaded row (`stage_is_visible_to`, the row form of `stages_visible_to`: a shadow's
    check is the one extra query) and the stage's question ids, fixed once its loop
    started, from the process memo. The bank's part is the caller's (cached per process
    too)."""
    found = _DETAIL_STAGE.rows(stage_id=stage_id)
    if not found:
        raise NotFound(_("Stage not found."))
    row = found[0]
    stage = Stage(**{name: row[name] for name in _DETAIL_STAGE_FIELDS})
    stage.loop = Loop(
        pk=row["loop_id"], candidate_id=row["loop__candidate_id"], coached=row["loop__coached"]
    )
    if not stage_is_visible_to(user, stage):
        raise NotFound(_("Stage not found."))
    stage.coach_username = row["coach__username"]
    stage.candidate_username = row["loop__candidate__username"]
    stage.template_i18n = row["loop__template__i18n"]
    stage.scorecard_submitted = row["scorecard__draft"] is False  # a draft does not count
    generation = bank_cache.bank_generation()
    question_ids = stage_question_ids(stage_id, generation)
    pushed = _DETAIL_PUSHED.rows(stage_id=stage_id)
    answers = _DETAIL_ANSWERS.rows(stage_id=stage_id)
    return StageDetailRows(
        stage=stage,
        viewer_is_coach=can_act_as_coach(user, stage),
        question_ids=question_ids,
        pushed=pushed,
        answers=answers,
        generation=generation,
    )


def stage_question_ids(stage_id: int, generation: int | None) -> tuple[int, ...]:
    """The ids of the stage's questions in stage order, from the process memo (a stage's
    questions are fixed when its loop starts; an admin edit moves the bank generation on)."""
    question_ids = bank_cache.process_memo.get(generation, ("stage-questions", stage_id))
    if question_ids is None:
        question_ids = tuple(
            StageQuestion.objects.filter(stage_id=stage_id)
            .order_by("position")
            .values_list("question_id", flat=True)
        )
        bank_cache.process_memo.put(generation, ("stage-questions", stage_id), question_ids)
    return question_ids


# --- events, reviews, scorecards ------------------------------------------------------


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


def scorecard_draft_exists(stage: Stage) -> bool:
    """Whether the stage's coach has a scorecard they have not submitted yet (the
    candidate then sees none, not even the automatic one)."""
    return Scorecard.objects.filter(stage=stage, draft=True).exists()


def scorecard_of(stage: Stage, *, drafts: bool = False) -> Scorecard:
    """The stage's scorecard; a draft only with `drafts` (its coach's view), else
    NotFound as if there were none."""
    scorecards = Scorecard.objects.select_related("coach").filter(stage=stage)
    if not drafts:
        scorecards = scorecards.filter(draft=False)
    scorecard = scorecards.first()
    if scorecard is None:
        raise NotFound(_("This stage has no scorecard yet."))
    return scorecard
