"""Scheduling in real Chromium (issue 14): a coach in New York publishes a slot in their
zone, a candidate in Berlin books it for a coached round from the loop page, and both home
pages list the session in their own local time, zone named."""

from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import Browser, Page, expect

from interviews.models import Booking
from tests.factories import CoachFactory, UserFactory

from .conftest import sign_in

pytestmark = pytest.mark.e2e


def _person(browser: Browser, browser_context_args: dict, zone: str) -> Page:
    context = browser.new_context(**browser_context_args, timezone_id=zone, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def test_a_coach_publishes_a_slot_and_a_candidate_books_it(
    browser, browser_context_args, live_server_url, bank, screenshot_path
) -> None:
    UserFactory(username="grace")
    CoachFactory(username="coach-lin")
    # 09:00 in New York, a few days ahead, in winter (EST, UTC-5): 14:00Z, 15:00 in Berlin.
    day = (datetime.now(UTC) + timedelta(days=3)).date()
    while not (day.month in (12, 1, 2) and day.weekday() < 5):
        day += timedelta(days=1)
    starts_utc = datetime(day.year, day.month, day.day, 14, tzinfo=UTC)

    coach = _person(browser, browser_context_args, "America/New_York")
    sign_in(coach, "coach-lin")
    coach.get_by_role("heading", name="Coach console").wait_for()
    coach.get_by_role("link", name="Your availability").click()
    coach.get_by_role("heading", name="Your availability").wait_for()
    form = coach.get_by_role("form", name="Publish a slot")
    expect(form.get_by_label("Time zone")).to_have_value("America/New_York")
    form.get_by_label("Starts").fill(f"{day.isoformat()}T09:00")
    form.get_by_label("Length").select_option("60")
    form.get_by_role("button", name="Publish").click()
    expect(coach.get_by_text("Slot published.")).to_be_visible()
    slot_row = coach.locator("[data-testid^=my-slot-]")
    expect(slot_row).to_have_count(1)
    expect(slot_row).to_contain_text("9:00 AM EST")
    expect(slot_row).to_contain_text("open")
    coach.screenshot(path=screenshot_path("scheduling-coach-availability"), full_page=True)

    candidate = _person(browser, browser_context_args, "Europe/Berlin")
    sign_in(candidate, "grace")
    template = candidate.get_by_test_id("template-ai-lab-infra-sde")
    template.get_by_label("With a live coach").check()
    template.get_by_role("button", name="Start this loop").click()
    row = candidate.get_by_test_id("stage-coding")
    row.get_by_role("link", name="Book a session").click()
    candidate.get_by_role("heading", name="Book a session").wait_for()
    expect(candidate.get_by_text("Europe/Berlin")).to_be_visible()
    offered = candidate.locator("[data-testid^=open-slot-]")
    expect(offered).to_have_count(1)
    expect(offered).to_contain_text("3:00 PM GMT+1")
    expect(offered).to_contain_text("coach coach-lin")
    candidate.screenshot(path=screenshot_path("scheduling-candidate-booking"), full_page=True)
    offered.get_by_role("button", name="Book").click()

    row = candidate.get_by_test_id("stage-coding")
    expect(row).to_contain_text("Booked")
    expect(row).to_contain_text("3:00 PM GMT+1 with coach-lin")
    expect(row).to_contain_text("coach coach-lin")
    # Its clock opens at the booked time: the candidate's Start waits until then.
    expect(row.get_by_role("button", name="Start", exact=True)).to_be_disabled()
    expect(row).to_contain_text("Opens at the booked time")
    candidate.screenshot(path=screenshot_path("scheduling-loop-booked"), full_page=True)
    booking = Booking.objects.get()
    assert booking.starts_at == starts_utc and booking.coach.username == "coach-lin"

    candidate.goto("/")
    session = candidate.get_by_test_id("upcoming-sessions")
    expect(session.get_by_test_id("session-time")).to_have_text(
        candidate.evaluate(
            """iso => new Intl.DateTimeFormat("en-US", {weekday: "short", month: "short",
            day: "numeric", hour: "numeric", minute: "2-digit",
            timeZoneName: "short"}).format(new Date(iso))""",
            starts_utc.isoformat(),
        )
    )
    expect(session).to_contain_text("3:00 PM GMT+1")
    expect(session).to_contain_text("Times in your zone, Europe/Berlin")
    expect(session).to_contain_text("coach coach-lin")
    expect(session.get_by_test_id("join-room")).to_have_count(0)  # days away, not near
    candidate.screenshot(path=screenshot_path("scheduling-candidate-home"), full_page=True)

    coach.goto("/coach")
    coach_sessions = coach.get_by_test_id("upcoming-sessions")
    expect(coach_sessions).to_contain_text("9:00 AM EST")
    expect(coach_sessions).to_contain_text("with grace")
    coach.screenshot(path=screenshot_path("scheduling-coach-home"), full_page=True)
