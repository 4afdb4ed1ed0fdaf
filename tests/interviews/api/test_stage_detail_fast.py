"""Stage detail's plain-data path (`interviews/api/stage_detail.py`) gives exactly what the
serializers give — every stage kind, language, state and viewer — so the OpenAPI schema
(built from the serializers) stays true; its per-process bank pieces follow bank edits
at once and are kept per audience, so a candidate never gets one built for a coach."""

import json
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from interviews import models as m
from interviews.api.practice_serializers import StageCandidateSerializer, StageCoachSerializer
from interviews.api.stage_detail import pieces_clear, stage_detail_data
from interviews.i18n import content_language_override
from interviews.selectors.access import stages_visible_to
from interviews.selectors.stages import stage_detail_for, stage_detail_rows
from interviews.services.answers import answer_save
from interviews.services.errors import NotFound
from interviews.services.follow_ups import stage_push_follow_up
from interviews.services.stages import stage_start
from tests import factories as f
from tests.interviews.world import (
    FLAW_KEY,
    FOLLOW_UP_COACH_NOTES,
    LOCKED_PART,
    stages_repinned,
)

API = "/api/v1"
LANGUAGES = ["en", "zh-Hans", "zh-Hant"]
VIEWERS = ["owner", "assigned", "admin", "shadow"]
COACH_ONLY = (FOLLOW_UP_COACH_NOTES, FLAW_KEY, "coach_notes", '"flaws"')


@pytest.fixture(autouse=True)
def _no_pieces():
    """Pieces are per process; ids repeat between tests (the generation does not)."""
    pieces_clear()
    yield
    pieces_clear()


def _translate(world) -> None:
    """Translations of every kind stage detail shows, some fields left in English."""
    m.Question.objects.filter(pk=world.coding_q.pk).update(
        i18n={
            "zh-Hans": {
                "title": "调度器",
                "parts": {"1": {"title": "固定批次", "prompt": "分批。"}, "2": {"prompt": "锁定"}},
                "follow_ups": {"1": {"prompt": "现在同时最多运行 K 个请求。"}},
            },
            "zh-Hant": {"prompt": "實作排程器。"},
        }
    )
    m.Question.objects.filter(pk=world.review_q.pk).update(
        i18n={"zh-Hans": {"flaws": {"1": {"explanation": "路由是单点故障。"}}}}
    )
    m.LoopTemplate.objects.filter(pk=world.template.pk).update(
        i18n={"zh-Hans": {"stages": {"1": {"title": "编程"}, "3": {"title": "价值观"}}}}
    )
    world.rubric.i18n = {"zh-Hans": {"dimensions": {"1": {"name": "解决问题"}}}}
    world.rubric.save()
    stages_repinned(world)


@pytest.fixture
def busy(world):
    """Every state stage detail tells apart: a live coached stage with a part unlocked,
    a bank and a free-text follow-up pushed and answers; a finished one with a submitted
    scorecard; pending ones (claimed, queued, uncoached); an uncoached live one whose
    scripted interviewer still has follow-ups to ask; a shadowing coach."""
    _translate(world)
    f.FollowUpFactory(
        question=world.discussion_q, position=1, prompt="Why now?", trigger="after_answer"
    )
    stage_push_follow_up(stage=world.coding, actor=world.assigned, follow_up=world.unlock_follow_up)
    stage_push_follow_up(stage=world.coding, actor=world.assigned, text="Free text.")
    answer_save(stage=world.coding, actor=world.owner, question=world.coding_q, text="heap")
    answer_save(stage=world.coding, actor=world.owner, question=None, text="overall")
    # Finished (one stage of a loop is live at a time: the coding one is).
    started = timezone.now() - timedelta(minutes=50)
    m.Stage.objects.filter(pk=world.review.pk).update(
        status="done", started_at=started, deadline=started, finished_at=timezone.now()
    )
    m.Answer.objects.create(stage=world.review, question=world.review_q, text="a spof")
    m.Scorecard.objects.create(stage=world.review, coach=world.assigned, draft=False)
    m.StageShadow.objects.create(stage=world.coding, user=world.coach)
    other_values = world.other_loop.stages.get(kind="values")
    stage_start(stage=other_values, actor=world.other)
    world.refresh()
    world.other_values = other_values
    return world


def _viewer(world, name: str):
    return world.coach if name == "shadow" else getattr(world, name)


def _both(user, stage_id: int, language: str) -> tuple[str, str]:
    """(fast path, serializers) as JSON text, key order included, at the same instant."""
    now = timezone.now()
    with content_language_override(language):
        fast = stage_detail_data(stage_detail_rows(user, stage_id), now=now)
        stage = stage_detail_for(user, stage_id)
        serializer = StageCoachSerializer if stage.viewer_is_coach else StageCandidateSerializer
        reference = serializer(stage, context={"now": now}).data
    return json.dumps(fast, ensure_ascii=False), json.dumps(reference, ensure_ascii=False)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("viewer", VIEWERS)
def test_the_fast_path_equals_the_serializers(busy, viewer, language):
    """Each stage of both loops: the same JSON where the viewer may see it, NotFound
    where not."""
    user = _viewer(busy, viewer)
    visible = set(stages_visible_to(user).values_list("pk", flat=True))
    for stage in m.Stage.objects.order_by("pk"):
        if stage.pk not in visible:
            with pytest.raises(NotFound):
                stage_detail_rows(user, stage.pk)
            continue
        for _ in range(2):  # cold, then from the pieces
            fast, reference = _both(user, stage.pk, language)
            assert fast == reference, (stage.kind, stage.status)
    assert visible


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_scripted_stage_equals_the_serializers(busy, language):
    """The uncoached live stage, read by its candidate: "Next question" has one left."""
    fast, reference = _both(busy.other, busy.other_values.pk, language)
    assert fast == reference
    assert json.loads(fast)["scripted_follow_ups_left"] == 1


def test_the_api_serves_the_fast_path(busy, as_user):
    client = as_user(busy.owner)
    body = client.get(f"{API}/stages/{busy.coding.pk}/", HTTP_ACCEPT_LANGUAGE="zh-CN").json()
    fast, _ = _both(busy.owner, busy.coding.pk, "zh-Hans")
    expected = json.loads(fast)
    for changing in ("server_time", "time_remaining_ms"):
        body.pop(changing), expected.pop(changing)
    assert body == expected
    assert body["questions"][0]["title"] == "调度器"
    assert body["title"] == "编程"


def test_a_candidate_never_gets_a_piece_built_for_a_coach(busy, as_user):
    """The coach reads first (pieces built with follow-ups, coach notes, flaws and the
    locked part); the candidate then reads the same questions in the same language."""
    for stage in (busy.coding, busy.review):
        coach_text = as_user(busy.assigned).get(f"{API}/stages/{stage.pk}/").content.decode()
        assert any(secret in coach_text for secret in COACH_ONLY)
    m.StageFollowUp.objects.filter(stage=busy.coding).delete()  # part 2 locked again
    for stage in (busy.coding, busy.review):
        text = as_user(busy.owner).get(f"{API}/stages/{stage.pk}/").content.decode()
        for secret in (*COACH_ONLY, LOCKED_PART, '"locked"', '"pushed"'):
            assert secret not in text, (stage.kind, secret)
        fast, reference = _both(busy.owner, stage.pk, "en")
        assert fast == reference


def test_a_bank_edit_shows_at_once(busy, as_user):
    client = as_user(busy.owner)
    url = f"{API}/stages/{busy.coding.pk}/"
    assert client.get(url).json()["questions"][0]["title"] == busy.coding_q.title
    question = m.Question.objects.get(pk=busy.coding_q.pk)
    question.title = "Scheduler, edited"
    question.save()  # any bank write moves the bank generation on
    part = m.Part.objects.get(question=question, position=1)
    part.prompt = "Batch, edited."
    part.save()
    body = client.get(url).json()
    assert body["questions"][0]["title"] == "Scheduler, edited"
    assert body["questions"][0]["parts"][0]["prompt"] == "Batch, edited."
    dimension = busy.rubric.dimensions.get(position=2)
    dimension.name = "Clarity"
    dimension.save()
    stages_repinned(busy)
    assert [d["name"] for d in client.get(url).json()["rubric"]["dimensions"]] == [
        "Problem solving",
        "Clarity",
    ]


def test_pieces_are_reused_until_the_bank_changes(busy, as_user, django_assert_num_queries):
    """Warm: the token, the stage, its pushed follow-ups and answers — no bank row, and
    not the stage's question ids; after a bank edit the pieces are built again."""
    client = as_user(busy.owner)
    url = f"{API}/stages/{busy.coding.pk}/"
    client.get(url)
    with django_assert_num_queries(4):
        assert client.get(url).status_code == 200
    m.Part.objects.get(question=busy.coding_q, position=1).save()
    with CaptureQueriesContext(connection) as cold:
        assert client.get(url).status_code == 200
    assert any("interviews_question" in q["sql"] for q in cold.captured_queries)
    with django_assert_num_queries(4):
        assert client.get(url).status_code == 200


def test_a_stage_s_questions_edited_in_the_admin_show_at_once(busy, as_user):
    """A stage's question ids are kept per process: fixed when its loop starts, they
    change only through the admin, whose saves move the bank generation on."""
    client = as_user(busy.owner)
    url = f"{API}/stages/{busy.coding.pk}/"
    assert [q["id"] for q in client.get(url).json()["questions"]] == [busy.coding_q.pk]
    link = m.StageQuestion.objects.create(stage=busy.coding, question=busy.discussion_q, position=2)
    ids = [q["id"] for q in client.get(url).json()["questions"]]
    assert ids == [busy.coding_q.pk, busy.discussion_q.pk]
    link.delete()
    assert [q["id"] for q in client.get(url).json()["questions"]] == [busy.coding_q.pk]
