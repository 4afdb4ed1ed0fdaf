"""Live-room verbs that are not tied to one REST resource: chat, presence, integrity
signals, the coach's clock controls, and the scripted interviewer.

The scripted interviewer plays coach when none is assigned, and assists a coach who is
in the room (never while a coached stage's coach is absent): `after_minutes` follow-ups
fire from the periodic `stages_tick` (a Celery beat task), `on_part_passed` ones when a
submit of a part is accepted, `after_answer` ones when the candidate has answered what was
asked last (or asks for the next question). Whether it may ask at all is one rule,
`selectors.stages.scripted_interviewer_active`. The deadline closes the stage and
auto-submits the latest code of every coding question, so nothing typed is lost.
"""

import logging
from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext as _

from interviews.access import access_stage, access_stage_as_candidate, access_stage_as_coach
from interviews.judging.signals import part_passed
from interviews.models import (
    Answer,
    FollowUp,
    Stage,
    StageEvent,
    StageFollowUp,
    StageQuestion,
    Submission,
)
from interviews.realtime.events import emit
from interviews.selectors.stages import (
    after_answer_progress,
    next_after_answer_follow_up,
    scripted_interviewer_active,
    time_remaining_ms,
)
from interviews.selectors.submissions import question_judging_facts

from .errors import InvalidInput, StateConflict
from .recording_state import recordings_end_with_stage
from .stages import isoformat_or_none, stage_status_payload

logger = logging.getLogger(__name__)

MAX_CHAT_CHARS = 4000
#: What counts as having answered: this many words written for the question since its
#: last follow-up was asked (a sentence or two; a word or a typo fix is not an answer).
AFTER_ANSWER_MIN_WORDS = 25
INTEGRITY_KINDS = {"paste", "blur"}


def chat_post(*, stage: Stage, author: AbstractBaseUser, text: str) -> StageEvent:
    """Anyone in the room may chat: the candidate, the stage's coach, admins."""
    access_stage(author, stage)
    text = (text or "").strip() if isinstance(text, str) else ""
    if not text:
        raise InvalidInput(errors={"text": [_("Write something first.")]})
    if len(text) > MAX_CHAT_CHARS:
        raise InvalidInput(
            errors={"text": [_("At most %(limit)s characters.") % {"limit": MAX_CHAT_CHARS}]}
        )
    if stage.status == Stage.Status.DONE:
        raise StateConflict(_("The stage is finished; chat is closed."), code="stage_finished")
    return emit(stage, "chat", {"text": text}, actor=author)


def integrity_record(
    *, stage: Stage, actor: AbstractBaseUser, kind: str, amount: int
) -> StageEvent:
    """A large paste (`amount` = characters) or the tab losing focus (`amount` = ms).

    Recorded for the coach to weigh, never used to fail anyone automatically.
    """
    access_stage_as_candidate(
        actor, stage, refusal=_("Only the stage's candidate reports paste and focus signals.")
    )
    if kind not in INTEGRITY_KINDS or not isinstance(amount, int) or amount < 0:
        raise InvalidInput(errors={"kind": [_("Use paste or blur with a non-negative amount.")]})
    key = "chars" if kind == "paste" else "ms"
    return emit(stage, "integrity", {"kind": kind, key: amount}, actor=actor, private=True)


def presence_change(*, stage: Stage, user: AbstractBaseUser, role: str, joined: bool) -> StageEvent:
    """Joining needs access; leaving never does (a socket closed because its access went
    still leaves, or the room would show a ghost)."""
    if joined:
        access_stage(user, stage)
    return emit(
        stage,
        "presence",
        {"user": user.get_username(), "role": role, "state": "joined" if joined else "left"},
        actor=user,
    )


def timer_payload(stage: Stage, reason: str) -> dict:
    return {
        "reason": reason,
        "status": stage.status,
        "deadline": isoformat_or_none(stage.deadline),
        "paused": stage.paused_remaining_ms is not None,
        "remaining_ms": time_remaining_ms(stage),
    }


@transaction.atomic
def stage_timer_control(
    *, stage: Stage, actor: AbstractBaseUser, action: str, minutes: int = 0
) -> Stage:
    """The coach pauses, resumes or extends the clock; the server stays authoritative."""
    stage = Stage.objects.select_for_update().select_related("loop").get(pk=stage.pk)
    access_stage_as_coach(
        actor, stage, refusal=_("Only the stage's coach or an admin controls the clock.")
    )
    if stage.status != Stage.Status.LIVE:
        raise StateConflict(
            _("The clock runs only while the stage is live."), code="stage_not_live"
        )
    now = timezone.now()
    if action == "pause":
        if stage.paused_remaining_ms is not None:
            raise StateConflict(_("The clock is already paused."))
        stage.paused_remaining_ms = time_remaining_ms(stage, now)
        stage.deadline = None
    elif action == "resume":
        if stage.paused_remaining_ms is None:
            raise StateConflict(_("The clock is not paused."))
        stage.deadline = now + timedelta(milliseconds=stage.paused_remaining_ms)
        stage.paused_remaining_ms = None
    elif action == "extend":
        if not isinstance(minutes, int) or not 1 <= minutes <= 120:
            raise InvalidInput(errors={"minutes": [_("Extend by 1 to 120 minutes.")]})
        if stage.paused_remaining_ms is not None:
            stage.paused_remaining_ms += minutes * 60_000
        else:
            stage.deadline = stage.deadline + timedelta(minutes=minutes)
    else:
        raise InvalidInput(errors={"action": [_("Use pause, resume or extend.")]})
    stage.save(update_fields=["deadline", "paused_remaining_ms"])
    emit(stage, "timer", timer_payload(stage, action), actor=actor)
    return stage


def stage_expire(*, stage_id: int, now=None) -> bool:
    """Close a stage whose deadline passed and auto-submit the latest code of each coding
    question. Idempotent: a second call (or a concurrent one) finds it done and stops."""
    from .submissions import stage_submit_latest_code

    now = now or timezone.now()
    with transaction.atomic():
        stage = Stage.objects.select_for_update().select_related("loop").get(pk=stage_id)
        if stage.status != Stage.Status.LIVE or stage.deadline is None or stage.deadline > now:
            return False
        stage.status = Stage.Status.DONE
        stage.finished_at = now
        stage.save(update_fields=["status", "finished_at"])
        emit(stage, "timer", timer_payload(stage, "expired"))
        emit(stage, "stage.status", stage_status_payload(stage, "deadline"))
        stage_submit_latest_code(stage)
        recordings_end_with_stage(stage)
    return True


def stage_fire_timed_follow_ups(*, stage: Stage, now=None) -> list[StageFollowUp]:
    """Push every due `after_minutes` follow-up of a live stage, unless it is coached and
    its coach is absent (`scripted_interviewer_on`)."""
    from .follow_ups import stage_push_follow_up

    if not scripted_interviewer_active(stage) or stage.started_at is None:
        return []
    now = now or timezone.now()
    elapsed_min = (now - stage.started_at).total_seconds() / 60
    pushed_ids = set(
        StageFollowUp.objects.filter(stage=stage).values_list("follow_up_id", flat=True)
    )
    due = FollowUp.objects.filter(
        question__in=StageQuestion.objects.filter(stage=stage).values("question"),
        trigger=FollowUp.Trigger.AFTER_MINUTES,
        after_minutes__lte=elapsed_min,
    ).exclude(pk__in=[pk for pk in pushed_ids if pk])
    fired = []
    for follow_up in due.order_by("after_minutes", "position"):
        try:
            fired.append(stage_push_follow_up(stage=stage, actor=None, follow_up=follow_up))
        except StateConflict:
            continue  # pushed concurrently by another tick or a coach
    return fired


@receiver(part_passed, sender=Submission, dispatch_uid="live.stage_on_part_passed")
def _part_passed(sender, *, submission: Submission, **kwargs) -> None:
    stage_on_part_passed(submission=submission)


def stage_on_part_passed(*, submission: Submission) -> list[StageFollowUp]:
    """After an accepted submit of part P (of a stage whose coach, if it has one, is in
    the room: `scripted_interviewer_on`), fire the next scripted
    `on_part_passed` follow-up: the one that unlocks part P+1, else the first unpushed
    one that unlocks nothing."""
    from .follow_ups import stage_push_follow_up

    facts = question_judging_facts(submission.question_id)
    if facts is not None and not facts.fires_on_part_passed:
        return []  # nothing to ask (most challenge questions): the stage is not even read
    stage = submission.stage
    if not scripted_interviewer_active(stage):
        return []
    pending = FollowUp.objects.filter(
        question=submission.question, trigger=FollowUp.Trigger.ON_PART_PASSED
    ).exclude(
        pk__in=StageFollowUp.objects.filter(stage=stage, follow_up__isnull=False).values(
            "follow_up"
        )
    )
    follow_up = pending.filter(unlocks_part=submission.part + 1).order_by("position").first()
    if follow_up is None:
        follow_up = pending.filter(unlocks_part__isnull=True).order_by("position").first()
    if follow_up is None:
        return []
    try:
        return [stage_push_follow_up(stage=stage, actor=None, follow_up=follow_up)]
    except StateConflict:
        return []


def stage_on_answer_saved(
    *, stage: Stage, question_id: int | None, answer: Answer | None = None
) -> list[StageFollowUp]:
    """After an answer to a question of a solo stage is saved: once the candidate has
    written `AFTER_ANSWER_MIN_WORDS` words beyond what the answer held when the question's
    last follow-up was asked (or since the start), ask its next `after_answer` one.

    `answer`: the answer as just saved, when the caller has it (the autosave), so it is
    not read again. This runs after every autosave, so the cheapest checks come first:
    one plain query says whether a follow-up is left and what the answer held when the
    last one was asked; whether the scripted interviewer is on (in a coached stage, a
    look at the coach's presence) is asked only when a follow-up would be."""
    from .follow_ups import answer_words, answer_words_of, stage_push_follow_up

    if question_id is None or stage.status != Stage.Status.LIVE:
        return []
    follow_up_id, baseline = after_answer_progress(stage.pk, question_id)
    if follow_up_id is None:
        return []
    words = answer_words(answer) if answer is not None else answer_words_of(stage, question_id)
    if words - baseline < AFTER_ANSWER_MIN_WORDS or not scripted_interviewer_active(stage):
        return []
    try:
        follow_up = FollowUp.objects.get(pk=follow_up_id)
        return [stage_push_follow_up(stage=stage, actor=None, follow_up=follow_up)]
    except StateConflict:
        return []  # asked concurrently


def stage_on_notes_edited(*, stage: Stage, name: str) -> list[StageFollowUp]:
    """After an edit of a question's design notes (`notes:<question>`, a shared document
    typed over the websocket rather than saved as an answer): the same rule as
    `stage_on_answer_saved`. The notes are merged only while the question has an
    `after_answer` follow-up left to ask, so most keystrokes cost one query."""
    from .documents import document_state

    kind, _, question_id = (name or "").partition(":")
    if kind != "notes" or not question_id.isdigit() or not scripted_interviewer_active(stage):
        return []
    if next_after_answer_follow_up(stage, int(question_id)) is None:
        return []
    document_state(stage=stage, name=name, store_answer=True)  # the notes into the Answer
    return stage_on_answer_saved(stage=stage, question_id=int(question_id))


@transaction.atomic
def stage_ask_next_follow_up(
    *, stage: Stage, actor: AbstractBaseUser, question_id: int | None = None
) -> StageFollowUp:
    """The candidate's "Next question": the scripted interviewer asks its next
    `after_answer` follow-up (of `question_id`, or of the first question with one left)
    at once, without waiting for the answer to grow."""
    from .follow_ups import stage_push_follow_up

    access_stage_as_candidate(
        actor, stage, refusal=_("Only the stage's candidate asks for the next question.")
    )
    stage = Stage.objects.select_for_update().select_related("loop").get(pk=stage.pk)
    if stage.status != Stage.Status.LIVE:
        raise StateConflict(_("The stage is not live."), code="stage_not_live")
    if not scripted_interviewer_active(stage):
        raise StateConflict(
            _("Your coach asks the follow-ups in this stage."), code="coach_asks_follow_ups"
        )
    if (
        question_id is not None
        and not StageQuestion.objects.filter(stage=stage, question_id=question_id).exists()
    ):
        raise InvalidInput(errors={"question": [_("Not a question of this stage.")]})
    follow_up = next_after_answer_follow_up(stage, question_id)
    if follow_up is None:
        raise StateConflict(
            _("The interviewer has no more questions for this stage."), code="no_follow_up_left"
        )
    return stage_push_follow_up(stage=stage, actor=None, follow_up=follow_up)


def stages_tick(now=None) -> dict[str, int]:
    """One pass of the clock (Celery beat, every second): expire due stages, fire due
    timed follow-ups. Safe to run concurrently or twice."""
    now = now or timezone.now()
    expired = 0
    for stage_id in Stage.objects.filter(
        status=Stage.Status.LIVE, deadline__lte=now, paused_remaining_ms__isnull=True
    ).values_list("pk", flat=True):
        try:
            expired += stage_expire(stage_id=stage_id, now=now)
        except Exception:
            logger.exception("expiring stage %s failed; the next tick retries", stage_id)
    fired = 0
    timed_stages = (
        Stage.objects.filter(
            status=Stage.Status.LIVE,
            stage_questions__question__follow_ups__trigger=FollowUp.Trigger.AFTER_MINUTES,
        )
        .exclude(coach_requested=True, coach__isnull=True)  # waiting for a coach
        .distinct()
    )
    for stage in timed_stages:
        fired += len(stage_fire_timed_follow_ups(stage=stage, now=now))
    return {"expired": expired, "fired": fired}


def stage_presence(stage: Stage) -> list[dict]:
    """Who is in the room now, folded from the log's presence events (joins minus leaves
    per user; advisory — a crashed web process may leave a stale entry)."""
    counts: dict[str, dict] = {}
    events = StageEvent.objects.filter(stage=stage, type="presence").order_by("seq")
    for payload in events.values_list("payload", flat=True):
        entry = counts.setdefault(payload.get("user"), {"role": payload.get("role"), "n": 0})
        entry["n"] += 1 if payload.get("state") == "joined" else -1
    return [{"user": user, "role": e["role"]} for user, e in sorted(counts.items()) if e["n"] > 0]
