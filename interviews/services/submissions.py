"""Submissions: a candidate's code, stored as queued and handed to the judge after commit."""

import logging
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.db.models import Count
from django.utils.translation import gettext as _

from interviews.access import access_stage_as_candidate, access_stage_clock
from interviews.judging.submissions import submission_status_payload
from interviews.judging.tasks import queue_judging
from interviews.models import Part, Question, Stage, Submission
from interviews.models.bank import QuestionKind
from interviews.realtime.events import emit
from interviews.selectors.compiled import CompiledValues
from interviews.selectors.stages import part_is_open, stage_question_get
from interviews.selectors.submissions import stage_part_is_open, stage_question_facts

from .documents import DocumentState, documents_of
from .errors import InvalidInput, StateConflict, TooBusy, TooLarge

logger = logging.getLogger(__name__)


@transaction.atomic
def submission_create(
    *,
    stage: Stage,
    author: AbstractBaseUser,
    question_id: int,
    part: int,
    language: str,
    code: str,
    mode: str,
    stdin: str | None = None,
) -> Submission:
    """Store a run (samples, or the given stdin) or a submit (hidden tests) of one part of
    a coding question of a live stage the author owns; judging is queued on commit."""
    limit = settings.MAX_CODE_BYTES
    if len(code.encode("utf-8")) > limit:
        raise TooLarge(
            _("Code is over %(kib)s KiB.") % {"kib": limit // 1024},
            errors={"code": [_("Max %(limit)s bytes.") % {"limit": limit}]},
        )
    if stdin is not None and len(stdin.encode("utf-8")) > limit:
        raise TooLarge(
            _("stdin is over %(kib)s KiB.") % {"kib": limit // 1024},
            errors={"stdin": [_("Max %(limit)s bytes.") % {"limit": limit}]},
        )
    if mode not in Submission.Mode.values:
        raise InvalidInput(errors={"mode": [_("Use run or submit.")]})
    if stdin is not None and mode != Submission.Mode.RUN:
        raise InvalidInput(errors={"stdin": [_("stdin is only for run mode.")]})

    access_stage_as_candidate(author, stage, refusal=_("Only the stage's candidate submits code."))
    if _stage_lock_status(stage.pk) != Stage.Status.LIVE:
        raise StateConflict(
            _("Code can be run or submitted only while the stage is live."), code="stage_not_live"
        )
    facts = stage_question_facts(stage.pk, question_id)
    if facts is None:
        raise InvalidInput(errors={"question": [_("Not a question of this stage.")]})
    if facts.kind != QuestionKind.CODING:
        raise InvalidInput(errors={"question": [_("Not a coding question.")]})
    if language not in facts.languages:
        raise InvalidInput(
            errors={
                "language": [
                    _("Use one of: %(languages)s.") % {"languages": ", ".join(facts.languages)}
                ]
            }
        )
    if not stage_part_is_open(stage.pk, question_id, facts, part):
        raise StateConflict(_("Part %(part)s is not open.") % {"part": part}, code="part_locked")
    _check_in_flight(author)

    submission = Submission.objects.create(
        stage=stage,
        question_id=question_id,
        part=part,
        author=author,
        language=language,
        code=code,
        mode=mode,
        stdin=stdin,
        status=Submission.Status.QUEUED,
    )
    _announce_and_queue(submission, actor=author)
    return submission


# The stage's status under its row's lock (PostgreSQL; on SQLite the transaction holds
# the database's write lock already, and Django leaves FOR UPDATE out): a stage that
# finishes meanwhile, by Finish or at its deadline (which lock the row too), takes no more
# submissions. Compiled once per thread (CompiledValues), as it runs on every POST.
_STAGE_LOCK = CompiledValues(
    lambda stage_id: (
        Stage.objects.select_for_update().filter(pk=stage_id).order_by().values("status")
    ),
    "stage_id",
)


def _stage_lock_status(stage_id: int) -> str | None:
    rows = _STAGE_LOCK.rows(stage_id=stage_id)
    return rows[0]["status"] if rows else None


_AUTHOR_LOCK = CompiledValues(
    lambda author_id: (
        get_user_model().objects.select_for_update().filter(pk=author_id).order_by().values("pk")
    ),
    "author_id",
)
_IN_FLIGHT = CompiledValues(
    lambda author_id: (
        Submission.objects.filter(
            author_id=author_id,
            status__in=[Submission.Status.QUEUED, Submission.Status.RUNNING],
        )
        .order_by()
        .values("author_id")
        .annotate(in_flight=Count("id"))
        .values("in_flight")
    ),
    "author_id",
)


def _check_in_flight(author: AbstractBaseUser) -> None:
    """At most `JUDGE_MAX_IN_FLIGHT_PER_USER` of a candidate's submissions wait for or
    occupy the judge at once, so one candidate cannot hold every worker. Counted under a
    lock on the author's row: two requests at once cannot both take the last slot."""
    limit = settings.JUDGE_MAX_IN_FLIGHT_PER_USER
    # (SQLite has no row locks, and Django drops FOR UPDATE there: the query would lock
    # nothing; its writers take the database's one write lock instead)
    if connection.features.has_select_for_update:
        _AUTHOR_LOCK.rows(author_id=author.pk)
    found = _IN_FLIGHT.rows(author_id=author.pk)
    in_flight = found[0]["in_flight"] if found else 0
    if in_flight >= limit:
        raise TooBusy(
            _(
                "You already have %(in_flight)s submissions waiting for the judge (at most "
                "%(limit)s at a time). Send this one when one of them has its verdict."
            )
            % {"in_flight": in_flight, "limit": limit}
        )


def _announce_and_queue(submission: Submission, *, actor: AbstractBaseUser | None) -> None:
    emit(submission.stage, "submission.status", submission_status_payload(submission), actor=actor)
    submission_id, mode = submission.pk, submission.mode
    transaction.on_commit(lambda: queue_judging(submission_id, mode=mode))


@transaction.atomic
def submission_create_auto(*, stage: Stage, question_id: int, document: Any) -> Submission | None:
    """At the deadline, submit the latest code of a coding question for the candidate
    (`document`: the question's shared code document, with `text` and `language`).

    Submits the highest open part, as that is the one being worked on. Nothing is
    submitted (None) when the code is empty or over the size limit, or its language is
    not one the question offers; the code itself is kept in the document either way.
    """
    pending = _auto_submission_of(stage, question_id, document)
    if pending is None:
        return None
    pending.save()
    _announce_and_queue(pending, actor=None)
    return pending


def _auto_submission_of(stage: Stage, question_id: int, document: Any) -> Submission | None:
    """The submit the deadline (or Finish) would make of a question's code, unsaved; None
    when nothing would be submitted — see `submission_create_auto` —, when the code is
    still the untouched starter, or when this very code was already submitted for that
    part (its verdict is there; judging it again at the end would only say the same)."""
    question = stage_question_get(stage, question_id)
    code = getattr(document, "text", "") or ""
    if question is None or question.kind != QuestionKind.CODING or not code.strip():
        return None
    # A document the client never tagged with a language holds the default one's code.
    language = getattr(document, "language", "") or (question.languages or [""])[0]
    if language not in question.languages or len(code.encode("utf-8")) > settings.MAX_CODE_BYTES:
        logger.info("auto-submit of stage %s question %s skipped", stage.pk, question_id)
        return None
    if code.strip() == (question.starter or {}).get(language, "").strip():
        return None  # the room put the starter there; the candidate never touched it
    parts = Part.objects.filter(question=question).values_list("position", flat=True)
    open_parts = [n for n in parts if part_is_open(stage, question, n)]
    if not open_parts:
        return None
    part = max(open_parts)
    last_submit = (
        Submission.objects.filter(
            stage=stage, question=question, part=part, mode=Submission.Mode.SUBMIT
        )
        .order_by("-created_at", "-id")
        .first()
    )
    if last_submit is not None and (last_submit.code, last_submit.language) == (code, language):
        return None
    return Submission(
        stage=stage,
        question=question,
        part=part,
        author_id=stage.loop.candidate_id,
        language=language,
        code=code,
        mode=Submission.Mode.SUBMIT,
        auto=True,
        status=Submission.Status.QUEUED,
    )


def _code_documents(stage: Stage) -> list[tuple[int, DocumentState]]:
    return [
        (int(document.name.split(":", 1)[1]), document)
        for document in documents_of(stage, kind="code")
        if document.text.strip()
    ]


def stage_unsubmitted_code(*, stage: Stage, actor: AbstractBaseUser) -> list[Question]:
    """The coding questions whose latest code finishing now would submit for judging
    (what Finish asks the candidate to confirm); none unless the stage is live."""
    access_stage_clock(
        actor,
        stage,
        refusal=_("Only the candidate, the stage's coach or an admin finishes a stage."),
    )
    if stage.status != Stage.Status.LIVE:
        return []
    questions = []
    for question_id, document in _code_documents(stage):
        pending = _auto_submission_of(stage, question_id, document)
        if pending is not None:
            questions.append(pending.question)
    return questions


def stage_submit_latest_code(stage: Stage) -> list[Submission]:
    """When a stage ends — at its deadline or by Finish — submit the latest code of every
    coding question for judging, so nothing typed is lost."""
    submitted = []
    for question_id, document in _code_documents(stage):
        submission = submission_create_auto(stage=stage, question_id=question_id, document=document)
        if submission is not None:
            submitted.append(submission)
    return submitted
