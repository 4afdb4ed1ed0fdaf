"""loop_start: one stage per stage template, each with the latest published version of
its questions, the template's rubric, and nothing written when it cannot start."""

import pytest

from interviews import models as m
from interviews.services.errors import InvalidInput, NotAllowed
from interviews.services.loops import loop_start
from tests import factories as f


@pytest.fixture
def template(db):
    rubric = f.RubricFactory(slug="design-rubric")
    template = f.LoopTemplateFactory(slug="mini", title="Mini loop")
    f.QuestionFactory(slug="scheduler", kind="coding", version=1, status="published")
    f.QuestionFactory(slug="scheduler", kind="coding", version=2, status="published")
    f.QuestionFactory(slug="scheduler", kind="coding", version=3, status="draft")
    f.QuestionFactory(slug="serving", kind="design", version=1, status="published")
    f.QuestionFactory(slug="why", kind="discussion", version=1, status="published")
    f.StageTemplateFactory(
        loop_template=template,
        position=1,
        kind="coding",
        title="Code",
        minutes=45,
        question_slugs=["scheduler"],
    )
    f.StageTemplateFactory(
        loop_template=template,
        position=2,
        kind="design",
        title="Design",
        minutes=60,
        question_slugs=["serving", "why", "serving"],
        rubric=rubric,
    )
    return template


def test_copies_stage_templates_with_latest_published_questions(template):
    candidate = f.UserFactory()
    loop = loop_start(candidate=candidate, template=template, coached=True)

    assert loop.candidate == candidate and loop.coached and loop.title == "Mini loop"
    coding, design = loop.stages.order_by("position")
    assert (coding.kind, coding.title, coding.minutes, coding.status) == (
        "coding",
        "Code",
        45,
        "pending",
    )
    assert [q.version for q in coding.questions.all()] == [2]  # v3 is a draft
    assert coding.rubric is None
    assert design.rubric.slug == "design-rubric"
    links = list(
        design.stage_questions.order_by("position").values_list("question__slug", "position")
    )
    assert links == [("serving", 1), ("why", 2)]  # a repeated slug is asked once
    assert m.StageEvent.objects.count() == 0


def test_later_bank_versions_do_not_change_a_started_loop(template):
    loop = loop_start(candidate=f.UserFactory(), template=template)
    f.QuestionFactory(slug="scheduler", kind="coding", version=4, status="published")
    assert loop.stages.get(position=1).questions.get().version == 2


def test_missing_published_question_refuses_and_writes_nothing(template):
    m.Question.objects.filter(slug="why").update(status="archived")
    with pytest.raises(InvalidInput) as error:
        loop_start(candidate=f.UserFactory(), template=template)
    assert "why" in str(error.value.errors["template"])
    assert m.Loop.objects.count() == m.Stage.objects.count() == 0


@pytest.mark.parametrize("factory", [f.CoachFactory, f.AdminFactory])
def test_only_candidates_start_loops(template, factory):
    with pytest.raises(NotAllowed):
        loop_start(candidate=factory(), template=template)
    assert m.Loop.objects.count() == 0


def test_unpublished_template_is_refused(template):
    template.status = "draft"
    template.save()
    with pytest.raises(InvalidInput):
        loop_start(candidate=f.UserFactory(), template=template)
