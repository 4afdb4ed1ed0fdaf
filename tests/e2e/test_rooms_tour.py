"""The other rooms, as a candidate and an admin use them: a discussion answer autosaves; the
design room's notes save into the shared document and the whiteboard loads lazily; the
review room takes line comments and shows the score after finishing; an admin scores the
stage with the rubric and the candidate reads the scorecard and their progress."""

import pytest
from playwright.sync_api import expect

from interviews.models import LoopTemplate
from interviews.services.loops import loop_start
from tests.factories import AdminFactory, UserFactory

from .conftest import sign_in

pytestmark = pytest.mark.e2e


def start(page, stage_id: int) -> None:
    """Open a pending stage and start its clock from the room."""
    page.goto(f"/stages/{stage_id}")
    page.get_by_role("button", name="Start the clock").click()
    page.get_by_test_id("stage-status").get_by_text("live").wait_for()


def finish(page) -> None:
    page.get_by_role("button", name="Finish stage").click()  # the confirm dialog is accepted
    page.get_by_test_id("stage-status").get_by_text("done").wait_for()


def test_discussion_design_review_and_scorecard(
    page, new_page, live_server_url, bank, screenshot_path
) -> None:
    candidate = UserFactory(username="lin")
    AdminFactory(username="root-admin")
    loop = loop_start(
        candidate=candidate, template=LoopTemplate.objects.get(slug="ai-lab-infra-sde")
    )
    stages = {stage.kind: stage for stage in loop.stages.all()}
    page.on("dialog", lambda dialog: dialog.accept())
    sign_in(page, "lin")

    # Discussion (recruiter screen): the answer autosaves.
    start(page, stages["screen"].pk)
    answer = page.get_by_label("Your answer")
    answer.fill("I want to work where safety is part of the architecture.")
    page.get_by_test_id("save-status").get_by_text("Saved ·").wait_for()
    page.screenshot(path=screenshot_path("discussion-room"))
    finish(page)

    # Design: structured notes go into the shared document; the whiteboard loads lazily.
    start(page, stages["design"].pk)
    page.get_by_label("Requirements").fill(
        "Multi-tenant; p99 TTFT < 300 ms; safety check in parallel with prefill."
    )
    page.get_by_label("Estimates").fill("10k QPS, 1k tokens each: KV cache ~ 160 KB/token for 70B.")
    page.get_by_label("Estimates").blur()
    page.get_by_test_id("save-status").get_by_text("All changes saved").wait_for()
    page.screenshot(path=screenshot_path("design-room-notes"))
    page.get_by_role("tab", name="Whiteboard").click()
    page.locator(".excalidraw").wait_for()
    page.screenshot(path=screenshot_path("design-room-whiteboard"))
    page.reload()
    page.get_by_label("Requirements").wait_for()
    assert "p99 TTFT" in page.get_by_label("Requirements").input_value()  # nothing lost
    finish(page)

    # Review: select lines, comment with a category, finish, read the score.
    start(page, stages["review"].pk)
    page.get_by_role("button", name="Line 3", exact=True).click()
    page.get_by_role("button", name="Line 5", exact=True).click(modifiers=["Shift"])
    page.get_by_role("heading", name="Comment on lines 3–5").wait_for()
    page.get_by_label("Category").select_option("spof")
    page.get_by_role("textbox", name="Comment").fill(
        "A single router instance: its failure takes the service down."
    )
    page.get_by_role("button", name="Add comment").click()
    page.get_by_test_id("review-comments").get_by_text("A single router instance").wait_for()
    # The author edits the comment and withdraws a second one while the stage is live.
    page.get_by_role("button", name="Edit comment on lines 3–5").click()
    page.get_by_role("textbox", name="Comment").fill(
        "A single router instance: its failure takes every tenant down."
    )
    page.get_by_role("button", name="Save changes").click()
    page.get_by_test_id("review-comments").get_by_text("takes every tenant down").wait_for()
    page.get_by_role("button", name="Line 8", exact=True).click()
    page.get_by_role("textbox", name="Comment").fill("Hasty second thought.")
    page.get_by_role("button", name="Add comment").click()
    page.get_by_test_id("review-comments").get_by_text("Hasty second thought.").wait_for()
    page.get_by_role("button", name="Delete comment on lines 8–8").click()
    expect(
        page.get_by_test_id("review-comments").get_by_text("Hasty second thought.")
    ).to_have_count(0)
    expect(page.get_by_test_id("review-comments").get_by_role("listitem")).to_have_count(1)
    page.screenshot(path=screenshot_path("review-room"))
    page.get_by_role("button", name="Finish stage").click()
    page.get_by_test_id("review-score").wait_for()
    page.screenshot(path=screenshot_path("review-score"), full_page=True)

    # An admin scores the review with the rubric; the candidate reads the scorecard.
    admin = new_page()
    sign_in(admin, "root-admin")
    admin.goto(f"/coach/stages/{stages['review'].pk}")
    admin.get_by_test_id("coach-room").wait_for()
    admin.get_by_role("tab", name="Scorecard").click()
    for fieldset in admin.locator("fieldset.dimension").all():
        fieldset.locator("input[type=radio][value='3']").check()
    admin.get_by_label("Summary (the candidate reads this)").fill(
        "Found the router SPOF quickly; missed the memory budget."
    )
    admin.get_by_label("Private notes (coaches and admins only)").fill(
        "Nudge on KV-cache maths next time."
    )
    # A draft first: the recommendation starts unset, and the candidate sees nothing.
    expect(admin.get_by_label("Recommendation")).to_have_value("")
    admin.get_by_role("button", name="Submit scorecard").click()
    expect(admin.get_by_role("alert")).to_contain_text("Choose a recommendation")
    expect(admin.get_by_test_id("scorecard-status")).to_have_count(0)
    admin.get_by_role("button", name="Save draft").click()
    expect(admin.get_by_test_id("scorecard-status")).to_contain_text("Draft saved")
    page.goto(f"/stages/{stages['review'].pk}/scorecard")
    page.get_by_text("This stage has no scorecard yet.").wait_for()
    assert "Found the router SPOF" not in page.locator("body").inner_text()

    admin.get_by_label("Recommendation").select_option("yes")
    admin.get_by_role("button", name="Submit scorecard").click()
    expect(admin.get_by_test_id("scorecard-status")).to_contain_text("Submitted")
    admin.screenshot(path=screenshot_path("coach-scorecard-form"))

    page.reload()
    page.get_by_text("Found the router SPOF quickly").wait_for()
    assert "Nudge on KV-cache" not in page.locator("body").inner_text()
    page.screenshot(path=screenshot_path("scorecard"), full_page=True)

    page.goto("/progress")
    page.get_by_role("heading", name="Finished stages").wait_for()
    page.screenshot(path=screenshot_path("progress"), full_page=True)
