"""Loops: a candidate starting a run of a loop template."""

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from interviews.access import access_loop_start
from interviews.models import (
    Loop,
    LoopTemplate,
    Question,
    RubricVersion,
    Stage,
    StageQuestion,
    StageTemplate,
)
from interviews.models.bank import QuestionStatus

from .errors import InvalidInput
from .rubrics import rubric_version_current


def _latest_published(slugs: set[str]) -> dict[str, Question]:
    latest: dict[str, Question] = {}
    rows = (
        Question.objects.filter(slug__in=slugs, status=QuestionStatus.PUBLISHED)
        .select_related("rubric")
        .order_by("slug", "-version")
    )
    for question in rows:
        latest.setdefault(question.slug, question)
    return latest


def _rubric_version_pinned(
    stage_template: StageTemplate, latest: dict[str, Question], pinned: dict[int, RubricVersion]
) -> RubricVersion | None:
    """The version of the rubric the stage will be scored on (its template's, else its
    first question's), as it is now: later edits of the rubric leave this loop alone."""
    rubric = stage_template.rubric
    if rubric is None and stage_template.question_slugs:
        rubric = latest[stage_template.question_slugs[0]].rubric
    if rubric is None:
        return None
    if rubric.pk not in pinned:
        pinned[rubric.pk] = rubric_version_current(rubric)
    return pinned[rubric.pk]


@transaction.atomic
def loop_start(
    *, candidate: AbstractBaseUser, template: LoopTemplate, coached: bool = False
) -> Loop:
    """Start a candidate's loop: one stage per stage template, each holding the latest
    published version of every question slug the template names (so later bank edits
    never change a loop that is under way). The stage's rubric is its template's. In a
    `coached` loop every live round enters the coach queue now, still pending.
    """
    access_loop_start(candidate)
    if template.status != QuestionStatus.PUBLISHED:
        raise InvalidInput(errors={"template": [_("This loop template is not published.")]})
    stage_templates = list(template.stages.select_related("rubric").order_by("position"))
    if not stage_templates:
        raise InvalidInput(errors={"template": [_("This loop template has no stages.")]})
    wanted = {slug for st in stage_templates for slug in st.question_slugs}
    latest = _latest_published(wanted)
    missing = sorted(wanted - latest.keys())
    if missing:
        raise InvalidInput(
            errors={
                "template": [
                    _("No published version of question(s): %(slugs)s.")
                    % {"slugs": ", ".join(missing)}
                ]
            }
        )

    pinned: dict[int, RubricVersion] = {}
    loop = Loop.objects.create(
        candidate=candidate, template=template, title=template.title, coached=coached
    )
    stages = [
        Stage(
            loop=loop,
            position=index,
            kind=st.kind,
            title=st.title,
            minutes=st.minutes,
            rubric_id=st.rubric_id,
            rubric_version=_rubric_version_pinned(st, latest, pinned),
        )
        for index, st in enumerate(stage_templates, start=1)
    ]
    for stage in stages:
        stage.coach_requested = coached and stage.is_live_kind
    stages = Stage.objects.bulk_create(stages)
    links = []
    for stage, st in zip(stages, stage_templates, strict=True):
        seen: set[str] = set()
        for slug in st.question_slugs:
            if slug in seen:  # a template naming a slug twice still asks it once
                continue
            seen.add(slug)
            links.append(StageQuestion(stage=stage, question=latest[slug], position=len(seen)))
    StageQuestion.objects.bulk_create(links)
    return loop
