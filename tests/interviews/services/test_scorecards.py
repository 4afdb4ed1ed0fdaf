"""Scorecards: dimensions from the stage's rubric, upsert, private notes never shown to
the candidate."""

import pytest

from interviews import models as m
from interviews.services.errors import InvalidInput
from interviews.services.scorecards import scorecard_save

API = "/api/v1"


def save(world, stage=None, **changes):
    values = {
        "scores": [{"dimension": "Communication", "level": 3, "comment": "clear"}],
        "summary": "Good round.",
        "recommendation": "yes",
        "private_notes": "SENTINEL-SCORECARD-PRIVATE",
    }
    values.update(changes)
    return scorecard_save(stage=stage or world.coding, coach=world.assigned, **values)


def test_upsert(world):
    first = save(world)
    second = save(world, recommendation="strong_yes", scores=[])
    assert first.pk == second.pk
    assert m.Scorecard.objects.get().recommendation == "strong_yes"


def test_dimensions_come_from_the_rubric(world):
    with pytest.raises(InvalidInput) as error:
        save(world, scores=[{"dimension": "Charisma", "level": 2}])
    assert 0 in error.value.errors["scores"]
    # No stage rubric: the first question's rubric applies.
    m.Stage.objects.filter(pk=world.challenge.pk).update(rubric=None, coach=world.assigned)
    world.challenge.refresh_from_db()
    assert save(world, stage=world.challenge).scores[0]["dimension"] == "Communication"


def test_without_any_rubric_any_dimension_goes(world):
    m.Stage.objects.filter(pk=world.values.pk).update(rubric=None, coach=world.assigned)
    world.values.refresh_from_db()
    assert save(world, stage=world.values, scores=[{"dimension": "Humility", "level": 4}])


def test_private_notes_stay_private(world, as_user):
    save(world)
    url = f"{API}/stages/{world.coding.pk}/scorecard/"
    assert as_user(world.owner).get(url).status_code == 409  # not before the stage is done
    m.Stage.objects.filter(pk=world.coding.pk).update(status="done")
    owner_view = as_user(world.owner).get(url)
    assert owner_view.status_code == 200
    assert "private_notes" not in owner_view.json()
    assert "SENTINEL-SCORECARD-PRIVATE" not in owner_view.content.decode()
    assert owner_view.json()["scores"] == [
        {"dimension": "Communication", "level": 3, "comment": "clear"}
    ]
    for coach in (world.assigned, world.admin):
        assert as_user(coach).get(url).json()["private_notes"] == "SENTINEL-SCORECARD-PRIVATE"
    events = as_user(world.owner).get(f"{API}/stages/{world.coding.pk}/events/").json()
    assert "scorecard.saved" not in [e["type"] for e in events]


def test_no_scorecard_is_404(world, as_user):
    response = as_user(world.assigned).get(f"{API}/stages/{world.coding.pk}/scorecard/")
    assert response.status_code == 404
