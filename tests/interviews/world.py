"""A small, complete practice world shared by the API, service and selector tests.

Secrets that must never reach a candidate are planted as sentinel strings, so a test can
search a whole response body for them.
"""

from dataclasses import dataclass

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from interviews import models as m
from interviews.services.loops import loop_start
from interviews.services.notes import coach_note_create
from interviews.services.rubrics import rubric_version_current
from interviews.services.stages import stage_claim, stage_start
from tests import factories as f

HIDDEN_INPUT = "SENTINEL-HIDDEN-INPUT"
HIDDEN_OUTPUT = "SENTINEL-HIDDEN-OUTPUT"
HIDDEN_RESULT = "SENTINEL-HIDDEN-RESULT"
REFERENCE = "SENTINEL-REFERENCE"
FLAW_KEY = "SENTINEL-FLAW-KEY"
FOLLOW_UP_COACH_NOTES = "SENTINEL-FOLLOWUP-COACHNOTES"
PRIVATE_NOTE = "SENTINEL-PRIVATE-NOTE"
SCORECARD_PRIVATE = "SENTINEL-SCORECARD-PRIVATE"
LOCKED_PART = "SENTINEL-LOCKED-PART"

#: Never in any candidate response.
CANDIDATE_SECRETS = [
    HIDDEN_INPUT,
    HIDDEN_OUTPUT,
    HIDDEN_RESULT,
    REFERENCE,
    FLAW_KEY,
    FOLLOW_UP_COACH_NOTES,
    PRIVATE_NOTE,
    SCORECARD_PRIVATE,
    LOCKED_PART,
]

ROLES = ["anonymous", "other", "owner", "coach", "assigned", "admin"]

DOCUMENT = "\n".join(f"line {n}: the gateway forwards requests" for n in range(1, 31)) + "\n"


@dataclass
class World:
    owner: object
    other: object
    coach: object
    assigned: object
    admin: object
    rubric: m.Rubric
    coding_q: m.Question
    review_q: m.Question
    discussion_q: m.Question
    unlock_follow_up: m.FollowUp
    plain_follow_up: m.FollowUp
    template: m.LoopTemplate
    loop: m.Loop
    coding: m.Stage
    review: m.Stage
    values: m.Stage
    challenge: m.Stage
    other_loop: m.Loop
    submission: m.Submission

    def user(self, role: str):
        return None if role == "anonymous" else getattr(self, role)

    def refresh(self) -> None:
        for name in ("coding", "review", "values", "challenge"):
            getattr(self, name).refresh_from_db()


def build_coding_question(slug: str = "scheduler", **kwargs) -> m.Question:
    question = f.CodingQuestionFactory(
        slug=slug,
        languages=["python", "javascript"],
        reference={"python": f"# {REFERENCE}\nprint(3)\n"},
        **kwargs,
    )
    part1 = f.PartFactory(question=question, position=1, title="Fixed batches", prompt="Batch.")
    f.TestCaseFactory(part=part1, visibility="sample", position=0, input="1 2\n", output="3\n")
    f.TestCaseFactory(
        part=part1, visibility="hidden", position=0, input=HIDDEN_INPUT, output=HIDDEN_OUTPUT
    )
    part2 = f.PartFactory(question=question, position=2, title="K at once", prompt=LOCKED_PART)
    f.TestCaseFactory(part=part2, visibility="sample", position=0, input=LOCKED_PART, output="x")
    f.TestCaseFactory(part=part2, visibility="hidden", position=0, input=HIDDEN_INPUT, output="y")
    part3 = f.PartFactory(question=question, position=3, title="Open extra", prompt="Stats.")
    f.TestCaseFactory(part=part3, visibility="hidden", position=0, input=HIDDEN_INPUT, output="z")
    return question


def build_world() -> World:
    owner = f.UserFactory(username="owner")
    other = f.UserFactory(username="other")
    coach = f.CoachFactory(username="coach-free")
    assigned = f.CoachFactory(username="coach-assigned")
    admin = f.AdminFactory(username="admin")

    rubric = f.RubricFactory(slug="coding-default", dimensions=[])
    f.DimensionFactory(rubric=rubric, position=1, name="Problem solving")
    f.DimensionFactory(rubric=rubric, position=2, name="Communication")

    coding_q = build_coding_question(rubric=rubric)
    unlock_follow_up = f.FollowUpFactory(
        question=coding_q,
        position=1,
        prompt="Now at most K requests may run at once.",
        unlocks_part=2,
        coach_notes=FOLLOW_UP_COACH_NOTES,
    )
    plain_follow_up = f.FollowUpFactory(
        question=coding_q,
        position=2,
        prompt="What is the complexity?",
        unlocks_part=None,
        coach_notes=FOLLOW_UP_COACH_NOTES,
    )
    review_q = f.QuestionFactory(slug="doc-review", kind="review", document=DOCUMENT)
    f.PlantedFlawFactory(
        question=review_q,
        position=1,
        category="spof",
        line_start=3,
        line_end=5,
        explanation=f"{FLAW_KEY} the router is a single point of failure",
    )
    f.PlantedFlawFactory(
        question=review_q,
        position=2,
        category="timeouts",
        line_start=10,
        line_end=12,
        explanation=f"{FLAW_KEY} synchronous call without timeout",
    )
    discussion_q = f.QuestionFactory(slug="why-this-lab", kind="discussion")

    template = f.LoopTemplateFactory(slug="ai-lab", title="AI-lab loop")
    f.StageTemplateFactory(
        loop_template=template,
        position=1,
        kind="coding",
        title="Coding",
        question_slugs=["scheduler"],
        rubric=rubric,
    )
    f.StageTemplateFactory(
        loop_template=template,
        position=2,
        kind="review",
        title="Review",
        question_slugs=["doc-review"],
    )
    f.StageTemplateFactory(
        loop_template=template,
        position=3,
        kind="values",
        title="Values",
        question_slugs=["why-this-lab"],
    )
    f.StageTemplateFactory(
        loop_template=template,
        position=4,
        kind="challenge",
        title="Challenge",
        question_slugs=["scheduler"],
    )

    loop = loop_start(candidate=owner, template=template, coached=True)
    coding, review, values, challenge = list(loop.stages.order_by("position"))
    stage_claim(stage=coding, coach=assigned)  # claimed while pending, then started
    coding = stage_start(stage=coding, actor=owner)
    m.Stage.objects.filter(pk=review.pk).update(coach_requested=True, coach=assigned)
    m.Stage.objects.filter(pk=values.pk).update(coach_requested=True)
    coach_note_create(stage=coding, author=assigned, text=PRIVATE_NOTE)

    submission = m.Submission.objects.create(
        stage=coding,
        question=coding_q,
        part=1,
        author=owner,
        language="python",
        code="print(3)\n",
        mode="run",
        status="done",
        verdict="wrong_answer",
        passed=1,
        total=2,
    )
    m.TestResult.objects.create(
        submission=submission,
        index=0,
        hidden=False,
        verdict="accepted",
        input="1 2\n",
        expected="3\n",
        output="3\n",
    )
    m.TestResult.objects.create(
        submission=submission,
        index=1,
        hidden=True,
        verdict="wrong_answer",
        input=HIDDEN_INPUT,
        expected=HIDDEN_OUTPUT,
        output=HIDDEN_RESULT,
        stderr=HIDDEN_RESULT,
    )
    other_loop = loop_start(candidate=other, template=template, coached=False)

    world = World(
        owner=owner,
        other=other,
        coach=coach,
        assigned=assigned,
        admin=admin,
        rubric=rubric,
        coding_q=coding_q,
        review_q=review_q,
        discussion_q=discussion_q,
        unlock_follow_up=unlock_follow_up,
        plain_follow_up=plain_follow_up,
        template=template,
        loop=loop,
        coding=coding,
        review=review,
        values=values,
        challenge=challenge,
        other_loop=other_loop,
        submission=submission,
    )
    world.refresh()
    return world


def stages_repinned(world: World) -> None:
    """For tests that shape the world's rubric after its loops started: pin their stages
    to the rubric as it is now, as if the loops had started after the edit (a stage keeps
    the rubric version it started with; see `selectors.rubrics`)."""
    version = rubric_version_current(world.rubric)
    m.Stage.objects.filter(rubric_version__rubric=world.rubric).update(rubric_version=version)
    world.refresh()


def client_for(user) -> APIClient:
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {f.api_token_for(user)}")
    return client


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Throttle history lives in the cache; ids repeat between tests."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def world(db) -> World:
    return build_world()


@pytest.fixture
def as_user():
    return client_for
