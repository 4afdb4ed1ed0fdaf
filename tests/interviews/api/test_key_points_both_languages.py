"""The key-point matcher reads an answer in English or Chinese alike: whichever language
the question was served in and whichever the candidate answered in, the same points are
covered and the same levels given; the points themselves read in the request's language."""

import pytest

from interviews import models as m
from interviews.services.answers import answer_save

API = "/api/v1"

ENGLISH_ANSWER = (
    "The largest risk is misuse of agents. First they gain tools, then that leads to harm. "
    "Evaluations and monitoring reduce it."
)
CHINESE_ANSWER = (
    "最大的风险是智能体被滥用。首先它们拿到工具，然后导致伤害。评估和监控可以降低风险。"
)
# Traditional, as a zh-Hant reader writes it (the patterns are Simplified).
TRADITIONAL_ANSWER = (
    "最大的風險是智慧體被濫用。首先它們拿到工具，然後導致傷害。評估和監控可以降低風險。"
)
POINTS = [
    ("Names a concrete risk", "指出一个具体风险", [r"\bmisuse\b"], ["滥用"]),
    ("Describes the mechanism", "描述发生机制", [r"\bfirst\b.*\bthen\b"], ["首先.*然后"]),
    ("Names what reduces it", "说出降低风险的办法", [r"\bevaluations?\b"], ["评估"]),
    ("Says who owns it", "说出谁负责", [r"\bowns?\b"], ["负责"]),
]


@pytest.fixture
def values_stage(world):
    rubric = m.Rubric.objects.create(slug="values-default")
    m.Dimension.objects.create(rubric=rubric, position=1, name="Judgment", weight=1)
    question = world.discussion_q
    question.key_points = [
        {"point": en, "patterns": {"en": pen, "zh": pzh}, "dimension": "Judgment"}
        for en, _, pen, pzh in POINTS
    ]
    question.i18n = {
        "zh-Hans": {
            "prompt": "说说今天 AI 系统最大的真实风险。",
            "key_points": {str(n): {"point": zh} for n, (_, zh, _, _) in enumerate(POINTS, 1)},
        }
    }
    question.save()
    stage = world.values
    m.Stage.objects.filter(pk=stage.pk).update(status="live", rubric=rubric)
    stage.refresh_from_db()
    return stage


def _card(world, as_user, stage, answer: str, lang: str) -> dict:
    answer_save(stage=stage, actor=world.owner, question=world.discussion_q, text=answer)
    m.Stage.objects.filter(pk=stage.pk).update(status="done")
    card = as_user(world.owner).get(f"{API}/stages/{stage.pk}/scorecard/?lang={lang}").json()
    m.Stage.objects.filter(pk=stage.pk).update(status="live")
    assert card["source"] == "auto"
    return card


def _outcome(card: dict) -> tuple:
    return (
        tuple((p["source"], p["covered"]) for p in card["key_points"]),
        tuple((s["dimension"], s["level"]) for s in card["scores"]),
    )


def test_an_answer_in_either_language_to_a_question_in_either_scores_the_same(
    world, as_user, values_stage
):
    outcomes = {
        (answer_language, served): _outcome(_card(world, as_user, values_stage, answer, served))
        for answer_language, answer in (
            ("en", ENGLISH_ANSWER),
            ("zh-Hans", CHINESE_ANSWER),
            ("zh-Hant", TRADITIONAL_ANSWER),
        )
        for served in ("en", "zh-Hans", "zh-Hant")
    }
    assert [c for _, c in outcomes[("en", "en")][0]] == [True, True, True, False]
    # A Chinese answer (either script) to the English question, an English answer to the
    # Chinese one, …
    assert len(set(outcomes.values())) == 1, outcomes


def test_the_points_read_in_the_request_language(world, as_user, values_stage):
    chinese = _card(world, as_user, values_stage, ENGLISH_ANSWER, "zh-Hans")
    assert [(p["point"], p["language"]) for p in chinese["key_points"]] == [
        (zh, "zh-Hans") for _, zh, _, _ in POINTS
    ]
    assert chinese["key_points"][0]["sentence"] == "The largest risk is misuse of agents."
    english = _card(world, as_user, values_stage, CHINESE_ANSWER, "en")
    assert [(p["point"], p["language"]) for p in english["key_points"]] == [
        (en, "en") for en, _, _, _ in POINTS
    ]
    assert english["key_points"][0]["sentence"] == "最大的风险是智能体被滥用。"
