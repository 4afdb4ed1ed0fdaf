"""Candidate-paced drilling: in a solo stage the scripted interviewer asks its next
`after_answer` follow-up once the candidate has answered what was asked last (enough new
words), or at once when they ask for the next question; never while a coach runs it."""

import base64
from datetime import timedelta

import pytest
from django.utils import timezone
from pycrdt import Doc, Map

from interviews.models import StageEvent, StageQuestion
from interviews.selectors.stages import scripted_follow_ups_left
from interviews.services import documents, live
from interviews.services.answers import answer_save
from interviews.services.errors import InvalidInput, NotAllowed, StateConflict
from interviews.services.follow_ups import answer_word_count, stage_push_follow_up
from tests.factories import (
    CoachFactory,
    FollowUpFactory,
    QuestionFactory,
    StageFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

ENOUGH = " ".join(["word"] * live.AFTER_ANSWER_MIN_WORDS)


def _solo_discussion(**kwargs):
    now = timezone.now()
    stage = StageFactory(
        kind="values",
        status="live",
        started_at=now - timedelta(minutes=1),
        deadline=now + timedelta(minutes=29),
        **kwargs,
    )
    question = QuestionFactory(kind="discussion")
    StageQuestion.objects.create(stage=stage, question=question, position=1)
    first = FollowUpFactory(question=question, position=1, trigger="after_answer")
    second = FollowUpFactory(question=question, position=2, trigger="after_answer")
    return stage, question, first, second


def _asked(stage) -> list[int]:
    return list(stage.pushed_follow_ups.order_by("id").values_list("follow_up_id", flat=True))


def test_a_word_counts_once_and_each_cjk_character_counts_as_a_word():
    assert answer_word_count("KV cache: 2 bytes/token, fp16.") == 6
    assert answer_word_count("预填充是计算密集型") == 9
    assert answer_word_count("  ---  ") == 0


def test_an_answer_long_enough_asks_the_next_follow_up_and_only_once():
    stage, question, first, second = _solo_discussion()
    answer_save(stage=stage, actor=stage.loop.candidate, question=question, text="Short.")
    assert _asked(stage) == []

    answer_save(stage=stage, actor=stage.loop.candidate, question=question, text=ENOUGH)
    assert _asked(stage) == [first.pk]
    event = StageEvent.objects.filter(stage=stage, type="follow_up").get()
    assert event.payload["text"] == first.prompt and event.actor is None

    # Saving the same answer again is not an answer to the new follow-up.
    answer_save(stage=stage, actor=stage.loop.candidate, question=question, text=ENOUGH + " ok")
    assert _asked(stage) == [first.pk]
    answer_save(
        stage=stage, actor=stage.loop.candidate, question=question, text=f"{ENOUGH} {ENOUGH}"
    )
    assert _asked(stage) == [first.pk, second.pk]


def test_the_words_count_from_the_last_follow_up_whoever_asked_it():
    stage, question, first, second = _solo_discussion()
    answer_save(stage=stage, actor=stage.loop.candidate, question=question, text=ENOUGH)
    # A timed follow-up asked meanwhile also resets what counts as new.
    timed = FollowUpFactory(question=question, position=3, trigger="after_minutes", after_minutes=1)
    stage_push_follow_up(stage=stage, actor=None, follow_up=timed)
    answer_save(stage=stage, actor=stage.loop.candidate, question=question, text=ENOUGH + " more")
    assert _asked(stage) == [first.pk, timed.pk]


def test_a_coached_stage_never_fires_after_answer_follow_ups():
    stage, question, _, _ = _solo_discussion(coach=CoachFactory())
    answer_save(stage=stage, actor=stage.loop.candidate, question=question, text=ENOUGH)
    assert _asked(stage) == []
    assert scripted_follow_ups_left(stage) == 0
    with pytest.raises(StateConflict) as refused:
        live.stage_ask_next_follow_up(stage=stage, actor=stage.loop.candidate)
    assert refused.value.code == "coach_asks_follow_ups"


def test_next_question_asks_at_once_in_order_until_none_is_left():
    stage, question, first, second = _solo_discussion()
    assert scripted_follow_ups_left(stage) == 2
    assert live.stage_ask_next_follow_up(stage=stage, actor=stage.loop.candidate).follow_up == first
    assert scripted_follow_ups_left(stage) == 1
    pushed = live.stage_ask_next_follow_up(
        stage=stage, actor=stage.loop.candidate, question_id=question.pk
    )
    assert pushed.follow_up == second
    with pytest.raises(StateConflict) as none_left:
        live.stage_ask_next_follow_up(stage=stage, actor=stage.loop.candidate)
    assert none_left.value.code == "no_follow_up_left"


def test_next_question_only_for_the_candidate_of_a_live_stage():
    stage, question, _, _ = _solo_discussion()
    with pytest.raises(NotAllowed):
        live.stage_ask_next_follow_up(stage=stage, actor=UserFactory())
    with pytest.raises(InvalidInput):
        live.stage_ask_next_follow_up(
            stage=stage, actor=stage.loop.candidate, question_id=QuestionFactory().pk
        )
    stage.status = "done"
    stage.save()
    with pytest.raises(StateConflict) as not_live:
        live.stage_ask_next_follow_up(stage=stage, actor=stage.loop.candidate)
    assert not_live.value.code == "stage_not_live"


def _type_notes(stage, question, section: str, words: str) -> None:
    doc = Doc()
    doc.get("notes", type=Map)[section] = words
    documents.document_update_apply(
        stage=stage,
        actor=stage.loop.candidate,
        name=f"notes:{question.pk}",
        update_b64=base64.b64encode(doc.get_update()).decode(),
    )


def test_design_notes_count_as_the_answer():
    stage, question, first, _ = _solo_discussion()
    StageQuestion.objects.filter(stage=stage).delete()
    design = QuestionFactory(kind="design")
    StageQuestion.objects.create(stage=stage, question=design, position=1)
    follow_up = FollowUpFactory(question=design, trigger="after_answer")
    name = f"notes:{design.pk}"

    _type_notes(stage, design, "requirements", "p99 TTFT under 300 ms")
    assert live.stage_on_notes_edited(stage=stage, name=name) == []
    _type_notes(stage, design, "estimates", ENOUGH)
    [pushed] = live.stage_on_notes_edited(stage=stage, name=name)
    assert pushed.follow_up == follow_up
    # Nothing left to ask: later edits are not even merged.
    assert live.stage_on_notes_edited(stage=stage, name=name) == []
    assert live.stage_on_notes_edited(stage=stage, name=f"code:{design.pk}") == []
