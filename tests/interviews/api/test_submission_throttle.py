"""The per-user rate limit on submissions: 429 with Retry-After, one budget per user."""

import pytest

from interviews.services.stages import stage_start
from tests.interviews.world import World

API = "/api/v1"


def _body(stage, question) -> dict:
    return {
        "stage": stage.pk,
        "question": question.pk,
        "part": 1,
        "language": "python",
        "code": "print(3)\n",
        "mode": "run",
    }


@pytest.mark.django_db
def test_the_submission_limit_is_per_user_with_retry_after(world: World, as_user, settings):
    rates = dict(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], submissions="2/min")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    owner = as_user(world.owner)
    body = _body(world.coding, world.coding_q)
    statuses = [owner.post(f"{API}/submissions/", body, format="json").status_code for _ in "ab"]
    assert statuses == [202, 202]
    limited = owner.post(f"{API}/submissions/", body, format="json")
    assert limited.status_code == 429
    assert 0 < int(limited["Retry-After"]) <= 60
    assert "throttled" in limited.json()["detail"].lower()

    # another candidate has a budget of their own
    other_stage = world.other_loop.stages.get(kind="coding")
    stage_start(stage=other_stage, actor=world.other)
    other = as_user(world.other)
    other_body = _body(other_stage, world.coding_q)
    assert other.post(f"{API}/submissions/", other_body, format="json").status_code == 202
    assert other.post(f"{API}/submissions/", other_body, format="json").status_code == 202
    assert other.post(f"{API}/submissions/", other_body, format="json").status_code == 429
    # and the first one is still limited
    assert owner.post(f"{API}/submissions/", body, format="json").status_code == 429


@pytest.mark.django_db
def test_reading_results_is_not_limited(world: World, as_user, settings):
    rates = dict(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], submissions="1/min")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    owner = as_user(world.owner)
    body = _body(world.coding, world.coding_q)
    assert owner.post(f"{API}/submissions/", body, format="json").status_code == 202
    assert owner.post(f"{API}/submissions/", body, format="json").status_code == 429
    for _ in range(3):
        response = owner.get(f"{API}/submissions/{world.submission.pk}/")
        assert response.status_code == 200


@pytest.mark.django_db
def test_repeated_submits_of_one_part_are_limited_beyond_the_general_cap(
    world: World, as_user, settings
):
    """Each submit shows a verdict per hidden test: rapid repeats of one part are capped."""
    rates = dict(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], submit_part="2/min")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    settings.JUDGE_MAX_IN_FLIGHT_PER_USER = 10
    owner = as_user(world.owner)
    submit = {**_body(world.coding, world.coding_q), "mode": "submit"}
    assert [owner.post(f"{API}/submissions/", submit, format="json").status_code for _ in "ab"] == [
        202,
        202,
    ]
    limited = owner.post(f"{API}/submissions/", submit, format="json")
    assert limited.status_code == 429
    assert 0 < int(limited["Retry-After"]) <= 60
    assert "submitted this part 2 times" in limited.json()["detail"]
    # runs of the same part, and the other candidate's submits, are not counted
    assert (
        owner.post(
            f"{API}/submissions/", _body(world.coding, world.coding_q), format="json"
        ).status_code
        == 202
    )
    other_stage = world.other_loop.stages.get(kind="coding")
    stage_start(stage=other_stage, actor=world.other)
    other = as_user(world.other)
    other_submit = {**_body(other_stage, world.coding_q), "mode": "submit"}
    assert other.post(f"{API}/submissions/", other_submit, format="json").status_code == 202


@pytest.mark.django_db
def test_a_third_submission_in_flight_is_refused_with_retry_after(world: World, as_user):
    owner = as_user(world.owner)
    body = _body(world.coding, world.coding_q)
    assert [owner.post(f"{API}/submissions/", body, format="json").status_code for _ in "ab"] == [
        202,
        202,
    ]
    busy = owner.post(f"{API}/submissions/", body, format="json")
    assert busy.status_code == 429
    assert int(busy["Retry-After"]) > 0
    assert "2 submissions waiting for the judge" in busy.json()["detail"]
