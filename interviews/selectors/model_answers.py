"""Model answers: what the bank knows of a good answer to each of a stage's questions —
the follow-ups' coach notes ("what a strong answer covers"), the reference solution of a
coding question, the planted flaws of a design doc. The bank shows them only to coaches
while a stage runs; `interviews.access.access_model_answers` decides when the candidate
may read them (once the stage is done)."""

from __future__ import annotations

from typing import Any, TypedDict

from interviews import bank_cache
from interviews.models import Question, Stage, StageQuestion


class StrongAnswer(TypedDict):
    follow_up: int
    prompt: str
    notes: str


class ModelAnswer(TypedDict):
    question: int
    title: str
    kind: str
    strong_answers: list[StrongAnswer]
    reference: dict[str, str]
    complexity: str | None
    wrong_patterns: list[str]
    flaws: list[dict[str, Any]]


def _model_answer(question: Question, structure: bank_cache.QuestionStructure) -> ModelAnswer:
    return {
        "question": question.pk,
        "title": question.title,
        "kind": question.kind,
        "strong_answers": [
            {"follow_up": f.position, "prompt": f.prompt, "notes": f.coach_notes}
            for f in structure.follow_ups
            if f.coach_notes.strip()
        ],
        "reference": dict(question.reference or {}),
        # The bank format has no field for either yet; the page says so when they are empty.
        "complexity": None,
        "wrong_patterns": [],
        "flaws": [
            {
                "category": f.category,
                "lines": [f.line_start, f.line_end],
                "severity": f.severity,
                "explanation": f.explanation,
            }
            for f in structure.flaws
        ],
    }


def model_answers_of(stage: Stage) -> list[ModelAnswer]:
    """The stage's questions in order, each with its model answer (the caller has checked
    the viewer with `access.access_model_answers`)."""
    links = list(
        StageQuestion.objects.filter(stage=stage).select_related("question").order_by("position")
    )
    structures = bank_cache.question_structures({link.question_id for link in links})
    return [_model_answer(link.question, structures[link.question_id]) for link in links]
