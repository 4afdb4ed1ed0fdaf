"""Live rooms that outlast trouble.

- A network blip while the room reloads its stage: the room stays, with the data it has, a
  small notice says the reload failed and is being retried, the editor keeps working, and
  once the network is back a retry succeeds and the notice goes.
- A coach whose room the server refused (4403, the stage handed to another coach): the room
  stays readable but inert — nothing in it acts on the stage or claims to be live."""

import re
import time

import pytest
from playwright.sync_api import Page, Route, expect

from interviews.models import Stage
from tests.factories import CoachFactory, UserFactory

from .conftest import claim, editor_text, start_coached_coding_stage

pytestmark = pytest.mark.e2e

SAVED = re.compile(r"^All changes saved$")


def type_at_end(page: Page, text: str) -> None:
    page.locator(".cm-content").click()
    page.keyboard.press("Control+End")
    page.keyboard.type(text)


def test_room_outlasts_a_failed_stage_reload(
    page, new_page, live_server_url, bank, screenshot_path
) -> None:
    UserFactory(username="grace")
    CoachFactory(username="coach-lin")
    candidate = page
    stage_id = start_coached_coding_stage(candidate)
    coach = new_page()
    claim(coach, room=candidate)
    header = candidate.locator(".room-status")
    expect(header).to_contain_text("coach coach-lin")
    expect(candidate.get_by_test_id("connection")).to_have_text("Live")
    part_2 = candidate.get_by_test_id("part-2")
    expect(part_2).to_have_count(0)  # locked parts are not shown to the candidate
    candidate.wait_for_load_state("networkidle")

    # The network drops for the stage's REST detail; the room's socket stays up (as
    # Chromium keeps an open websocket through a short outage).
    detail = f"**/api/v1/stages/{stage_id}/"
    failed: list[float] = []

    def network_down(route: Route) -> None:
        failed.append(time.monotonic())
        route.abort("internetdisconnected")

    candidate.route(detail, network_down)

    # The coach pushes the follow-up that unlocks part 2: the candidate's room hears of it
    # over the socket and reloads the stage, and the reload fails.
    coach.get_by_test_id("follow-up-1").get_by_role("button", name="Push").click()
    expect(candidate.get_by_test_id("follow-up-banner")).to_contain_text("part 2 unlocked")
    notice = candidate.get_by_test_id("room-reload-failed")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("Couldn't refresh the stage: the server can't be reached.")
    expect(notice).to_contain_text("You see what was loaded before.")
    expect(notice.get_by_role("button", name="Retry now")).to_be_visible()
    # The room is all there, with what it had (part 2 not yet shown), and still live.
    expect(candidate.get_by_test_id("problem")).to_have_count(0)
    expect(candidate.get_by_test_id("stage-room")).to_be_visible()
    expect(part_2).to_have_count(0)
    expect(header).to_contain_text("coach coach-lin")
    expect(candidate.get_by_test_id("connection")).to_have_text("Live")

    # The editor works meanwhile: an edit is saved over the socket and reaches the coach.
    save_status = candidate.get_by_test_id("save-status")
    saved_before = save_status.inner_text()
    marker = "# typed while the reload fails"
    type_at_end(candidate, marker)
    expect(save_status).not_to_have_text(saved_before)
    expect(save_status).to_have_text(SAVED)
    coach.wait_for_function(
        "m => document.querySelector('.cm-content')?.textContent.includes(m)", arg=marker
    )
    candidate.screenshot(path=screenshot_path("room-reload-failed-retrying"))

    # It tries again by itself, waiting longer each time, while the network stays down...
    deadline = time.monotonic() + 10
    while len(failed) < 3 and time.monotonic() < deadline:
        candidate.wait_for_timeout(100)
    assert len(failed) >= 3, f"{len(failed)} tries of the stage reload in 10 s"
    gaps = [b - a for a, b in zip(failed, failed[1:], strict=False)]
    assert gaps[1] > gaps[0], f"no backoff between tries: {gaps}"
    expect(notice).to_be_visible()

    # ...and once it is back, the next try succeeds: the notice goes, the stage is current.
    candidate.unroute(detail)
    blip_over = time.monotonic()
    expect(notice).to_be_hidden(timeout=15_000)
    print(f"reload recovered {time.monotonic() - blip_over:.1f}s after the network came back")
    expect(part_2).to_be_visible()
    expect(candidate.get_by_role("button", name="Submit part 2")).to_be_visible()
    expect(candidate.get_by_test_id("problem")).to_have_count(0)
    marker2 = "# and after it"
    type_at_end(candidate, marker2)
    expect(save_status).to_have_text(SAVED)
    coach.wait_for_function(
        "m => document.querySelector('.cm-content')?.textContent.includes(m)", arg=marker2
    )
    assert marker in editor_text(candidate)
    candidate.screenshot(path=screenshot_path("room-reload-recovered"))


def test_refused_coach_room_is_inert(
    page, new_page, live_server_url, bank, screenshot_path
) -> None:
    UserFactory(username="grace")
    CoachFactory(username="coach-lin")
    other_coach = CoachFactory(username="coach-ada")
    candidate = page
    start_coached_coding_stage(candidate)
    coach = new_page()
    claim(coach, room=candidate)
    coach_header = coach.locator(".room-status")
    expect(coach_header).to_contain_text("grace is here")
    expect(coach.get_by_role("button", name="Pause clock")).to_be_enabled()
    expect(coach.get_by_test_id("follow-up-1").get_by_role("button", name="Push")).to_be_enabled()
    expect(coach.get_by_text("Read-only · live")).to_be_visible()

    # The stage is handed to another coach (a model save, as the Django admin does): the
    # server closes the old coach's socket with 4403.
    stage = Stage.objects.get(coach__username="coach-lin")
    stage.coach = other_coach
    stage.save()

    notice = coach.get_by_test_id("room-refused")
    expect(notice).to_be_visible()
    expect(notice).to_have_text(
        "You no longer have access to this stage. Go back to your dashboard."
    )
    expect(coach.get_by_test_id("connection")).to_have_text("Not allowed")
    # Nothing acts on the stage any more...
    for name in ("Pause clock", "Resume clock", "Extend", "Finish stage"):
        expect(coach.get_by_role("button", name=name)).to_have_count(0)
    expect(coach.get_by_test_id("follow-up-1").get_by_role("button", name="Push")).to_be_disabled()
    expect(coach.get_by_label("Free-text follow-up")).to_be_disabled()
    # ...nothing claims to be live...
    expect(coach_header).not_to_contain_text("· here")
    expect(coach_header).not_to_contain_text("is here")
    expect(coach_header).not_to_contain_text("is away")
    expect(coach.get_by_test_id("read-only")).to_have_text("Read-only · no access")
    expect(coach.get_by_test_id("stage-status")).to_have_class(re.compile(r"\bstale\b"))
    expect(coach.get_by_role("timer")).to_have_class(re.compile(r"\bstale\b"))
    expect(coach.locator(".cm-content")).to_have_attribute("contenteditable", "false")
    expect(coach.get_by_test_id("coach-room")).to_have_class(re.compile(r"\broom-inert\b"))
    coach.get_by_role("tab", name="Notes").click()
    expect(coach.get_by_role("button", name="Add note")).to_be_disabled()
    coach.get_by_role("tab", name="Scorecard").click()
    expect(coach.get_by_role("button", name="Save draft")).to_be_disabled()
    expect(coach.get_by_label("Summary (the candidate reads this)")).to_be_disabled()
    coach.screenshot(path=screenshot_path("coach-room-refused-scorecard"))
    coach.get_by_role("tab", name="Follow-ups").click()
    coach.screenshot(path=screenshot_path("coach-room-refused-inert"))

    # The candidate's room is untouched.
    expect(candidate.get_by_test_id("connection")).to_have_text("Live")
    expect(candidate.get_by_test_id("room-refused")).to_have_count(0)
