"""Each action appends exactly its events to the stage log, with gap-free sequence
numbers; private events are marked private."""

import pytest

from interviews import models as m
from interviews.services.answers import answer_save
from interviews.services.follow_ups import stage_push_follow_up
from interviews.services.notes import coach_note_create
from interviews.services.reviews import review_comment_create
from interviews.services.scorecards import scorecard_save
from interviews.services.stages import stage_claim, stage_finish, stage_start
from interviews.services.submissions import submission_create


@pytest.fixture(autouse=True)
def _no_judging(monkeypatch):
    monkeypatch.setattr("interviews.services.submissions.queue_judging", lambda pk: None)


def new_events(stage, after):
    return list(
        m.StageEvent.objects.filter(stage=stage, seq__gt=after)
        .order_by("seq")
        .values_list("type", "private", "payload")
    )


def last_seq(stage):
    return m.Stage.objects.get(pk=stage.pk).last_seq


ACTIONS = [
    (
        "answer",
        lambda w: answer_save(stage=w.coding, actor=w.owner, question=w.coding_q, text="plan"),
        [("answer.saved", False, {"fields": ["text"]})],
    ),
    (
        "follow-up",
        lambda w: stage_push_follow_up(
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
    (
        "note",
        lambda w: coach_note_create(stage=w.coding, author=w.assigned, text="hmm"),
        [("note", True, {"text": "hmm"})],
    ),
    (
        "scorecard",
        lambda w: scorecard_save(
            stage=w.coding, coach=w.assigned, scores=[], summary="", recommendation="no"
        ),
        [("scorecard.saved", True, {"recommendation": "no"})],
    ),
    (
        "submission",
        lambda w: submission_create(
            stage=w.coding,
            author=w.owner,
            question_id=w.coding_q.pk,
            part=1,
            language="python",
            code="print(1)",
            mode="submit",
        ),
        [("submission.status", False, {"status": "queued", "part": 1, "mode": "submit"})],
    ),
    (
        "finish",
        lambda w: stage_finish(stage=w.coding, actor=w.owner),
        [("stage.status", False, {"status": "done"})],
    ),
]


@pytest.mark.parametrize("name, action, expected", ACTIONS, ids=[a[0] for a in ACTIONS])
def test_action_emits_exactly_its_events(world, name, action, expected):
    before = last_seq(world.coding)
    action(world)
    events = new_events(world.coding, before)
    assert [(t, p) for t, p, _ in events] == [(t, p) for t, p, _ in expected]
    for (_, _, payload), (_, _, wanted) in zip(events, expected, strict=True):
        assert wanted.items() <= payload.items()
    assert last_seq(world.coding) == before + len(expected)


def test_start_claim_and_review_events(world):
    stage_finish(stage=world.coding, actor=world.owner)
    m.Stage.objects.filter(pk=world.values.pk).update(coach_requested=False)
    stage_start(stage=world.values, actor=world.owner)
    stage_claim(stage=world.values, coach=world.coach)
    types = [t for t, _, _ in new_events(world.values, 0)]
    assert types == ["stage.status", "stage.claimed"]
    start_payload = new_events(world.values, 0)[0][2]
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
