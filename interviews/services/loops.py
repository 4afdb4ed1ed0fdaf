"""Loops: a candidate starting a run of a loop template."""

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from interviews.access import access_loop_start
from interviews.models import Loop, LoopTemplate, Question, Stage, StageQuestion
from interviews.models.bank import QuestionStatus

from .errors import InvalidInput


def _latest_published(slugs: set[str]) -> dict[str, Question]:
    latest: dict[str, Question] = {}
    rows = Question.objects.filter(slug__in=slugs, status=QuestionStatus.PUBLISHED).order_by(
        "slug", "-version"
    )
    for question in rows:
        latest.setdefault(question.slug, question)
    return latest


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
        raise InvalidInput(errors={"template": ["This loop template is not published."]})
    stage_templates = list(template.stages.order_by("position"))
    if not stage_templates:
        raise InvalidInput(errors={"template": ["This loop template has no stages."]})
    wanted = {slug for st in stage_templates for slug in st.question_slugs}
    latest = _latest_published(wanted)
    missing = sorted(wanted - latest.keys())
    if missing:
        raise InvalidInput(
            errors={"template": [f"No published version of question(s): {', '.join(missing)}."]}
        )

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
