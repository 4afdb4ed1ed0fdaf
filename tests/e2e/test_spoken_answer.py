"""A spoken answer in real Chromium with a fake microphone: in a solo screen round the
candidate answers by voice (recorded and uploaded in chunks), types the transcript
(headless Chromium has no speech recognition), and reads it in the stage's feedback —
with the key point it covers marked covered — beside a playable recording of it."""

import re
import time

import pytest
from playwright.sync_api import expect

from interviews.models import LoopTemplate, Recording
from interviews.services.loops import loop_start
from tests.factories import UserFactory

from .conftest import sign_in
from .test_call import media_browser, media_page  # noqa: F401 (fixtures)

pytestmark = pytest.mark.e2e

TRANSCRIPT = "I read your system card last spring."


def test_a_spoken_answer_is_recorded_transcribed_and_in_the_feedback(
    media_page,  # noqa: F811
    bank,
    screenshot_path,
) -> None:
    candidate = UserFactory(username="vera")
    loop = loop_start(
        candidate=candidate, template=LoopTemplate.objects.get(slug="ai-lab-infra-sde")
    )
    stage = loop.stages.get(kind="screen")
    page = media_page()
    page.on("dialog", lambda dialog: dialog.accept())
    sign_in(page, "vera")
    page.goto(f"/stages/{stage.pk}")
    page.get_by_role("button", name=re.compile("Start the clock")).click()
    page.get_by_test_id("stage-status").get_by_text("live").wait_for()

    spoken = page.get_by_test_id("spoken-answer").first
    spoken.get_by_test_id("spoken-answer-record").click()
    expect(spoken.get_by_test_id("spoken-answer-recording")).to_contain_text(
        "Recording your answer"
    )
    page.screenshot(path=screenshot_path("spoken-answer-recording"))
    time.sleep(4)  # more than one chunk
    spoken.get_by_role("button", name="Stop").click()
    transcript = spoken.get_by_test_id("spoken-transcript")
    expect(spoken).to_contain_text("type what you said")
    transcript.fill(TRANSCRIPT)
    expect(spoken.get_by_test_id("recording-audio-element")).to_have_count(1)
    page.screenshot(path=screenshot_path("spoken-answer-transcript"), full_page=True)
    spoken.get_by_role("button", name="Add to my answer").click()
    expect(page.get_by_label("Your answer").first).to_have_value(TRANSCRIPT)
    expect(page.get_by_test_id("save-status").first).to_have_text(re.compile("saved", re.I))

    recording = Recording.objects.get(stage=stage)
    assert recording.kind == "answer" and recording.question_id is not None
    assert recording.status == "stopped" and recording.chunk_count >= 2

    page.get_by_role("button", name="Finish stage").click()
    page.get_by_test_id("stage-status").get_by_text("done").wait_for()
    page.goto(f"/stages/{stage.pk}/scorecard")
    card = page.get_by_test_id("auto-scorecard")
    # The transcript covers the key point "names specific work of the lab".
    expect(card).to_contain_text(
        f'covered (Q1): Names specific work of the lab, not just the mission — "{TRANSCRIPT}"'
    )
    recordings = page.get_by_test_id("stage-recordings")
    expect(recordings).to_contain_text("Your spoken answer to")
    audio = recordings.get_by_test_id("recording-audio-element")
    expect(audio).to_have_count(1)
    audio.evaluate("a => { a.muted = true; return a.play(); }")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=stage-recordings] audio').currentTime > 0.5"
    )
    recordings.screenshot(path=screenshot_path("spoken-answer-feedback"))
    page.screenshot(path=screenshot_path("spoken-answer-scorecard"), full_page=True)

    # …and in the replay, where it plays from its moment in the round.
    page.goto(f"/stages/{stage.pk}/replay")
    replay_audio = page.get_by_test_id("replay-audio")
    expect(replay_audio).to_contain_text("Spoken answer")
    page.wait_for_function(
        "() => { const a = document.querySelector('[data-testid=replay-audio-element]');"
        " return a && Number.isFinite(a.duration) && a.duration > 2; }"
    )
    page.get_by_role("button", name="Go to the end").click()
    page.get_by_test_id("replay-feed").get_by_role("button", name="Spoken answer recorded").click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=replay-audio-element]').currentTime < 1"
    )
