"""Model answers: what the bank knows of a good answer to each of a stage's questions —
the follow-ups' coach notes ("what a strong answer covers"), the reference solution of a
coding question, the planted flaws of a design doc. The bank shows them only to coaches
while a stage runs; `interviews.access.access_model_answers` decides when the candidate
may read them (once the stage is done)."""

from __future__ import annotations

from typing import Any, TypedDict

from interviews import bank_cache
from interviews.bankfile.translations import Translation, child_translation, translation_of
from interviews.models import Question, Stage, StageQuestion


class Translated(TypedDict):
    """The language of an object's text, and its fields still in English."""

    language: str
    fallback_fields: list[str]


class StrongAnswer(Translated):
    follow_up: int
    prompt: str
    notes: str


class ModelFlaw(Translated):
    category: str
    lines: list[int]
    severity: str
    explanation: str


class ModelAnswer(Translated):
    question: int
    title: str
    kind: str
    strong_answers: list[StrongAnswer]
    reference: dict[str, str]
    complexity: str | None
    wrong_patterns: list[str]
    flaws: list[ModelFlaw]


def _strong_answer(owner: Translation, follow_up: Any) -> StrongAnswer:
    translation = child_translation(owner, "follow_ups", follow_up.position)
    return translation.stamp(
        {
            "follow_up": follow_up.position,
            "prompt": translation.text("prompt", follow_up.prompt),
            "notes": translation.text("notes", follow_up.coach_notes, key="model_answer"),
        }
    )


def _model_flaw(owner: Translation, flaw: Any) -> ModelFlaw:
    translation = child_translation(owner, "flaws", flaw.position)
    return translation.stamp(
        {
            "category": flaw.category,
            "lines": [flaw.line_start, flaw.line_end],
            "severity": flaw.severity,
            "explanation": translation.text("explanation", flaw.explanation),
        }
    )


def _model_answer(question: Question, structure: bank_cache.QuestionStructure) -> ModelAnswer:
    """In the language bank text is served in (`interviews.i18n.content_language`)."""
    translation = translation_of(question.i18n)
    answer: dict[str, Any] = {
        "question": question.pk,
        "title": translation.text("title", question.title),
        "kind": question.kind,
        "strong_answers": [
            _strong_answer(translation, f) for f in structure.follow_ups if f.coach_notes.strip()
        ],
        "reference": dict(question.reference or {}),
        # The bank format has no field for either yet; the page says so when they are empty.
        "complexity": None,
        "wrong_patterns": [],
        "flaws": [_model_flaw(translation, f) for f in structure.flaws],
    }
    return translation.stamp(answer)


def model_answers_of(stage: Stage) -> list[ModelAnswer]:
    """The stage's questions in order, each with its model answer (the caller has checked
    the viewer with `access.access_model_answers`)."""
    links = list(
        StageQuestion.objects.filter(stage=stage).select_related("question").order_by("position")
    )
    structures = bank_cache.question_structures({link.question_id for link in links})
    return [_model_answer(link.question, structures[link.question_id]) for link in links]
