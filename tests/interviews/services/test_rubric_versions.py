"""A stage is scored on the rubric version pinned when its loop started, and a scorecard
keeps the version it was scored on: renaming a dimension or re-weighting it afterwards
changes nothing in a finished loop's report, progress page or the coach's form."""

import pytest

from interviews import models as m
from interviews.selectors.rubrics import rubric_for_scorecard, rubric_for_stage
from interviews.services.bank_import import bank_import
from interviews.services.loops import loop_start
from interviews.services.scorecards import scorecard_save

API = "/api/v1"
LEVELS = ["poor", "weak", "good", "excellent"]


def _rubric_edited(weight: float = 3, name: str = "Accuracy") -> None:
    """What the admin did: "Problem solving" renamed and re-weighted 1 → 3."""
    bank_import(
        {
            "rubrics": [
                {
                    "slug": "coding-default",
                    "dimensions": [
                        {"name": name, "weight": weight, "levels": LEVELS},
                        {"name": "Communication", "weight": 1, "levels": LEVELS},
                    ],
                }
            ]
        },
        verify=False,
    )


@pytest.fixture
def finished(world):
    """The coding round is done and scored 4 (problem solving) and 1 (communication): 50%."""
    scorecard_save(
        stage=world.coding,
        coach=world.assigned,
        scores=[
            {"dimension": "Problem solving", "level": 4, "comment": "sharp"},
            {"dimension": "Communication", "level": 1, "comment": "quiet"},
        ],
        summary="Good.",
        recommendation="yes",
        submit=True,
    )
    m.Stage.objects.filter(pk=world.coding.pk).update(status="done")
    world.refresh()
    return world


def _coding_report(client, world) -> dict:
    report = client.get(f"{API}/loops/{world.loop.pk}/report/").json()
    return next(stage for stage in report["stages"] if stage["id"] == world.coding.pk)


def test_the_scorecard_keeps_the_version_its_stage_started_with(finished):
    card = m.Scorecard.objects.get(stage=finished.coding)
    assert card.rubric_version_id == finished.coding.rubric_version_id is not None
    _rubric_edited()
    assert rubric_for_scorecard(card).dimension_names == ["Problem solving", "Communication"]
    assert rubric_for_stage(finished.coding).version == card.rubric_version.version


def test_a_rename_and_reweight_change_nothing_in_the_finished_loops_report(finished, as_user):
    client = as_user(finished.owner)
    before = _coding_report(client, finished)
    assert before["scorecard"]["score"]["percent"] == 50.0
    _rubric_edited()
    after = _coding_report(client, finished)
    assert after["scorecard"]["score"] == before["scorecard"]["score"]
    assert [d["dimension"] for d in after["scorecard"]["score"]["dimensions"]] == [
        "Problem solving",
        "Communication",
    ]
    assert all(d["in_rubric"] for d in after["scorecard"]["score"]["dimensions"])
    progress = client.get(f"{API}/me/progress/").json()
    assert [p["percent"] for p in progress["stages"] if p["stage"] == finished.coding.pk] == [50.0]


def test_the_coach_form_shows_the_old_names_for_an_old_card_and_a_resave_keeps_them(
    finished, as_user
):
    _rubric_edited()
    coach = as_user(finished.assigned)
    detail = coach.get(f"{API}/stages/{finished.coding.pk}/").json()
    assert [d["name"] for d in detail["rubric"]["dimensions"]] == [
        "Problem solving",
        "Communication",
    ]
    assert [d["weight"] for d in detail["rubric"]["dimensions"]] == [1.0, 1.0]
    card = scorecard_save(
        stage=finished.coding,
        coach=finished.assigned,
        scores=[
            {"dimension": "Problem solving", "level": 3},
            {"dimension": "Communication", "level": 2},
        ],
        summary="Resaved.",
        recommendation="yes",
        submit=True,
    )
    assert [s["dimension"] for s in card.scores] == ["Problem solving", "Communication"]


def test_a_loop_started_after_the_edit_is_scored_on_the_new_version(finished, as_user):
    _rubric_edited()
    later = loop_start(candidate=finished.owner, template=finished.template)
    coding = later.stages.get(position=1)
    rubric = rubric_for_stage(coding)
    assert rubric.dimension_names == ["Accuracy", "Communication"]
    assert [d.weight for d in rubric.dimensions] == [3, 1]
    assert rubric.version == finished.coding.rubric_version.version + 1
    detail = as_user(finished.owner).get(f"{API}/stages/{coding.pk}/").json()
    assert [d["name"] for d in detail["rubric"]["dimensions"]] == ["Accuracy", "Communication"]


def test_loops_started_while_the_rubric_is_unchanged_share_one_version(world):
    first = loop_start(candidate=world.owner, template=world.template).stages.get(position=1)
    second = loop_start(candidate=world.owner, template=world.template).stages.get(position=1)
    assert first.rubric_version_id == second.rubric_version_id == world.coding.rubric_version_id
    assert m.RubricVersion.objects.filter(rubric=world.rubric).count() == 1
