"""Bank text served in the request's language (`?lang=`, saved preference,
`Accept-Language`): per field with English fallback, each translated object saying the
language its text is in and which fields are still English; translated coach notes,
locked parts and flaw keys as protected as the English ones."""

import pytest

from interviews import models as m
from interviews.i18n import request_language
from interviews.services.follow_ups import stage_push_follow_up
from tests.interviews.world import stages_repinned

API = "/api/v1"
ZH_NOTES = "SENTINEL-ZH-NOTES：寻找最小堆。"
ZH_LOCKED = "SENTINEL-ZH-LOCKED：同时最多 K 个。"
ZH_FLAW = "SENTINEL-ZH-FLAW：路由是单点故障。"
ZH_SECRETS = (ZH_NOTES, ZH_LOCKED, ZH_FLAW)


@pytest.fixture
def translated(world):
    m.Question.objects.filter(pk=world.coding_q.pk).update(
        i18n={
            "zh-Hans": {
                "title": "调度器",
                "prompt": "实现调度器。",
                "parts": {
                    "1": {"title": "固定批次", "prompt": "分批。"},
                    "2": {"prompt": ZH_LOCKED},
                },
                "follow_ups": {
                    "1": {"prompt": "现在同时最多运行 K 个请求。", "model_answer": ZH_NOTES}
                },
            },
            "zh-Hant": {"title": "排程器"},
        }
    )
    m.Question.objects.filter(pk=world.review_q.pk).update(
        i18n={"zh-Hans": {"flaws": {"1": {"explanation": ZH_FLAW}}}}
    )
    m.LoopTemplate.objects.filter(pk=world.template.pk).update(
        i18n={"zh-Hans": {"title": "AI 实验室面试", "stages": {"1": {"title": "编程"}}}}
    )
    rubric = world.rubric
    rubric.i18n = {
        "zh-Hans": {"dimensions": {"1": {"name": "解决问题", "levels": ["一", "二", "三", "四"]}}}
    }
    rubric.save()
    for dimension in rubric.dimensions.all():
        dimension.levels = ["l1", "l2", "l3", "l4"]
        dimension.save()
    stages_repinned(world)
    return world


def _question(body: dict) -> dict:
    (question,) = body["questions"]
    return question


def test_the_candidate_reads_the_stage_in_the_requested_language(translated, as_user):
    body = as_user(translated.owner).get(f"{API}/stages/{translated.coding.pk}/?lang=zh-Hans")
    body = body.json()
    assert (body["title"], body["language"]) == ("编程", "zh-Hans")
    question = _question(body)
    assert (question["title"], question["prompt"], question["language"]) == (
        "调度器",
        "实现调度器。",
        "zh-Hans",
    )
    assert question["fallback_fields"] == []
    part = question["parts"][0]
    assert (part["title"], part["prompt"], part["language"]) == ("固定批次", "分批。", "zh-Hans")
    # Part 3 has no translation: English, and says so.
    open_extra = next(p for p in question["parts"] if p["number"] == 3)
    assert (open_extra["title"], open_extra["language"]) == ("Open extra", "en")
    problem_solving, communication = body["rubric"]["dimensions"]
    assert problem_solving["name"] == "Problem solving"  # what scores name
    assert (problem_solving["label"], problem_solving["levels"]) == (
        "解决问题",
        ["一", "二", "三", "四"],
    )
    assert (communication["label"], communication["language"]) == ("Communication", "en")


def test_fields_fall_back_to_english_one_by_one(translated, as_user):
    client = as_user(translated.owner)
    body = client.get(
        f"{API}/stages/{translated.coding.pk}/", HTTP_ACCEPT_LANGUAGE="zh-TW,zh;q=0.9"
    ).json()
    question = _question(body)
    assert (question["title"], question["language"]) == ("排程器", "zh-Hant")
    assert question["prompt"] == translated.coding_q.prompt
    assert question["fallback_fields"] == ["prompt"]
    english = _question(client.get(f"{API}/stages/{translated.coding.pk}/?lang=en").json())
    assert (english["title"], english["language"], english["fallback_fields"]) == (
        translated.coding_q.title,
        "en",
        [],
    )


def test_translated_coach_notes_locked_parts_and_flaw_keys_stay_protected(translated, as_user):
    owner = as_user(translated.owner)
    for url in (
        f"{API}/stages/{translated.coding.pk}/?lang=zh-Hans",
        f"{API}/stages/{translated.review.pk}/?lang=zh-Hans",
        f"{API}/stages/{translated.coding.pk}/events/?lang=zh-Hans",
        f"{API}/loops/{translated.loop.pk}/report/?lang=zh-Hans",
    ):
        text = owner.get(url).content.decode()
        for secret in ZH_SECRETS:
            assert secret not in text, (url, secret)
    refused = owner.get(f"{API}/stages/{translated.coding.pk}/model-answers/?lang=zh-Hans")
    assert refused.status_code == 409

    coach = as_user(translated.assigned)
    body = coach.get(f"{API}/stages/{translated.coding.pk}/?lang=zh-Hans").json()
    first = _question(body)["follow_ups"][0]
    assert (first["prompt"], first["coach_notes"], first["language"]) == (
        "现在同时最多运行 K 个请求。",
        ZH_NOTES,
        "zh-Hans",
    )
    assert (
        ZH_LOCKED
        in coach.get(f"{API}/stages/{translated.coding.pk}/?lang=zh-Hans").content.decode()
    )


def test_model_answers_after_the_stage_in_the_requested_language(translated, as_user):
    m.Stage.objects.filter(pk__in=[translated.coding.pk, translated.review.pk]).update(
        status="done"
    )
    owner = as_user(translated.owner)
    body = owner.get(f"{API}/stages/{translated.coding.pk}/model-answers/?lang=zh-Hans").json()
    question = _question(body)
    assert (question["title"], question["language"]) == ("调度器", "zh-Hans")
    first, second = question["strong_answers"]
    assert (first["notes"], first["language"]) == (ZH_NOTES, "zh-Hans")
    assert (second["prompt"], second["language"]) == ("What is the complexity?", "en")
    review = owner.get(f"{API}/stages/{translated.review.pk}/model-answers/?lang=zh-Hans").json()
    spof, timeouts = _question(review)["flaws"]
    assert (spof["explanation"], spof["language"]) == (ZH_FLAW, "zh-Hans")
    assert timeouts["language"] == "en"


def test_a_pushed_follow_up_carries_its_translations_and_lists_in_the_readers_language(
    translated, as_user
):
    stage_push_follow_up(
        stage=translated.coding, actor=translated.assigned, follow_up=translated.unlock_follow_up
    )
    event = m.StageEvent.objects.filter(stage=translated.coding, type="follow_up").get()
    assert event.payload["text"] == "Now at most K requests may run at once."
    assert event.payload["translations"] == {"zh-Hans": "现在同时最多运行 K 个请求。"}
    assert ZH_NOTES not in str(event.payload)

    owner = as_user(translated.owner)
    (pushed,) = owner.get(f"{API}/stages/{translated.coding.pk}/?lang=zh-Hans").json()["follow_ups"]
    assert (pushed["text"], pushed["language"]) == ("现在同时最多运行 K 个请求。", "zh-Hans")
    (pushed,) = owner.get(f"{API}/stages/{translated.coding.pk}/?lang=zh-Hant").json()["follow_ups"]
    assert (pushed["text"], pushed["language"]) == ("Now at most K requests may run at once.", "en")

    stage_push_follow_up(stage=translated.coding, actor=translated.assigned, text="Free text.")
    free = m.StageEvent.objects.filter(stage=translated.coding, type="follow_up").last()
    assert free.payload["translations"] == {}


def test_loops_and_templates_in_the_requested_language(translated, as_user):
    owner = as_user(translated.owner)
    loop = owner.get(f"{API}/loops/{translated.loop.pk}/?lang=zh-Hans").json()
    assert (loop["title"], loop["language"]) == ("AI 实验室面试", "zh-Hans")
    assert [s["title"] for s in loop["stages"]] == ["编程", "Review", "Values", "Challenge"]
    assert loop["stages"][1]["language"] == "en"
    (template,) = owner.get(f"{API}/loop-templates/?lang=zh-Hans").json()
    assert (template["title"], template["fallback_fields"]) == ("AI 实验室面试", [])
    assert template["stages"][0]["title"] == "编程"
    report = owner.get(f"{API}/loops/{translated.loop.pk}/report/?lang=zh-Hans").json()
    assert (report["title"], report["stages"][0]["title"]) == ("AI 实验室面试", "编程")


class _Request:
    def __init__(self, *, lang=None, header="", user=None):
        self.GET = {"lang": lang} if lang else {}
        self.headers = {"Accept-Language": header} if header else {}
        self.user = user


def test_the_request_language_follows_the_contract(world):
    profile = m.AccountProfile.objects.create(user=world.owner, language="zh-Hant")
    assert request_language(_Request(lang="zh-Hans", user=world.owner)) == "zh-Hans"
    assert request_language(_Request(header="zh-CN", user=world.owner)) == "zh-Hant"
    profile.delete()
    world.owner.refresh_from_db()
    assert request_language(_Request(header="fr, zh-CN;q=0.8", user=world.owner)) == "zh-Hans"
    assert request_language(_Request(header="de")) == "en"
    assert request_language(_Request(lang="xx", header="zh-HK")) == "zh-Hant"


def test_the_public_question_in_the_requested_language(translated, as_user):
    m.Question.objects.filter(pk=translated.coding_q.pk).update(status="published")
    client = as_user(translated.other)
    body = client.get(f"{API}/questions/{translated.coding_q.pk}/?lang=zh-Hans").json()
    assert (body["title"], body["prompt"], body["language"]) == (
        "调度器",
        "实现调度器。",
        "zh-Hans",
    )
    first = body["coding"]["parts"][0]
    assert (first["title"], first["language"]) == ("固定批次", "zh-Hans")
    assert ZH_LOCKED not in str(body)


def test_scores_name_their_dimension_and_show_its_translated_label(translated, as_user):
    m.Stage.objects.filter(pk=translated.coding.pk).update(status="done")
    owner = as_user(translated.owner)
    card = owner.get(f"{API}/stages/{translated.coding.pk}/scorecard/?lang=zh-Hans").json()
    rows = card["score"]["dimensions"]
    assert [(r["dimension"], r["label"]) for r in rows] == [
        ("Problem solving", "解决问题"),
        ("Communication", "Communication"),
    ]
    report = owner.get(f"{API}/loops/{translated.loop.pk}/report/?lang=zh-Hans").json()
    auto = report["stages"][0]["auto_scorecard"]
    assert auto["score"]["dimensions"][0]["label"] == "解决问题"
