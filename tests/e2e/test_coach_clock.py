"""The clock waits for the interviewer (issue 14): a coached loop's coding stage is in the
coach queue before its candidate starts it, its clock does not move while they wait, the
coach claims and starts it, and the candidate sees "coach joined" and the clock running;
or the candidate continues solo and the scripted interviewer's follow-up arrives."""

import re

import pytest
from playwright.sync_api import Page, expect

from interviews.models import FollowUp, Stage
from interviews.selectors.stages import coach_queue
from tests.factories import CoachFactory, UserFactory

from .conftest import CODING_STAGE, queue_row, sign_in

pytestmark = pytest.mark.e2e

CLOCK_RE = re.compile(r"^\d?:?\d{2}:\d{2}$")


def _start_coached_loop(candidate: Page) -> None:
    template = candidate.get_by_test_id("template-ai-lab-infra-sde")
    template.get_by_label("With a live coach").check()
    template.get_by_role("button", name="Start this loop").click()
    candidate.get_by_test_id("stage-coding").wait_for()


def _coding_stage(username: str) -> Stage:
    return Stage.objects.get(loop__candidate__username=username, kind="coding")


def test_the_clock_waits_for_the_coach_who_claims_and_starts_it(
    page, new_page, live_server_url, bank, screenshot_path
) -> None:
    UserFactory(username="grace")
    CoachFactory(username="coach-lin")
    coach = new_page()
    sign_in(coach, "coach-lin")
    coach.get_by_role("heading", name="Coach console").wait_for()
    coach.get_by_text("Nobody is waiting right now.").wait_for()

    candidate = page
    sign_in(candidate, "grace")
    _start_coached_loop(candidate)
    row = candidate.get_by_test_id("stage-coding")
    expect(row).to_contain_text("waiting for your coach")
    expect(row.get_by_role("button", name="Start", exact=True)).to_have_count(0)
    candidate.screenshot(path=screenshot_path("coached-loop-waiting"), full_page=True)

    # The queue shows the pending stage within a poll, flagged as new.
    entry = queue_row(coach, "grace")
    expect(entry).to_be_visible(timeout=12_000)
    expect(entry).to_contain_text("pending")
    expect(entry).to_contain_text("clock waits for you")
    expect(coach.get_by_test_id("queue-alert")).to_contain_text(f"grace · {CODING_STAGE}")
    coach.screenshot(path=screenshot_path("coach-queue-pending"), full_page=True)

    # The candidate waits in the room: the clock does not move.
    row.get_by_role("link", name="Wait in the room").click()
    candidate.get_by_test_id("waiting-for-coach").wait_for()
    countdown = candidate.get_by_test_id("countdown")
    expect(countdown).to_have_text("Not started")
    candidate.wait_for_timeout(2500)
    expect(countdown).to_have_text("Not started")
    stage = _coding_stage("grace")
    assert stage.status == "pending" and stage.deadline is None and stage.started_at is None
    candidate.screenshot(path=screenshot_path("candidate-waiting-for-coach"))

    # The coach claims it (still pending) and joins: the candidate sees them arrive.
    entry.get_by_role("button", name="Claim").click()
    coach.get_by_test_id("coach-room").wait_for()
    expect(coach.get_by_test_id("connection")).to_have_text("Live")
    expect(candidate.get_by_test_id("coach-joined")).to_contain_text("Coach joined: coach-lin")
    stage.refresh_from_db()
    assert stage.status == "pending" and stage.deadline is None
    expect(countdown).to_have_text("Not started")

    # The coach starts the clock from the room; the candidate's clock runs.
    coach.get_by_test_id("coach-pending").get_by_role("button", name="Start the clock").click()
    expect(candidate.get_by_test_id("stage-status")).to_have_text("live")
    candidate.get_by_text("All changes saved").wait_for()
    expect(countdown).to_have_text(CLOCK_RE)
    first = countdown.inner_text()
    candidate.wait_for_timeout(2200)
    assert countdown.inner_text() != first
    stage.refresh_from_db()
    assert stage.status == "live" and stage.deadline is not None
    expect(candidate.get_by_test_id("coach-joined")).to_be_visible()
    candidate.screenshot(path=screenshot_path("candidate-room-coach-running"))
    coach.screenshot(path=screenshot_path("coach-room-running"))

    # The coach gives the stage back: it is in the queue again, and their room closes.
    coach.get_by_text("Release or hand over").click()
    coach.screenshot(path=screenshot_path("coach-room-release"))
    coach.once("dialog", lambda dialog: dialog.accept())
    coach.get_by_role("button", name="Release to the queue").click()
    expect(coach.get_by_test_id("room-refused")).to_be_visible()
    stage.refresh_from_db()
    assert stage.coach_id is None and stage in coach_queue()


def test_the_candidate_continues_solo_and_the_scripted_follow_up_fires(
    page, live_server_url, bank, celery_worker, screenshot_path
) -> None:
    UserFactory(username="ada")
    candidate = page
    sign_in(candidate, "ada")
    _start_coached_loop(candidate)
    stage = _coding_stage("ada")
    assert stage.coach_requested
    # The bank's timed follow-up of the coding question, made due at once.
    timed = FollowUp.objects.filter(
        question__stages=stage, trigger=FollowUp.Trigger.AFTER_MINUTES
    ).first()
    assert timed is not None
    FollowUp.objects.filter(pk=timed.pk).update(after_minutes=0)

    candidate.get_by_test_id("stage-coding").get_by_role(
        "button", name="Continue solo (the scripted interviewer takes over)"
    ).click()
    candidate.get_by_test_id("stage-room").wait_for()
    expect(candidate.get_by_test_id("stage-status")).to_have_text("live")
    expect(candidate.get_by_test_id("countdown")).to_have_text(CLOCK_RE)
    stage.refresh_from_db()
    assert stage.status == "live" and not stage.coach_requested and stage.coach_id is None

    # The scripted interviewer (the beat's tick) pushes the timed follow-up: listed in the
    # room (a banner too, if it arrives after the room has synced).
    pushed = candidate.get_by_test_id("pushed-follow-ups")
    expect(pushed).to_contain_text("scripted interviewer", timeout=15_000)
    expect(pushed).to_contain_text(timed.prompt.split("\n")[0][:40])
    assert stage.pushed_follow_ups.filter(follow_up=timed, pushed_by__isnull=True).exists()
    candidate.screenshot(path=screenshot_path("candidate-solo-follow-up"))

    # Out of the queue for good.
    assert stage not in coach_queue()
