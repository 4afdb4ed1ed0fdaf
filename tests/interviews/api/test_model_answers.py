"""Model answers: the candidate reads them only once their stage is done — never before
(not from the endpoint, the stage detail, the event log or the report) and never for
another candidate's stage; the coach and admins at any time."""

from interviews import models as m
from tests.interviews.world import FLAW_KEY, FOLLOW_UP_COACH_NOTES, REFERENCE

API = "/api/v1"
SECRETS = (REFERENCE, FOLLOW_UP_COACH_NOTES)


def test_refused_before_the_stage_is_done_and_nowhere_else_either(world, as_user):
    owner = as_user(world.owner)
    stage = world.coding  # live
    refused = owner.get(f"{API}/stages/{stage.pk}/model-answers/")
    assert (refused.status_code, refused.json()["code"]) == (409, "stage_not_finished")
    for url in (
        f"{API}/stages/{stage.pk}/",
        f"{API}/stages/{stage.pk}/events/",
        f"{API}/loops/{world.loop.pk}/report/",
        f"{API}/stages/{stage.pk}/scorecard/",
    ):
        body = owner.get(url).content.decode()
        for secret in SECRETS:
            assert secret not in body, (url, secret)


def test_shown_to_the_candidate_once_the_stage_is_done(world, as_user):
    m.Stage.objects.filter(pk=world.coding.pk).update(status="done")
    response = as_user(world.owner).get(f"{API}/stages/{world.coding.pk}/model-answers/")
    assert response.status_code == 200
    (question,) = response.json()["questions"]
    assert REFERENCE in question["reference"]["python"]
    assert [a["follow_up"] for a in question["strong_answers"]] == [1, 2]
    assert question["strong_answers"][0]["notes"] == FOLLOW_UP_COACH_NOTES
    assert (question["complexity"], question["wrong_patterns"]) == (None, [])


def test_never_to_another_candidate(world, as_user):
    m.Stage.objects.filter(pk=world.coding.pk).update(status="done")
    other = as_user(world.other)
    assert other.get(f"{API}/stages/{world.coding.pk}/model-answers/").status_code == 404
    # Their own stage of the same template is not done: refused there too.
    own = world.other_loop.stages.order_by("position").first()
    assert other.get(f"{API}/stages/{own.pk}/model-answers/").status_code == 409


def test_the_review_flaw_key_after_the_review(world, as_user):
    m.Stage.objects.filter(pk=world.review.pk).update(status="done")
    body = as_user(world.owner).get(f"{API}/stages/{world.review.pk}/model-answers/").json()
    (question,) = body["questions"]
    assert [f["category"] for f in question["flaws"]] == ["spof", "timeouts"]
    assert FLAW_KEY in question["flaws"][0]["explanation"]


def test_the_coach_reads_them_during_the_stage(world, as_user):
    response = as_user(world.assigned).get(f"{API}/stages/{world.coding.pk}/model-answers/")
    assert response.status_code == 200 and REFERENCE in response.content.decode()
