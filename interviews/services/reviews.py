"""Design-doc review: the candidate's line comments and their score against the planted
flaws."""

from typing import TypedDict

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from interviews.models import PlantedFlaw, Question, ReviewComment, Stage, StageQuestion
from interviews.models.bank import FlawCategory, QuestionKind
from interviews.realtime.events import emit

from .errors import InvalidInput, StateConflict


def document_line_count(document: str) -> int:
    return len(document.splitlines())


def _review_question(stage: Stage, question: Question | None) -> Question:
    reviews = [
        link.question
        for link in StageQuestion.objects.filter(stage=stage, question__kind=QuestionKind.REVIEW)
        .select_related("question")
        .order_by("position")
    ]
    if question is None:
        if len(reviews) != 1:
            raise InvalidInput(
                errors={"question": ["This stage has no single design doc; name the question."]}
            )
        return reviews[0]
    if question not in reviews:
        raise InvalidInput(errors={"question": ["Not a design doc of this stage."]})
    return question


@transaction.atomic
def review_comment_create(
    *,
    stage: Stage,
    author: AbstractBaseUser,
    line_start: int,
    line_end: int,
    category: str,
    text: str,
    question: Question | None = None,
) -> ReviewComment:
    """Comment on lines `[line_start, line_end]` (1-based, inclusive) of the stage's doc."""
    stage = Stage.objects.select_for_update().get(pk=stage.pk)
    if stage.status != Stage.Status.LIVE:
        raise StateConflict("Comments can be added only while the stage is live.")
    question = _review_question(stage, question)
    if category not in FlawCategory.values:
        raise InvalidInput(errors={"category": [f'"{category}" is not a known category.']})
    lines = document_line_count(question.document)
    if line_start < 1 or line_end < line_start or line_end > lines:
        raise InvalidInput(
            errors={"lines": [f"Give [first, last] with 1 <= first <= last <= {lines}."]}
        )
    comment = ReviewComment.objects.create(
        stage=stage,
        question=question,
        author=author,
        line_start=line_start,
        line_end=line_end,
        category=category,
        text=text,
    )
    emit(
        stage,
        "review_comment",
        {
            "id": comment.pk,
            "question": question.pk,
            "lines": [line_start, line_end],
            "category": category,
            "text": text,
        },
        actor=author,
    )
    return comment


class FlawResult(TypedDict):
    question: int
    category: str
    lines: list[int]
    severity: str
    explanation: str
    comments: list[int]


class ReviewScore(TypedDict):
    recall: float
    precision: float
    comments: int
    matched: list[FlawResult]
    missed: list[FlawResult]


def comment_matches_flaw(comment: ReviewComment, flaw: PlantedFlaw) -> bool:
    """Same doc, same category, overlapping line ranges."""
    return (
        comment.question_id == flaw.question_id
        and comment.category == flaw.category
        and comment.line_start <= flaw.line_end
        and flaw.line_start <= comment.line_end
    )


def review_score(*, stage: Stage) -> ReviewScore:
    """Recall = planted flaws found / planted flaws; precision = comments that hit a flaw
    / comments. Either is 0.0 when its denominator is zero."""
    question_ids = StageQuestion.objects.filter(
        stage=stage, question__kind=QuestionKind.REVIEW
    ).values("question_id")
    flaws = list(
        PlantedFlaw.objects.filter(question_id__in=question_ids).order_by(
            "question_id", "line_start", "position"
        )
    )
    comments = list(ReviewComment.objects.filter(stage=stage).order_by("line_start", "id"))
    matched: list[FlawResult] = []
    missed: list[FlawResult] = []
    hitting: set[int] = set()
    for flaw in flaws:
        hits = [c.pk for c in comments if comment_matches_flaw(c, flaw)]
        hitting.update(hits)
        result: FlawResult = {
            "question": flaw.question_id,
            "category": flaw.category,
            "lines": [flaw.line_start, flaw.line_end],
            "severity": flaw.severity,
            "explanation": flaw.explanation,
            "comments": hits,
        }
        (matched if hits else missed).append(result)
    return {
        "recall": round(len(matched) / len(flaws), 4) if flaws else 0.0,
        "precision": round(len(hitting) / len(comments), 4) if comments else 0.0,
        "comments": len(comments),
        "matched": matched,
        "missed": missed,
    }
