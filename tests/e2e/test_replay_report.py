"""A finished stage replays from its event log: at the end the replayed editor holds what
the candidate typed, half-way it holds less; the coach's replay also shows private notes.
The loop report, the progress charts and the coach calibration page render the scores."""

import re
import time

import pytest
from playwright.sync_api import Page, expect

from interviews.models import Loop, LoopTemplate, PlantedFlaw, Stage
from interviews.selectors.stages import stage_rubric
from interviews.services.loops import loop_start
from interviews.services.notes import coach_note_create
from interviews.services.reviews import review_comment_create
from interviews.services.scorecards import scorecard_save
from interviews.services.stages import stage_finish, stage_start
from tests.factories import AdminFactory, UserFactory

from .conftest import editor_text, sign_in

pytestmark = pytest.mark.e2e

CHUNKS = [
    "import sys\n",
    "\n",
    "def main() -> None:\n",
    "    data = sys.stdin.read().split()\n",
    "    print(len(data))\n",
    "\n",
    "main()\n",
]


def _seek(page: Page, fraction: float) -> None:
    """Move the scrubber as a person dragging it would (an `input` event on the range)."""
    page.get_by_test_id("replay-scrubber").evaluate(
        """(input, fraction) => {
            const value = Math.round(Number(input.max) * fraction);
            const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
            setter.call(input, String(value));
            input.dispatchEvent(new Event('input', { bubbles: true }));
        }""",
        fraction,
    )


def _chars(page: Page) -> int:
    return int(page.get_by_test_id("replay-chars").inner_text().split()[0])


def test_replay_plays_the_typing_and_the_report_renders(
    page, new_page, live_server_url, bank, screenshot_path
) -> None:
    UserFactory(username="lovelace")
    admin = AdminFactory(username="replay-admin")
    sign_in(page, "lovelace")
    page.get_by_test_id("template-ai-lab-infra-sde").get_by_role(
        "button", name="Start this loop"
    ).click()
    page.once("dialog", lambda dialog: dialog.accept())  # "Start the 90-minute clock?"
    page.get_by_test_id("stage-challenge").get_by_role("button", name="Start").click()
    page.get_by_test_id("stage-room").wait_for()
    page.get_by_text("All changes saved").wait_for()

    # Type the solution in pieces, with pauses, as a person would.
    page.locator(".cm-content").first.click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    for chunk in CHUNKS:
        page.keyboard.insert_text(chunk)
        page.wait_for_timeout(700)
    page.get_by_text("All changes saved").wait_for()
    typed = editor_text(page)
    assert "print(len(data))" in typed

    loop = Loop.objects.get(candidate__username="lovelace")
    stage = loop.stages.get(kind="challenge")
    coach_note_create(stage=stage, author=admin, text="Private: read the input first.")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Finish stage").click()
    expect(page.get_by_test_id("stage-status")).to_have_text("done")

    # The candidate's replay: from the loop timeline.
    page.goto(f"/loops/{loop.pk}")
    page.get_by_test_id("stage-challenge").get_by_role("link", name="Replay").click()
    page.get_by_test_id("replay").wait_for()
    expect(page.get_by_test_id("replay-clock")).not_to_have_text("00:00 / 00:00")
    page.get_by_role("button", name="Go to the end").click()
    expect(page.get_by_test_id("replay-chars")).to_have_text(f"{len(typed)} characters")
    assert editor_text(page) == typed
    end_feed = page.get_by_test_id("replay-feed").inner_text()
    assert "Stage done" in end_feed
    assert "read the input first" not in end_feed  # private: not in the candidate's log
    page.screenshot(path=screenshot_path("replay-end"))

    _seek(page, 0.5)
    page.wait_for_timeout(200)
    middle = _chars(page)
    assert 0 < middle < len(typed), middle
    assert editor_text(page) != typed
    page.screenshot(path=screenshot_path("replay-middle"))

    # Playing at 8× from the middle reaches the end on its own.
    page.get_by_label("Playback speed").select_option("8")
    page.get_by_test_id("replay-play").click()
    expect(page.get_by_test_id("replay-chars")).to_have_text(
        f"{len(typed)} characters", timeout=15_000
    )

    # The coach's (admin's) replay shows the private note too.
    staff = new_page()
    sign_in(staff, "replay-admin")
    staff.goto(f"/stages/{stage.pk}/replay")
    staff.get_by_role("button", name="Go to the end").click()
    expect(staff.get_by_test_id("replay-feed")).to_contain_text("read the input first")
    expect(staff.get_by_text("Coach view")).to_be_visible()
    staff.screenshot(path=screenshot_path("replay-coach"))

    # A scorecard → the loop report, the candidate's progress chart, calibration.
    rubric = stage_rubric(stage)
    dimensions = list(rubric.dimensions.order_by("position")) if rubric else []
    scorecard_save(
        stage=stage,
        coach=admin,
        scores=[
            {"dimension": d.name, "level": 2 + (i % 3), "comment": "seen in the replay"}
            for i, d in enumerate(dimensions)
        ],
        summary="Read the input well; test the edge cases sooner.",
        recommendation="yes",
        private_notes="Private: a borderline yes.",
        submit=True,
    )
    page.goto(f"/loops/{loop.pk}")
    page.get_by_role("link", name="Loop report").click()
    report = page.get_by_test_id("loop-report")
    report.wait_for()
    expect(report.get_by_role("heading", name=re.compile("Report ·"))).to_be_visible()
    challenge = report.get_by_test_id(f"report-stage-{stage.position}")
    expect(challenge).to_contain_text("Read the input well")
    expect(challenge).not_to_contain_text("borderline")
    if dimensions:
        expect(page.get_by_test_id("report-overall")).to_have_text(re.compile(r"\d+%"))
    expect(report.get_by_role("link", name="Printable report")).to_have_attribute(
        "href", f"/loops/{loop.pk}/report.html"
    )
    page.screenshot(path=screenshot_path("loop-report"), full_page=True)

    page.get_by_role("link", name="Progress").click()
    page.get_by_test_id("progress-charts").locator("svg").wait_for()
    page.screenshot(path=screenshot_path("progress-charts"), full_page=True)

    staff.goto(f"/loops/{loop.pk}/report")
    expect(staff.get_by_test_id("loop-report")).to_contain_text("borderline")
    staff.get_by_role("link", name="Calibration").click()
    expect(staff.get_by_test_id("calibration")).to_contain_text("replay-admin")
    time.sleep(0.2)
    staff.screenshot(path=screenshot_path("calibration"), full_page=True)


def test_coach_overrides_a_review_match_and_replays_the_review(
    page, live_server_url, bank, screenshot_path
) -> None:
    """The coach's ruling replaces the automatic match in the review score; the replay of
    the review shows the comment at its place in the doc."""
    candidate = UserFactory(username="reviewer")
    AdminFactory(username="review-admin")
    template = LoopTemplate.objects.get(slug="ai-lab-infra-sde")
    loop = loop_start(candidate=candidate, template=template)
    stage = loop.stages.filter(kind="review").order_by("position").first()
    stage_start(stage=stage, actor=candidate)
    question = stage.questions.first()
    flaw = PlantedFlaw.objects.filter(question=question).order_by("position").first()
    lines = f"lines {flaw.line_start}–{flaw.line_end}"
    # Right place, wrong category: no automatic match.
    review_comment_create(
        stage=stage,
        author=candidate,
        question=question,
        line_start=flaw.line_start,
        line_end=flaw.line_end,
        category="other" if flaw.category != "other" else "security",
        text="This part will fall over first.",
    )
    stage_finish(stage=Stage.objects.get(pk=stage.pk), actor=candidate)

    sign_in(page, "review-admin")
    page.goto(f"/coach/stages/{stage.pk}")
    overrides = page.get_by_test_id("match-overrides")
    overrides.wait_for()
    select = overrides.get_by_label(f"Match of the comment on {lines}")
    expect(select).to_have_value("auto")
    expect(overrides.locator(".badge")).to_have_text("miss")
    select.select_option(str(flaw.pk))
    expect(overrides.locator(".badge")).to_have_text("hit")
    expect(page.get_by_test_id("review-score")).not_to_contain_text("Found (0)")
    overrides.scroll_into_view_if_needed()
    page.screenshot(path=screenshot_path("review-match-override"))

    page.goto(f"/stages/{stage.pk}/replay")
    page.get_by_role("button", name="Go to the end").click()
    expect(page.get_by_test_id("replay-feed")).to_contain_text(f"Comment on {lines}")
    expect(page.get_by_test_id("replay-feed")).to_contain_text("Coach ruled comment")
    expect(page.get_by_text("This part will fall over first.")).to_be_visible()
    page.screenshot(path=screenshot_path("replay-review"))
