"""`GET /api/v1/stages/{id}/scorecard/`: the coach's scorecard (`source: coach`) when there
is one, else for a finished stage the automatic one (`source: auto`, each score with its
evidence); nothing before the stage ends. The loop report counts the coach's card, else
the automatic one, so a solo loop has an overall."""

from datetime import timedelta

from django.utils import timezone

from interviews import models as m
from interviews.services.reviews import review_comment_create
from tests.interviews.world import CANDIDATE_SECRETS, FLAW_KEY

API = "/api/v1"


def finish(stage) -> None:
    started = timezone.now() - timedelta(minutes=30)
    m.Stage.objects.filter(pk=stage.pk).update(
        status="done", started_at=started, finished_at=timezone.now()
    )
    stage.refresh_from_db()


def submit(
    world,
    part: int,
    passed: int,
    total: int,
    minutes: int,
    mode: str = "submit",
    max_time_ms: int = 0,
):
    submission = m.Submission.objects.create(
        stage=world.coding,
        question=world.coding_q,
        part=part,
        author=world.owner,
        language="python",
        code="print(3)\n",
        mode=mode,
        status="done",
        verdict="accepted" if passed == total else "wrong_answer",
        passed=passed,
        total=total,
        max_time_ms=max_time_ms,
    )
    m.Submission.objects.filter(pk=submission.pk).update(
        created_at=world.coding.started_at + timedelta(minutes=minutes)
    )


def test_a_finished_stage_without_a_coach_card_gets_the_automatic_one(world, as_user):
    finish(world.coding)
    submit(world, 1, 1, 1, minutes=12)
    response = as_user(world.owner).get(f"{API}/stages/{world.coding.pk}/scorecard/")
    assert response.status_code == 200, response.content
    card = response.json()
    assert card["source"] == "auto"
    scores = {s["dimension"]: s for s in card["scores"]}
    solving = scores["Problem solving"]
    assert solving["level"] is not None and solving["evidence"]
    assert any("accepted after" in e["text"] for e in solving["evidence"])
    assert scores["Communication"]["level"] is None
    assert card["questions"][0]["summary"] == "Q1 1/2 parts"  # part 2 is locked
    assert card["score"]["overall"] is not None
    body = response.content.decode()
    for secret in CANDIDATE_SECRETS:
        assert secret not in body


def test_the_coach_scorecard_wins_when_there_is_one(world, as_user):
    finish(world.coding)
    m.Scorecard.objects.create(
        stage=world.coding,
        coach=world.assigned,
        scores=[{"dimension": "Problem solving", "level": 3, "comment": ""}],
        summary="Fine.",
        recommendation="yes",
    )
    card = as_user(world.owner).get(f"{API}/stages/{world.coding.pk}/scorecard/").json()
    assert (card["source"], card["coach"]) == ("coach", "coach-assigned")
    report = as_user(world.owner).get(f"{API}/loops/{world.loop.pk}/report/").json()
    coding = report["stages"][0]
    assert coding["counted"] == "coach"
    assert coding["auto_scorecard"]["source"] == "auto"  # shown beside it
    assert report["overall"]["overall"] == coding["scorecard"]["score"]["overall"]


def test_nothing_before_the_stage_ends(world, as_user):
    url = f"{API}/stages/{world.coding.pk}/scorecard/"
    refused = as_user(world.owner).get(url)
    assert (refused.status_code, refused.json()["code"]) == (409, "stage_not_finished")
    assert as_user(world.assigned).get(url).status_code == 404
    finish(world.coding)
    assert as_user(world.assigned).get(url).json()["source"] == "auto"
    assert as_user(world.other).get(url).status_code == 404


def test_review_card_explains_comment_by_comment(world, as_user):
    m.Stage.objects.filter(pk=world.review.pk).update(status="live")
    world.review.refresh_from_db()
    review_comment_create(
        stage=world.review,
        author=world.owner,
        line_start=4,
        line_end=4,
        category="spof",
        text="The router is alone: add a standby.",
    )
    review_comment_create(
        stage=world.review,
        author=world.owner,
        line_start=11,
        line_end=12,
        category="concurrency",
        text="This call can hang.",
    )
    finish(world.review)
    card = as_user(world.owner).get(f"{API}/stages/{world.review.pk}/scorecard/").json()
    assert card["source"] == "auto"
    evidence = [e["text"] for s in card["scores"] for e in s["evidence"]]
    evidence += [card["summary"]]
    assert "your comment on 4 matched spof (same category, lines overlap); counted" in evidence
    assert any("category differed (concurrency), counted as found" in t for t in evidence)
    assert FLAW_KEY not in str(card)  # explanations of flaws are the model answer's


def test_a_solo_loop_report_has_an_overall(world, as_user):
    finish(world.coding)
    submit(world, 1, 1, 1, minutes=5)
    report = as_user(world.owner).get(f"{API}/loops/{world.loop.pk}/report/").json()
    coding = report["stages"][0]
    assert (coding["scorecard"], coding["counted"]) == (None, "auto")
    assert report["overall"]["overall"] == coding["auto_scorecard"]["score"]["overall"]
    assert report["overall"]["stages_scored"] == 1


def test_the_coding_card_compares_run_time_with_the_stored_reference(world, as_user):
    # The stage is scored on the rubric version its loop pinned: the dimension goes there.
    version = m.Stage.objects.get(pk=world.coding.pk).rubric_version
    version.dimensions = [*version.dimensions, {"name": "Performance", "weight": 1}]
    version.save(update_fields=["dimensions"])
    m.Question.objects.filter(pk=world.coding_q.pk).update(reference_time_ms={"python": {"1": 90}})
    finish(world.coding)
    submit(world, 1, 1, 1, minutes=5, max_time_ms=140)
    card = as_user(world.owner).get(f"{API}/stages/{world.coding.pk}/scorecard/").json()
    performance = next(s for s in card["scores"] if s["dimension"] == "Performance")
    assert [e["text"] for e in performance["evidence"]] == [
        'Q1 part 1 "Fixed batches": your slowest test 140 ms vs reference 90 ms: 1.6×',
        'Q1 part 3 "Open extra": not submitted, so counted as not fast',
    ]
    assert performance["level"] == 2  # 1 of the 2 open parts
