"""The self-assessment after a stage, and the automatic scorecard of a discussion round
from its key points (the question's own and those of the follow-ups asked)."""

from interviews import models as m
from interviews.services.answers import answer_save
from interviews.services.follow_ups import stage_push_follow_up

API = "/api/v1"


def test_self_assessment_after_the_stage_on_the_rubric(world, as_user):
    owner = as_user(world.owner)
    url = f"{API}/stages/{world.coding.pk}/self-assessment/"
    body = {"scores": [{"dimension": "Communication", "level": 3, "comment": "ok"}]}
    refused = owner.put(url, body, format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "stage_not_finished")
    m.Stage.objects.filter(pk=world.coding.pk).update(status="done")
    assert owner.put(url, body, format="json").status_code == 200
    assert owner.get(url).json()["scores"] == body["scores"]
    wrong = owner.put(url, {"scores": [{"dimension": "Typing", "level": 2}]}, format="json")
    assert (wrong.status_code, wrong.json()["code"]) == (400, "self_assessment_invalid")
    assert as_user(world.assigned).get(url).json()["scores"] == body["scores"]


def test_discussion_card_from_key_points(world, as_user):
    rubric = m.Rubric.objects.create(slug="values-default")
    m.Dimension.objects.create(rubric=rubric, position=1, name="Judgment", weight=1)
    m.Dimension.objects.create(rubric=rubric, position=2, name="Clarity", weight=1)
    question = world.discussion_q
    question.key_points = [
        {
            "point": "Names a concrete risk",
            "patterns": {"en": [r"\bmisuse\b"]},
            "dimension": "Judgment",
        },
    ]
    question.save()
    asked = m.FollowUp.objects.create(
        question=question,
        position=1,
        prompt="How?",
        trigger="manual",
        key_points=[
            {
                "point": "Says who owns it",
                "patterns": {"en": [r"\bowns?\b"]},
                "dimension": "Judgment",
            }
        ],
    )
    m.FollowUp.objects.create(
        question=question,
        position=2,
        prompt="Never asked",
        trigger="manual",
        key_points=[{"point": "Unasked", "patterns": {"en": ["zzz"]}, "dimension": "Judgment"}],
    )
    stage = world.values
    m.Stage.objects.filter(pk=stage.pk).update(status="live", rubric=rubric, coach=world.assigned)
    stage.refresh_from_db()
    stage_push_follow_up(stage=stage, actor=world.assigned, follow_up=asked)
    answer_save(
        stage=stage,
        actor=world.owner,
        question=question,
        text="The largest risk is misuse of agents. Nobody is accountable for it.",
    )
    m.Stage.objects.filter(pk=stage.pk).update(status="done")
    card = as_user(world.owner).get(f"{API}/stages/{stage.pk}/scorecard/").json()
    assert card["source"] == "auto"
    judgment, clarity = card["scores"]
    assert judgment["level"] == 2  # 1 of 2 asked key points covered; the unasked one is out
    texts = [e["text"] for e in judgment["evidence"]]
    assert 'covered (Q1): Names a concrete risk — "The largest risk is misuse of agents."' in texts
    assert "not covered (Q1 follow-up 1): Says who owns it" in texts
    assert clarity["level"] is None
    assert [k["covered"] for k in card["key_points"]] == [True, False]
