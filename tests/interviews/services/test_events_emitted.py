"""Each action appends exactly its events to the stage log, with gap-free sequence
numbers; private events are marked private.

zulip's `verify_action` (zerver/tests/test_events.py) is the model: every action runs with
its broadcasts captured, each event it logs must match its declaration in
`interviews/realtime/event_types.py` with exactly the declared keys, what reaches the
channel group must be exactly what was logged, and every declared type is verified by at
least one action here.
"""

import base64
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from pycrdt import Doc, Text

from interviews import models as m
from interviews.judging import submissions as judging
from interviews.realtime import event_types
from interviews.realtime.event_types import EventSchemaError, check_server_message
from interviews.realtime.events import emit, event_message, stage_group
from interviews.services import live
from interviews.services.answers import answer_save
from interviews.services.documents import document_update_apply
from interviews.services.follow_ups import stage_push_follow_up
from interviews.services.notes import coach_note_create
from interviews.services.recordings import recording_consent, recording_propose, recording_stop
from interviews.services.reviews import (
    review_comment_create,
    review_comment_delete,
    review_comment_update,
    review_match_override_clear,
    review_match_override_set,
)
from interviews.services.scorecards import scorecard_save
from interviews.services.stages import stage_claim, stage_finish, stage_release, stage_start
from interviews.services.submissions import submission_create
from sandbox import JobResult
from sandbox import TestResult as SandboxTestResult


@pytest.fixture(autouse=True)
def _no_judging(monkeypatch):
    monkeypatch.setattr("interviews.services.submissions.queue_judging", lambda pk, **_: None)


def new_events(stage, after):
    return list(
        m.StageEvent.objects.filter(stage=stage, seq__gt=after)
        .order_by("seq")
        .values_list("type", "private", "payload")
    )


def last_seq(stage):
    return m.Stage.objects.get(pk=stage.pk).last_seq


@pytest.fixture
def verify_action(monkeypatch, django_capture_on_commit_callbacks):
    """Run `action`, then return the events it logged in their wire form, after checking
    each against its declaration and that the broadcasts were exactly those events."""
    sent: list[tuple[str, dict]] = []
    monkeypatch.setattr(
        "interviews.realtime.events.group_send_soon",
        lambda group, message: sent.append((group, message)),
    )

    def verify(stage: m.Stage, action: Callable[[], Any]) -> list[dict]:
        before = last_seq(stage)
        sent.clear()
        with django_capture_on_commit_callbacks(execute=True):
            action()
        logged = m.StageEvent.objects.filter(stage=stage, seq__gt=before).order_by("seq")
        wire = [event_message(event) for event in logged.select_related("actor")]
        for message in wire:
            check_server_message(message)
        group = stage_group(stage.pk)
        assert sent == [(group, {"type": "stage.event", "event": message}) for message in wire]
        assert [message["seq"] for message in wire] == list(
            range(before + 1, before + 1 + len(wire))
        )
        assert last_seq(stage) == before + len(wire)
        return wire

    return verify


def _yjs_update(text: str) -> str:
    doc = Doc()
    doc.get("code", type=Text).insert(0, text)
    return base64.b64encode(doc.get_update()).decode()


def _judged(monkeypatch, w, verdict: str = "accepted"):
    """A submit of part 1 judged by a stand-in sandbox (the real one: tests/integration)."""
    submission = submission_create(
        stage=w.coding,
        author=w.owner,
        question_id=w.coding_q.pk,
        part=1,
        language="python",
        code="print(3)",
        mode="submit",
    )
    monkeypatch.setattr(
        judging,
        "run_tests",
        lambda job, tests, **options: JobResult(
            verdict=verdict,
            tests=[SandboxTestResult(index=i, verdict=verdict) for i in range(len(tests))],
        ),
    )
    return submission


def _comment(w) -> m.ReviewComment:
    return review_comment_create(
        stage=w.review, author=w.owner, line_start=3, line_end=4, category="spof", text="x"
    )


def _both_in_the_room(w) -> None:
    for user, role in ((w.owner, "candidate"), (w.assigned, "coach")):
        live.presence_change(stage=w.coding, user=user, role=role, joined=True)


def _proposed(w) -> None:
    _both_in_the_room(w)
    w.recording = recording_propose(stage=w.coding, actor=w.assigned)


def _to_review(w) -> None:
    stage_finish(stage=w.coding, actor=w.owner)
    stage_start(stage=w.review, actor=w.owner)


@dataclass
class Case:
    name: str
    action: Callable[[Any, Any], Any]
    #: (type, private, values the payload must hold) per event, in order.
    expected: list[tuple[str, bool, dict]]
    stage: str = "coding"
    setup: Callable[[Any, Any], Any] = field(default=lambda w, mp: None)


CASES = [
    Case(
        "answer",
        lambda w, mp: answer_save(stage=w.coding, actor=w.owner, question=w.coding_q, text="plan"),
        [("answer.saved", False, {"fields": ["text"]})],
    ),
    Case(
        "follow-up",
        lambda w, mp: stage_push_follow_up(
            stage=w.coding, actor=w.assigned, follow_up=w.unlock_follow_up
        ),
        [
            (
                "follow_up",
                False,
                {"unlocks_part": 2, "text": "Now at most K requests may run at once."},
            )
        ],
    ),
    Case(
        "free-text follow-up",
        lambda w, mp: stage_push_follow_up(stage=w.coding, actor=w.assigned, text="go on"),
        [("follow_up", False, {"text": "go on", "question": None, "unlocks_part": None})],
    ),
    Case(
        "note",
        lambda w, mp: coach_note_create(stage=w.coding, author=w.assigned, text="hmm"),
        [("note", True, {"text": "hmm"})],
    ),
    Case(
        "scorecard",
        lambda w, mp: scorecard_save(
            stage=w.coding, coach=w.assigned, scores=[], summary="", recommendation="no"
        ),
        [("scorecard.saved", True, {"recommendation": "no"})],
    ),
    Case(
        "submission",
        lambda w, mp: submission_create(
            stage=w.coding,
            author=w.owner,
            question_id=w.coding_q.pk,
            part=1,
            language="python",
            code="print(1)",
            mode="submit",
        ),
        [
            (
                "submission.status",
                False,
                {"status": "queued", "part": 1, "mode": "submit", "message": None},
            )
        ],
    ),
    Case(
        "submission judged",
        lambda w, mp: judging.submission_judge(w.judged.pk),
        [
            ("submission.status", False, {"status": "running", "verdict": ""}),
            ("submission.status", False, {"status": "done", "verdict": "accepted", "total": 1}),
        ],
        setup=lambda w, mp: setattr(w, "judged", _judged(mp, w)),
    ),
    Case(
        "submission deferred",
        lambda w, mp: judging.submission_defer(submission_id=w.judged.pk),
        [("submission.status", False, {"status": "error", "verdict": "internal_error"})],
        setup=lambda w, mp: setattr(w, "judged", _judged(mp, w)),
    ),
    Case(
        "finish",
        lambda w, mp: stage_finish(stage=w.coding, actor=w.owner),
        [("stage.status", False, {"status": "done", "reason": "finish"})],
    ),
    Case(
        "start",
        lambda w, mp: stage_start(stage=w.values, actor=w.owner),
        [("stage.status", False, {"status": "live", "reason": "start", "finished_at": None})],
        stage="values",
        setup=lambda w, mp: (
            stage_finish(stage=w.coding, actor=w.owner),
            stage_claim(stage=w.values, coach=w.coach),
        ),
    ),
    Case(
        "claim",
        lambda w, mp: stage_claim(stage=w.values, coach=w.coach),
        [("stage.claimed", False, {"coach": "coach-free"})],
        stage="values",
    ),
    Case(
        "release",
        lambda w, mp: stage_release(stage=w.review, actor=w.assigned),
        [("stage.released", False, {"coach": "coach-assigned"})],
        stage="review",
    ),
    Case(
        "chat",
        lambda w, mp: live.chat_post(stage=w.coding, author=w.assigned, text=" hello "),
        [("chat", False, {"text": "hello"})],
    ),
    Case(
        "paste",
        lambda w, mp: live.integrity_record(
            stage=w.coding, actor=w.owner, kind="paste", amount=400
        ),
        [("integrity", True, {"kind": "paste", "chars": 400})],
    ),
    Case(
        "blur",
        lambda w, mp: live.integrity_record(stage=w.coding, actor=w.owner, kind="blur", amount=9),
        [("integrity", True, {"kind": "blur", "ms": 9})],
    ),
    Case(
        "presence",
        lambda w, mp: (
            live.presence_change(stage=w.coding, user=w.owner, role="candidate", joined=True),
            live.presence_change(stage=w.coding, user=w.owner, role="candidate", joined=False),
        ),
        [
            ("presence", False, {"user": "owner", "role": "candidate", "state": "joined"}),
            ("presence", False, {"user": "owner", "role": "candidate", "state": "left"}),
        ],
    ),
    Case(
        "timer",
        lambda w, mp: [
            live.stage_timer_control(stage=w.coding, actor=w.assigned, action=action, minutes=5)
            for action in ("pause", "extend", "resume")
        ],
        [
            ("timer", False, {"reason": "pause", "paused": True, "deadline": None}),
            ("timer", False, {"reason": "extend", "paused": True}),
            ("timer", False, {"reason": "resume", "paused": False, "status": "live"}),
        ],
    ),
    Case(
        "deadline",
        lambda w, mp: live.stage_expire(
            stage_id=w.coding.pk, now=timezone.now() + timedelta(days=1)
        ),
        [
            ("timer", False, {"reason": "expired", "status": "done", "remaining_ms": 0}),
            ("stage.status", False, {"status": "done", "reason": "deadline"}),
        ],
    ),
    Case(
        "edit",
        lambda w, mp: document_update_apply(
            stage=w.coding,
            actor=w.owner,
            name=f"code:{w.coding_q.pk}",
            update_b64=_yjs_update("x = 1"),
        ),
        [("doc.update", False, {"doc": "code:{coding_q}"})],
    ),
    Case(
        "review comment",
        lambda w, mp: _comment(w),
        [("review_comment", False, {"lines": [3, 4], "category": "spof", "text": "x"})],
        stage="review",
        setup=lambda w, mp: _to_review(w),
    ),
    Case(
        "review comment edited, then deleted",
        lambda w, mp: (
            review_comment_update(
                stage=w.review, author=w.owner, comment_id=w.comment.pk, text="two routers"
            ),
            review_comment_delete(stage=w.review, author=w.owner, comment_id=w.comment.pk),
        ),
        [
            (
                "review_comment.updated",
                False,
                {"lines": [3, 4], "category": "spof", "text": "two routers"},
            ),
            ("review_comment.deleted", False, {}),
        ],
        stage="review",
        setup=lambda w, mp: (_to_review(w), setattr(w, "comment", _comment(w))),
    ),
    Case(
        "recording proposed",
        lambda w, mp: recording_propose(stage=w.coding, actor=w.assigned),
        [("recording.proposed", False, {"kind": "call", "needs": ["owner"], "question": None})],
        setup=lambda w, mp: _both_in_the_room(w),
    ),
    Case(
        "recording agreed, then stopped",
        lambda w, mp: (
            recording_consent(recording=w.recording, actor=w.owner, agree=True),
            recording_stop(recording=w.recording, actor=w.assigned),
        ),
        [
            ("recording.started", False, {"kind": "call", "question": None}),
            ("recording.stopped", False, {"kind": "call", "reason": "stopped"}),
        ],
        setup=lambda w, mp: _proposed(w),
    ),
    Case(
        "review match",
        lambda w, mp: (
            review_match_override_set(
                stage=w.review, coach=w.assigned, comment_id=w.comment.pk, flaw_id=None
            ),
            review_match_override_clear(stage=w.review, coach=w.assigned, comment_id=w.comment.pk),
        ),
        [
            ("review_match.set", True, {"flaw": None}),
            ("review_match.cleared", True, {}),
        ],
        stage="review",
        setup=lambda w, mp: (_to_review(w), setattr(w, "comment", _comment(w))),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_action_emits_exactly_its_events(world, monkeypatch, verify_action, case):
    case.setup(world, monkeypatch)
    stage = getattr(world, case.stage)
    events = verify_action(stage, lambda: case.action(world, monkeypatch))
    assert [(e["type"], e["private"]) for e in events] == [(t, p) for t, p, _ in case.expected]
    for event, (_, _, wanted) in zip(events, case.expected, strict=True):
        wanted = {
            k: v.format(coding_q=world.coding_q.pk) if isinstance(v, str) else v
            for k, v in wanted.items()
        }
        assert wanted.items() <= event.items()


def test_every_declared_event_type_is_verified_by_an_action():
    verified = {type_ for case in CASES for type_, _, _ in case.expected}
    assert verified == set(event_types.EVENTS)


def test_stage_status_has_one_shape_for_start_finish_and_deadline(world, verify_action):
    [finish] = verify_action(
        world.coding, lambda: stage_finish(stage=world.coding, actor=world.owner)
    )
    stage_claim(stage=world.values, coach=world.coach)
    [start] = verify_action(
        world.values, lambda: stage_start(stage=world.values, actor=world.owner)
    )
    assert start.keys() == finish.keys()
    assert start["deadline"] and start["started_at"] and start["coach_requested"] is True
    assert finish["finished_at"] and finish["started_at"]


def test_emit_refuses_a_payload_that_does_not_match_its_declaration(world):
    before = last_seq(world.coding)
    with pytest.raises(EventSchemaError, match=r"chat: missing keys \[\], unexpected keys \['x'\]"):
        emit(world.coding, "chat", {"text": "hi", "x": 1})
    with pytest.raises(EventSchemaError, match=r"chat\.text: expected a string"):
        emit(world.coding, "chat", {"text": 3})
    with pytest.raises(EventSchemaError, match="not a declared event type"):
        emit(world.coding, "chat.deleted", {"text": "hi"})
    with pytest.raises(EventSchemaError, match="note: private must be True"):
        emit(world.coding, "note", {"id": 1, "text": "coach only"})
    with pytest.raises(EventSchemaError, match=r"integrity"):
        emit(world.coding, "integrity", {"kind": "paste", "ms": 3}, private=True)
    assert last_seq(world.coding) == before


def test_start_claim_and_review_events(world):
    stage_finish(stage=world.coding, actor=world.owner)
    stage_claim(stage=world.values, coach=world.coach)  # while pending
    stage_start(stage=world.values, actor=world.owner)
    types = [t for t, _, _ in new_events(world.values, 0)]
    assert types == ["stage.claimed", "stage.status"]
    start_payload = new_events(world.values, 0)[1][2]
    assert start_payload["status"] == "live" and start_payload["deadline"]
    assert start_payload["coach_requested"] is True

    stage_finish(stage=world.values, actor=world.owner)
    stage_start(stage=world.review, actor=world.owner)
    review_comment_create(
        stage=world.review, author=world.owner, line_start=3, line_end=4, category="spof", text="x"
    )
    assert [t for t, _, _ in new_events(world.review, 0)] == ["stage.status", "review_comment"]


def test_sequence_is_gap_free_across_a_whole_round(world):
    answer_save(stage=world.coding, actor=world.owner, text="a")
    answer_save(stage=world.coding, actor=world.owner, scene={"elements": []})
    stage_push_follow_up(stage=world.coding, actor=world.assigned, text="go on")
    coach_note_create(stage=world.coding, author=world.assigned, text="n")
    stage_finish(stage=world.coding, actor=world.assigned)
    seqs = list(m.StageEvent.objects.filter(stage=world.coding).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    assert last_seq(world.coding) == len(seqs)


def test_refused_actions_emit_nothing(world):
    from interviews.services.errors import DomainError

    before = last_seq(world.review)
    with pytest.raises(DomainError):
        answer_save(stage=world.review, actor=world.owner, text="too early")
    with pytest.raises(DomainError):
        stage_start(stage=world.review, actor=world.owner)
    assert last_seq(world.review) == before
