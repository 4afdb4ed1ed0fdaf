"""Stage detail as plain data: the page every candidate and coach reloads, at 100 req/s.

The serializers (`StageCandidateSerializer`, `StageCoachSerializer`) define this
response and its OpenAPI schema; building it through them cost most of a request's CPU
(nested DRF fields built per object, a dozen model instances, translations applied
field by field). Here the same JSON is assembled from two kinds of pieces:

- **bank pieces**, immutable for a question version in a language as long as the bank
  does not change: each question's serialized payload (every part, with sample tests;
  for coaches also the bank follow-ups and planted flaws) and each rubric's. They are
  built by those same serializers on first use and kept in this process, keyed by
  (question or rubric, language, audience, bank generation). The audience is part of
  the key: a candidate's piece is built by the candidate's serializer, so it never holds
  a coach's field, and no candidate is ever served a piece built for a coach;
- **the stage's state**, read per request (`selectors.stages.stage_detail_rows`): the
  stage row, its question ids, pushed follow-ups and answers. What a viewer may see
  that depends on it — which parts are unlocked, which follow-ups were pushed — is
  applied to the pieces here, per request, as `stage_detail_for` does.

Any bank write moves the bank generation on (`interviews.bank_cache`), so the next
request builds fresh pieces: a bank edit shows at once. Without a reachable cache (no
generation) nothing is kept. `tests/interviews/api/test_stage_detail_fast.py` pins that
this output equals the serializers' for every stage kind, language, state and viewer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from rest_framework import serializers

from interviews import bank_cache
from interviews.bankfile.translations import Translation, child_translation, translation_of
from interviews.i18n import DEFAULT_LANGUAGE, content_language
from interviews.models import FollowUp, Question, Stage
from interviews.selectors.rubrics import scoring_rubric_live, scoring_rubric_of_version
from interviews.selectors.stages import (
    StageDetailRows,
    open_part_numbers,
    scripted_interviewer_active,
    time_remaining_ms,
)

from .practice_serializers import (
    RubricOutSerializer,
    StageQuestionCandidateSerializer,
    StageQuestionCoachSerializer,
)


@dataclass(frozen=True)
class QuestionPiece:
    """One question version as one audience reads it in one language."""

    #: The serializer's output with every part (coach: `locked` and the follow-ups'
    #: `pushed` still to set per stage). Shared between requests: never mutated.
    payload: Mapping[str, Any]
    part_numbers: tuple[int, ...]
    #: The part each bank follow-up unlocks (or None), for `open_part_numbers`.
    unlocks: tuple[int | None, ...]
    #: Ids of the `after_answer` follow-ups ("Next question" asks them).
    after_answer: frozenset[int]
    #: Per bank follow-up id: its translation block and the requested language, for
    #: the text of a pushed one.
    follow_up_blocks: Mapping[int, tuple[Mapping[str, Any], str]]
    rubric_id: int | None


_pieces = bank_cache.process_memo


def pieces_clear() -> None:
    """Forget every piece (tests)."""
    _pieces.clear()


# --- building the pieces (on a miss: the serializers, the bank cache) ----------------------


def _question_pieces(
    question_ids: list[int], language: str, coach_view: bool, generation: int | None
) -> dict[int, QuestionPiece]:
    found: dict[int, QuestionPiece] = {}
    for pk in question_ids:
        piece = _pieces.get(generation, ("question", pk, language, coach_view))
        if piece is not None:
            found[pk] = piece
    missing = [pk for pk in dict.fromkeys(question_ids) if pk not in found]
    if missing:
        structures = bank_cache.question_structures(set(missing))
        serializer_class = (
            StageQuestionCoachSerializer if coach_view else StageQuestionCandidateSerializer
        )
        for question in Question.objects.filter(pk__in=missing):
            piece = _question_piece(question, structures[question.pk], serializer_class)
            _pieces.put(generation, ("question", question.pk, language, coach_view), piece)
            found[question.pk] = piece
    return found


def _question_piece(
    question: Question, structure: bank_cache.QuestionStructure, serializer_class: type
) -> QuestionPiece:
    for part in structure.parts:
        part.locked = False  # set per stage
    for follow_up in structure.follow_ups:
        follow_up.pushed = False  # set per stage
    question.part_list = structure.parts
    question.follow_up_list = structure.follow_ups
    question.flaw_list = structure.flaws
    payload = serializer_class(question).data
    translation = translation_of(question.i18n)
    return QuestionPiece(
        payload=payload,
        part_numbers=tuple(part.position for part in structure.parts),
        unlocks=tuple(follow_up.unlocks_part for follow_up in structure.follow_ups),
        after_answer=frozenset(
            follow_up.pk
            for follow_up in structure.follow_ups
            if follow_up.trigger == FollowUp.Trigger.AFTER_ANSWER
        ),
        follow_up_blocks={
            follow_up.pk: (
                translation.item("follow_ups", follow_up.position),
                translation.requested,
            )
            for follow_up in structure.follow_ups
        },
        rubric_id=question.rubric_id,
    )


def _rubric_payload(
    stage: Stage, first: QuestionPiece | None, language: str, generation: int | None
) -> dict[str, Any] | None:
    """As `selectors.stages._scoring_rubric`: the pinned version, else (a stage from
    before versions) the stage's or its first question's rubric as it is now."""
    if stage.rubric_version_id:
        key = ("rubric-version", stage.rubric_version_id, language)
    else:
        rubric_id = stage.rubric_id or (first.rubric_id if first else None)
        if not rubric_id:
            return None
        key = ("rubric", rubric_id, language)
    payload = _pieces.get(generation, key)
    if payload is None:
        if key[0] == "rubric-version":
            version = bank_cache.rubric_versions({key[1]})[key[1]]
            rubric = scoring_rubric_of_version(version)
        else:
            live = bank_cache.rubrics_with_dimensions({key[1]}).get(key[1])
            if live is None:
                return None
            rubric = scoring_rubric_live(live)
        payload = RubricOutSerializer(rubric).data
        _pieces.put(generation, key, payload)
    return payload


# --- the response ----------------------------------------------------------------------------

_datetime = serializers.DateTimeField()


def _when(value: datetime | None) -> str | None:
    """As the serializers' DateTimeField writes it."""
    return None if value is None else _datetime.to_representation(value)


def stage_detail_data(rows: StageDetailRows, *, now: datetime) -> dict[str, Any]:
    """The stage detail response: what `StageCandidateSerializer` (or, for the stage's
    coach and admins, `StageCoachSerializer`) gives for `stage_detail_for`'s stage."""
    stage = rows.stage
    coach_view = rows.viewer_is_coach
    language = content_language()
    generation = rows.generation

    shown = coach_view or stage.status != Stage.Status.PENDING
    pieces = _question_pieces(rows.question_ids, language, coach_view, generation)
    questions: list[dict[str, Any]] = []
    scripted_left = 0
    if shown:
        pushed_ids = {p["follow_up_id"] for p in rows.pushed if p["follow_up_id"]}
        if stage.coach_id is None and scripted_interviewer_active(stage):
            scripted_left = sum(
                len(pieces[pk].after_answer - pushed_ids) for pk in dict.fromkeys(pieces)
            )
        for pk in rows.question_ids:
            piece = pieces[pk]
            open_numbers = open_part_numbers(
                piece.part_numbers,
                piece.unlocks,
                [
                    p["unlocks_part"]
                    for p in rows.pushed
                    if p["question_id"] == pk and p["unlocks_part"]
                ],
            )
            payload = piece.payload
            if coach_view:
                parts = [
                    {**part, "locked": part["number"] not in open_numbers}
                    for part in payload["parts"]
                ]
                follow_ups = [
                    {**follow_up, "pushed": follow_up["id"] in pushed_ids}
                    for follow_up in payload["follow_ups"]
                ]
                questions.append({**payload, "parts": parts, "follow_ups": follow_ups})
            else:
                parts = [part for part in payload["parts"] if part["number"] in open_numbers]
                questions.append({**payload, "parts": parts})

    title = child_translation(translation_of(stage.template_i18n), "stages", stage.position)
    out: dict[str, Any] = {
        "id": stage.pk,
        "loop": stage.loop_id,
        "position": stage.position,
        "kind": stage.kind,
        "title": title.text("title", stage.title),
        "minutes": stage.minutes,
        "status": stage.status,
        "started_at": _when(stage.started_at),
        "deadline": _when(stage.deadline),
        "finished_at": _when(stage.finished_at),
        "time_remaining_ms": time_remaining_ms(stage, now),
        "coach_requested": stage.coach_requested,
        "coach": stage.coach_username,
        "scorecard_submitted": stage.scorecard_submitted,
        "language": None,
        "fallback_fields": None,
    }
    title.stamp(out)
    first = pieces.get(rows.question_ids[0]) if rows.question_ids else None
    out.update(
        server_time=now.isoformat(),
        coached=stage.loop.coached,
        candidate=stage.candidate_username,
        rubric=_rubric_payload(stage, first, language, generation),
        questions=questions,
        follow_ups=[_pushed(p, pieces if shown else {}) for p in rows.pushed],
        answers=[
            {
                "id": a["id"],
                "question": a["question_id"],
                "text": a["text"],
                "notes": a["notes"],
                "scene": a["scene"],
                "updated_at": _when(a["updated_at"]),
            }
            for a in rows.answers
        ],
        scripted_follow_ups_left=scripted_left,
    )
    return out


def _pushed(row: dict[str, Any], pieces: Mapping[int, QuestionPiece]) -> dict[str, Any]:
    """A pushed follow-up; a bank one's text in the request's language (only while the
    viewer is shown the stage's questions, as `pushed_follow_ups_translate`)."""
    piece = pieces.get(row["question_id"]) if row["question_id"] else None
    known = piece.follow_up_blocks.get(row["follow_up_id"]) if piece else None
    translation = Translation(*known) if known else Translation(None, DEFAULT_LANGUAGE)
    out = {
        "id": row["id"],
        "text": translation.text("text", row["text"], key="prompt"),
        "question": row["question_id"],
        "unlocks_part": row["unlocks_part"],
        "pushed_by": row["pushed_by__username"],
        "created_at": _when(row["created_at"]),
        "language": None,
        "fallback_fields": None,
    }
    return translation.stamp(out)
