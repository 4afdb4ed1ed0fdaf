"""Services check their actor themselves (interviews/access.py), whoever calls them: each
service is called directly, not through a view, by every kind of caller, and refuses the
ones the contract refuses — a candidate of another loop, a coach not assigned to the
stage, an assigned coach where only the candidate acts, anonymous — writing nothing.
The view-level table is tests/interviews/api/test_authorisation_matrix.py."""

import base64
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import AnonymousUser
from pycrdt import Doc, Map, Text

from interviews import access
from interviews.models import ReviewComment, Stage, StageEvent
from interviews.selectors.access import stages_visible_to
from interviews.services import documents, live
from interviews.services.answers import answer_save
from interviews.services.errors import DomainError, NotAllowed, NotFound, StateConflict
from interviews.services.follow_ups import stage_push_follow_up
from interviews.services.loops import loop_start
from interviews.services.notes import coach_note_create
from interviews.services.reviews import (
    review_comment_create,
    review_match_override_clear,
    review_match_override_set,
)
from interviews.services.scorecards import scorecard_save
from interviews.services.stages import stage_claim, stage_finish, stage_start
from interviews.services.submissions import submission_create
from tests.interviews.world import ROLES, World

pytestmark = pytest.mark.django_db

OK = None
CANDIDATE_ONLY = (NotAllowed, NotAllowed, OK, NotAllowed, NotAllowed, NotAllowed)
COACH_ONLY = (NotAllowed, NotAllowed, NotAllowed, NotAllowed, OK, OK)
IN_THE_ROOM = (NotFound, NotFound, OK, NotFound, OK, OK)


def _set(stage: Stage, **values) -> Stage:
    Stage.objects.filter(pk=stage.pk).update(**values)
    stage.refresh_from_db()
    return stage


def _review_live(w: World) -> Stage:
    _set(w.coding, status="done")
    return _set(w.review, status="live")


def _review_comment(w: World) -> ReviewComment:
    review = _review_live(w)
    return review_comment_create(
        stage=review, author=w.owner, line_start=3, line_end=4, category="spof", text="one"
    )


def _yjs_update(code: str) -> str:
    doc = Doc()
    doc.get("code", type=Text).insert(0, code)
    doc.get("meta", type=Map)["language"] = "python"
    return base64.b64encode(doc.get_update()).decode()


def _actor(w: World, role: str):
    return AnonymousUser() if role == "anonymous" else w.user(role)


@dataclass
class Case:
    name: str
    call: Callable[[World, object], object]
    expected: tuple  # in ROLES order: the error class refused with, or OK


CASES = [
    Case(
        "stage_start",
        lambda w, a: stage_start(stage=_set(w.coding, status="pending"), actor=a),
        (NotAllowed, NotAllowed, OK, NotAllowed, OK, OK),
    ),
    Case(
        "stage_finish",
        lambda w, a: stage_finish(stage=w.coding, actor=a),
        (NotAllowed, NotAllowed, OK, NotAllowed, OK, OK),
    ),
    Case(
        "stage_claim",
        lambda w, a: stage_claim(stage=w.values, coach=a),
        (NotAllowed, NotAllowed, NotAllowed, OK, OK, OK),
    ),
    Case(
        "loop_start",
        lambda w, a: loop_start(candidate=a, template=w.template),
        (NotAllowed, OK, OK, NotAllowed, NotAllowed, NotAllowed),
    ),
    Case(
        "answer_save",
        lambda w, a: answer_save(stage=w.coding, actor=a, question=w.coding_q, text="plan"),
        CANDIDATE_ONLY,
    ),
    Case(
        "review_comment_create",
        lambda w, a: review_comment_create(
            stage=_review_live(w), author=a, line_start=3, line_end=4, category="spof", text="x"
        ),
        CANDIDATE_ONLY,
    ),
    Case(
        "document_update_apply",
        lambda w, a: documents.document_update_apply(
            stage=w.coding, actor=a, name=f"code:{w.coding_q.pk}", update_b64=_yjs_update("x")
        ),
        CANDIDATE_ONLY,
    ),
    Case(
        "document_update_apply (whiteboard)",
        lambda w, a: documents.document_update_apply(
            stage=w.coding, actor=a, name=f"scene:{w.coding_q.pk}", update_b64=_yjs_update("x")
        ),
        (NotAllowed, NotAllowed, OK, NotAllowed, OK, OK),
    ),
    Case(
        "integrity_record",
        lambda w, a: live.integrity_record(stage=w.coding, actor=a, kind="blur", amount=900),
        CANDIDATE_ONLY,
    ),
    Case(
        "submission_create",
        lambda w, a: submission_create(
            stage=w.coding,
            author=a,
            question_id=w.coding_q.pk,
            part=1,
            language="python",
            code="print(3)\n",
            mode="run",
        ),
        CANDIDATE_ONLY,
    ),
    Case(
        "chat_post",
        lambda w, a: live.chat_post(stage=w.coding, author=a, text="hello"),
        IN_THE_ROOM,
    ),
    Case(
        "presence_change",
        lambda w, a: live.presence_change(stage=w.coding, user=a, role="candidate", joined=True),
        IN_THE_ROOM,
    ),
    Case(
        "coach_note_create",
        lambda w, a: coach_note_create(stage=w.coding, author=a, text="sharp"),
        COACH_ONLY,
    ),
    Case(
        "scorecard_save",
        lambda w, a: scorecard_save(
            stage=w.coding, coach=a, scores=[], summary="ok", recommendation="yes"
        ),
        COACH_ONLY,
    ),
    Case(
        "stage_push_follow_up",
        lambda w, a: stage_push_follow_up(stage=w.coding, actor=a, follow_up=w.plain_follow_up),
        COACH_ONLY,
    ),
    Case(
        "stage_timer_control",
        lambda w, a: live.stage_timer_control(stage=w.coding, actor=a, action="pause"),
        COACH_ONLY,
    ),
    Case(
        "review_match_override_set",
        lambda w, a: review_match_override_set(
            stage=w.review, coach=a, comment_id=_review_comment(w).pk, flaw_id=None
        ),
        COACH_ONLY,
    ),
    Case(
        "review_match_override_clear",
        lambda w, a: review_match_override_clear(
            stage=w.review, coach=a, comment_id=_review_comment(w).pk
        ),
        COACH_ONLY,
    ),
    # Reads the views serve straight from selectors, checked here before they read.
    Case(
        "access_review_score",
        lambda w, a: access.access_review_score(a, _review_live(w)),
        (NotFound, NotFound, StateConflict, NotFound, OK, OK),
    ),
    Case(
        "access_scorecard",
        lambda w, a: access.access_scorecard(a, w.coding),
        (NotFound, NotFound, StateConflict, NotFound, OK, OK),
    ),
    Case(
        "access_deep_dive_feedback",
        lambda w, a: access.access_deep_dive_feedback(a, _set(w.review, kind="deep_dive")),
        (NotFound, NotFound, StateConflict, NotFound, OK, OK),
    ),
    Case(
        "access_coach_queue",
        lambda w, a: access.access_coach_queue(a),
        (NotAllowed, NotAllowed, NotAllowed, OK, OK, OK),
    ),
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_each_service_refuses_the_roles_the_contract_refuses(case: Case, role: str, world: World):
    actor = _actor(world, role)
    expected = case.expected[ROLES.index(role)]
    if expected is OK:
        case.call(world, actor)
        return
    events_before = StageEvent.objects.count()
    with pytest.raises(DomainError) as refused:
        case.call(world, actor)
    assert type(refused.value) is expected, (case.name, role, refused.value)
    if expected is not StateConflict:  # an access refusal, not a "not yet"
        assert refused.value.code in ("not_allowed", "not_found")
    # Refused means nothing happened (the fixtures' own comment aside).
    setup_events = 1 if case.name.startswith("review_match") else 0
    assert StageEvent.objects.count() == events_before + setup_events


def test_the_scripted_interviewer_needs_no_actor(world: World):
    """actor=None is the system (beat's timed follow-ups): no person to check."""
    pushed = stage_push_follow_up(stage=world.coding, actor=None, follow_up=world.plain_follow_up)
    assert pushed.pushed_by is None


def test_leaving_the_room_needs_no_access(world: World):
    """A socket closed because its access went still records that it left."""
    event = live.presence_change(stage=world.coding, user=world.coach, role="coach", joined=False)
    assert event.payload["state"] == "left"


@pytest.mark.parametrize("role", ROLES)
def test_the_row_check_agrees_with_the_visibility_selector(role: str, world: World):
    actor = _actor(world, role)
    stages = Stage.objects.select_related("loop")
    visible = set(stages_visible_to(actor).values_list("pk", flat=True))
    assert {s.pk for s in stages if access.stage_is_visible_to(actor, s)} == visible
    assert len(visible) < stages.count() or role == "admin"
