"""Scorecards: the coach's rubric scores for a stage."""

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from interviews.access import access_stage_as_coach
from interviews.models import Scorecard, Stage
from interviews.realtime.events import emit
from interviews.selectors.rubrics import rubric_for_scorecard, rubric_for_stage

from .errors import InvalidInput, StateConflict


@transaction.atomic
def scorecard_save(
    *,
    stage: Stage,
    coach: AbstractBaseUser,
    scores: list[dict[str, Any]],
    summary: str,
    recommendation: str = "",
    private_notes: str = "",
    submit: bool = False,
) -> Scorecard:
    """Create or replace the stage's scorecard. Dimensions must be those of the rubric
    version it is scored on (the stage's, pinned when the loop started; a card saved
    before keeps its own); without a rubric any names go.

    A scorecard is a draft (the candidate sees nothing of it, its recommendation may be
    unset) until it is saved with `submit`, which needs a recommendation. A submitted one
    is changed only by submitting again, never turned back into a draft the candidate
    would stop seeing."""
    access_stage_as_coach(
        coach, stage, refusal=_("Only the stage's coach or an admin scores the stage.")
    )
    errors: dict[str, Any] = {}
    if recommendation and recommendation not in Scorecard.Recommendation.values:
        errors["recommendation"] = ["Use strong_no, no, yes or strong_yes."]
    elif submit and not recommendation:
        errors["recommendation"] = ["Choose a recommendation before submitting."]
    existing = Scorecard.objects.filter(stage=stage).select_related("stage").first()
    # A card keeps the rubric version it was first scored on; a new one takes the stage's.
    rubric = rubric_for_scorecard(existing) if existing else rubric_for_stage(stage)
    allowed = set(rubric.dimension_names) if rubric else None
    seen: set[str] = set()
    score_errors: dict[int, dict[str, list[str]]] = {}
    for index, score in enumerate(scores):
        name = score["dimension"]
        if allowed is not None and name not in allowed:
            score_errors[index] = {"dimension": [f'"{name}" is not a dimension of the rubric.']}
        elif name in seen:
            score_errors[index] = {"dimension": [f'"{name}" is scored twice.']}
        elif not 1 <= score["level"] <= 4:
            score_errors[index] = {"level": ["Use a level from 1 to 4."]}
        seen.add(name)
    if score_errors:
        errors["scores"] = score_errors
    if errors:
        raise InvalidInput(_("The scorecard is not valid."), errors=errors)

    stage = Stage.objects.select_for_update().get(pk=stage.pk)
    if not submit and Scorecard.objects.filter(stage=stage, draft=False).exists():
        raise StateConflict(
            _("This scorecard was submitted; submit it again to change it."),
            code="scorecard_submitted",
        )
    scorecard, _created = Scorecard.objects.update_or_create(
        stage=stage,
        defaults={
            "coach": coach,
            "scores": [
                {"dimension": s["dimension"], "level": s["level"], "comment": s.get("comment", "")}
                for s in scores
            ],
            "summary": summary,
            "recommendation": recommendation,
            "private_notes": private_notes,
            "draft": not submit,
            "rubric_version_id": (
                existing.rubric_version_id if existing else stage.rubric_version_id
            ),
        },
    )
    emit(
        stage,
        "scorecard.saved",
        {"id": scorecard.pk, "recommendation": recommendation or None, "submitted": submit},
        actor=coach,
        private=True,
    )
    return scorecard
