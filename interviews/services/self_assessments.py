"""The candidate's self-assessment: their own level per rubric dimension, after the stage."""

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from interviews.access import access_stage_as_candidate
from interviews.models import SelfAssessment, Stage
from interviews.selectors.rubrics import rubric_for_stage

from .errors import InvalidInput, StateConflict


@transaction.atomic
def self_assessment_save(
    *, stage: Stage, candidate: AbstractBaseUser, scores: list[dict[str, Any]]
) -> SelfAssessment:
    """Create or replace the candidate's self-assessment of a finished stage. Dimensions
    must be the stage rubric's (without a rubric, any names go), each scored once, 1–4."""
    access_stage_as_candidate(
        candidate, stage, refusal=_("Only the stage's candidate assesses their own stage.")
    )
    if stage.status != Stage.Status.DONE:
        raise StateConflict(
            _("Assess yourself once the stage is finished."), code="stage_not_finished"
        )
    rubric = rubric_for_stage(stage)
    allowed = set(rubric.dimension_names) if rubric else None
    errors: dict[int, dict[str, list[str]]] = {}
    seen: set[str] = set()
    for index, score in enumerate(scores):
        name = score["dimension"]
        if allowed is not None and name not in allowed:
            errors[index] = {"dimension": [f'"{name}" is not a dimension of the rubric.']}
        elif name in seen:
            errors[index] = {"dimension": [f'"{name}" is assessed twice.']}
        seen.add(name)
    if errors:
        raise InvalidInput(
            _("The self-assessment is not valid."),
            errors={"scores": errors},
            code="self_assessment_invalid",
        )
    assessment, _created = SelfAssessment.objects.update_or_create(
        stage=stage,
        defaults={
            "scores": [
                {"dimension": s["dimension"], "level": s["level"], "comment": s.get("comment", "")}
                for s in scores
            ]
        },
    )
    return assessment
