"""Scorecards: dimensions from the stage's rubric, upsert, private notes never shown to
the candidate."""

import pytest

from interviews import models as m
from interviews.services.errors import InvalidInput, StateConflict
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
    save(world, submit=True)
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


def test_a_draft_is_never_shown_to_the_candidate(world, as_user):
    """A half-written scorecard: the candidate gets 404 even once the stage is done, the
    report leaves it out; the coach sees and edits it. Submitting shows it."""
    draft = save(world, summary="half-written", recommendation="")
    assert draft.draft and draft.recommendation == ""
    m.Stage.objects.filter(pk=world.coding.pk).update(status="done")
    url = f"{API}/stages/{world.coding.pk}/scorecard/"
    owner_view = as_user(world.owner).get(url)
    assert owner_view.status_code == 404 and owner_view.json()["code"] == "not_found"
    assert "half-written" not in owner_view.content.decode()
    report = as_user(world.owner).get(f"{API}/loops/{world.loop.pk}/report/").json()
    assert "half-written" not in str(report)
    coach_view = as_user(world.assigned).get(url).json()
    assert coach_view["draft"] is True and coach_view["recommendation"] == ""

    save(world, summary="Done.", recommendation="yes", submit=True)
    shown = as_user(world.owner).get(url)
    assert shown.status_code == 200 and shown.json()["summary"] == "Done."


def test_submitting_needs_a_recommendation_and_stays_submitted(world, as_user):
    with pytest.raises(InvalidInput) as error:
        save(world, recommendation="", submit=True)
    assert "recommendation" in error.value.errors
    save(world, submit=True)
    with pytest.raises(StateConflict) as conflict:
        save(world, summary="back to a draft")
    assert conflict.value.code == "scorecard_submitted"
    assert m.Scorecard.objects.get().summary == "Good round."
    url = f"{API}/stages/{world.coding.pk}/scorecard/"
    body = {"scores": [], "summary": "x", "recommendation": "no"}
    response = as_user(world.assigned).put(url, body, format="json")
    assert response.status_code == 409 and response.json()["code"] == "scorecard_submitted"
    response = as_user(world.assigned).put(url, {**body, "submit": True}, format="json")
    assert response.status_code == 200 and response.json()["draft"] is False


def test_the_loop_list_says_which_stages_have_a_submitted_scorecard(world, as_user):
    def flags() -> dict[int, bool]:
        loops = as_user(world.assigned).get(f"{API}/loops/").json()
        return {s["id"]: s["scorecard_submitted"] for loop in loops for s in loop["stages"]}

    save(world)
    assert flags()[world.coding.pk] is False  # a draft
    save(world, submit=True)
    assert flags()[world.coding.pk] is True
