"""(b) A coach and a candidate in two browser contexts: the coach claims the coding stage
of a coached loop, sees the candidate's typing within a second, pushes the follow-up, and
the candidate sees the banner and the unlocked part 2."""

import time

import pytest
from playwright.sync_api import expect

from tests.factories import CoachFactory, UserFactory

from .conftest import editor_text, queue_row, sign_in

pytestmark = pytest.mark.e2e


def test_coach_watches_typing_and_pushes_a_follow_up(
    page, new_page, live_server_url, bank, screenshot_path
) -> None:
    UserFactory(username="grace")
    CoachFactory(username="coach-lin")
    candidate = page
    sign_in(candidate, "grace")
    template = candidate.get_by_test_id("template-ai-lab-infra-sde")
    template.get_by_label("With a live coach").check()
    template.get_by_role("button", name="Start this loop").click()
    # A coached stage waits for its coach: the candidate waits in the room.
    candidate.get_by_test_id("stage-coding").get_by_role("link", name="Wait in the room").click()
    candidate.get_by_test_id("stage-room").wait_for()
    candidate.get_by_text("waiting for a coach").wait_for()

    coach = new_page()
    sign_in(coach, "coach-lin")
    coach.get_by_role("heading", name="Coach console").wait_for()
    row = queue_row(coach, "grace")
    row.wait_for()
    coach.screenshot(path=screenshot_path("coach-queue"))
    row.get_by_role("button", name="Claim").click()
    coach.get_by_test_id("coach-room").wait_for()
    coach.get_by_test_id("connection").get_by_text("Live").wait_for()
    coach.get_by_role("button", name="Start the clock").click()
    coach.wait_for_function(
        "() => document.querySelector('.cm-content')?.textContent.includes('import sys')"
    )
    candidate.get_by_text("coach coach-lin").wait_for()
    candidate.get_by_text("All changes saved").wait_for()

    # The candidate types; the coach's read-only editor follows within a second.
    candidate.locator(".cm-content").click()
    candidate.keyboard.press("Control+End")
    marker = "# batching by budget"
    candidate.keyboard.type(marker)
    typed_at = time.monotonic()
    coach.wait_for_function(
        "m => document.querySelector('.cm-content')?.textContent.includes(m)",
        arg=marker,
        timeout=1000,
    )
    print(f"coach saw the typing {time.monotonic() - typed_at:.3f}s after the last key")
    assert marker in editor_text(coach)
    coach.screenshot(path=screenshot_path("coach-room"))

    # Push the bank follow-up that unlocks part 2.
    follow_up = coach.get_by_test_id("follow-up-1")
    follow_up.get_by_role("button", name="Push").click()
    follow_up.get_by_text("pushed").wait_for()

    banner = candidate.get_by_test_id("follow-up-banner")
    banner.wait_for()
    assert "part 2 unlocked" in banner.inner_text()
    candidate.get_by_test_id("part-2").wait_for()
    assert candidate.get_by_role("button", name="Submit part 2").is_visible()
    candidate.screenshot(path=screenshot_path("candidate-follow-up"))

    # Chat both ways.
    coach.get_by_role("tab", name="Chat").click()
    coach.get_by_label("Message").fill("Walk me through the invariant.")
    coach.get_by_role("button", name="Send").click()
    candidate.get_by_text("Walk me through the invariant.").wait_for()

    # The candidate's large paste shows up in the coach's signal log, never on their page.
    candidate.locator(".cm-content").click()
    candidate.evaluate(
        """() => {
            const data = new DataTransfer();
            data.setData('text/plain', 'x'.repeat(300));
            document.querySelector('.cm-content').dispatchEvent(
                new ClipboardEvent('paste', {clipboardData: data, bubbles: true}));
        }"""
    )
    coach.get_by_role("tab", name="Signals (1)").click()
    coach.get_by_test_id("integrity-log").get_by_text("Pasted 300 characters").wait_for()
    assert "Pasted" not in candidate.locator("body").inner_text()

    # After a reload the banner is gone, but both sides still see the pushed follow-up.
    for side in (candidate, coach):
        side.reload()
        pushed = side.get_by_test_id("pushed-follow-ups")
        expect(pushed).to_contain_text("Follow-ups so far (1)")
        expect(pushed).to_contain_text("from coach-lin")
        expect(pushed).to_contain_text("unlocked part 2")
    candidate.screenshot(path=screenshot_path("candidate-follow-ups-after-reload"))
