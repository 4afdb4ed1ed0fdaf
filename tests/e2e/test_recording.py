"""Recording a live round, with consent, in real Chromium with a fake microphone: the
coach proposes, the candidate agrees, both see "● Recording"; the candidate's browser
uploads chunks while it records; the replay's <audio> loads the recording (duration > 0)
and seeking the replay to an event moves the audio to that moment."""

import time
from datetime import datetime

import pytest
from playwright.sync_api import Page, expect

from tests.factories import CoachFactory, UserFactory

from .conftest import claim, start_coached_coding_stage
from .test_call import REMOTE_VIDEO_PLAYS, media_browser, media_page  # noqa: F401 (fixtures)

pytestmark = pytest.mark.e2e

API_POST = """async ([path, body]) => {
  const csrf = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="))?.split("=")[1];
  const response = await fetch(path, {
    method: "POST",
    headers: {"Content-Type": "application/json", "X-CSRFToken": csrf ?? ""},
    body: JSON.stringify(body),
  });
  return [response.status, await response.json()];
}"""

API_GET = "async (path) => (await fetch(path)).json()"


def recordings(page: Page, stage_id: int) -> list[dict]:
    return page.evaluate(API_GET, f"/api/v1/stages/{stage_id}/recordings/")


def wait_for(predicate, within_s: float = 20.0, every_s: float = 0.5):
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(every_s)
    raise AssertionError("condition not met in time")


def test_both_agree_the_round_is_recorded_and_replay_plays_it_in_sync(
    media_page,  # noqa: F811
    bank,
    screenshot_path,
) -> None:
    UserFactory(username="grace")
    CoachFactory(username="coach-lin")
    candidate = media_page()
    stage_id = start_coached_coding_stage(candidate)
    coach = media_page()
    claim(coach, room=candidate)
    for page, other in ((candidate, "coach-lin"), (coach, "grace")):
        page.wait_for_function(REMOTE_VIDEO_PLAYS, arg=other)

    coach.get_by_test_id("recording-propose").click()
    expect(coach.get_by_test_id("recording-waiting")).to_contain_text("waiting for grace")
    consent = candidate.get_by_test_id("recording-consent")
    expect(consent).to_contain_text("coach-lin asks to record the audio of this round")
    candidate.screenshot(path=screenshot_path("recording-consent"))
    candidate.get_by_test_id("recording-agree").click()
    for page in (candidate, coach):
        expect(page.get_by_test_id("recording-indicator")).to_contain_text("● Recording")
    coach.screenshot(path=screenshot_path("recording-indicator"))

    # Chunks arrive while it records (one every few seconds).
    wait_for(lambda: recordings(candidate, stage_id)[0]["chunk_count"] >= 1)
    status, _ = coach.evaluate(
        API_POST, [f"/api/v1/stages/{stage_id}/chat/", {"text": "Said during the recording"}]
    )
    assert status == 201
    time.sleep(3)
    coach.get_by_role("button", name="Stop recording").click()
    for page in (candidate, coach):
        expect(page.get_by_test_id("recording-indicator")).to_have_count(0)
    # The last chunk follows the stop.
    recording = wait_for(
        lambda: (
            (r := recordings(coach, stage_id)[0])["status"] == "stopped"
            and r["chunk_count"] >= 2
            and r
        )
    )
    assert recording["size"] > 0 and recording["offset_ms"] is not None

    coach.goto(f"/stages/{stage_id}/replay")
    audio = coach.get_by_test_id("replay-audio-element")
    expect(audio).to_have_count(1)
    coach.wait_for_function(
        "() => { const a = document.querySelector('[data-testid=replay-audio-element]');"
        " return a && Number.isFinite(a.duration) && a.duration > 0; }"
    )
    duration = audio.evaluate("a => a.duration")
    assert duration > 4, duration

    events = coach.evaluate(
        API_GET, f"/api/v1/stages/{stage_id}/events/?types=chat,recording.started"
    )
    started = next(e for e in events if e["type"] == "recording.started")
    chat = next(e for e in events if e["type"] == "chat")
    expected = (
        datetime.fromisoformat(chat["at"]) - datetime.fromisoformat(started["at"])
    ).total_seconds()
    assert expected > 0.5
    coach.get_by_role("button", name="Go to the end").click()
    coach.get_by_test_id("replay-feed").get_by_role(
        "button", name="Said during the recording"
    ).click()
    coach.wait_for_function(
        "expected => Math.abs(document.querySelector('[data-testid=replay-audio-element]')"
        ".currentTime - expected) < 1",
        arg=expected,
    )
    coach.screenshot(path=screenshot_path("replay-audio"), full_page=True)

    # Back to the start of the recording: the audio follows to its start.
    coach.get_by_test_id("replay-feed").get_by_role("button", name="Recording started").click()
    coach.wait_for_function(
        "() => document.querySelector('[data-testid=replay-audio-element]').currentTime < 1"
    )

    # Playing from there, the audio plays and drives the replay's clock.
    coach.get_by_test_id("replay-play").click()
    coach.wait_for_function(
        "() => { const a = document.querySelector('[data-testid=replay-audio-element]');"
        " return !a.paused && a.currentTime > 1.5; }"
    )
    expect(coach.get_by_test_id("replay-feed")).to_contain_text("Said during the recording")
