"""The small things on the candidate's screens, in a real browser: the dashboard shows the
live stage and its clock, the loop page disables Start elsewhere while a stage is live,
and a run on custom input shows the program's output and no verdict (real worker, real
Docker engine)."""

import re

import pytest
from playwright.sync_api import expect

from interviews.models import LoopTemplate
from interviews.services.loops import loop_start
from interviews.services.stages import stage_start
from tests.factories import UserFactory

from .conftest import sign_in

pytestmark = pytest.mark.e2e


def test_the_live_stage_is_on_the_dashboard_and_blocks_other_starts(
    page, live_server_url, bank, screenshot_path
) -> None:
    candidate = UserFactory(username="mira")
    loop = loop_start(
        candidate=candidate, template=LoopTemplate.objects.get(slug="ai-lab-infra-sde")
    )
    values = loop.stages.get(kind="values")
    stage_start(stage=values, actor=candidate)
    sign_in(page, "mira")

    live = page.get_by_test_id("live-stage")
    expect(live).to_contain_text("Culture and technical values")
    expect(page.get_by_test_id("live-stage-clock")).to_have_text(re.compile(r"^4\d:\d\d left$"))
    expect(page.get_by_text("0 of 8 stages done")).to_be_visible()
    page.screenshot(path=screenshot_path("dashboard-live-stage"), full_page=True)

    live.get_by_role("link", name="Open").click()
    page.get_by_test_id("stage-room").wait_for()
    page.goto(f"/loops/{loop.pk}")
    coding = page.get_by_test_id("stage-coding")
    expect(coding.get_by_role("button", name="Start")).to_be_disabled()
    expect(coding).to_contain_text("Finish Culture and technical values first")
    page.screenshot(path=screenshot_path("loop-page-one-live"), full_page=True)


def test_a_custom_input_run_shows_the_output_and_no_verdict(
    page, live_server_url, bank, celery_worker, screenshot_path
) -> None:
    candidate = UserFactory(username="omar")
    loop = loop_start(
        candidate=candidate, template=LoopTemplate.objects.get(slug="ai-lab-infra-sde")
    )
    coding = loop.stages.get(kind="coding")
    stage_start(stage=coding, actor=candidate)
    sign_in(page, "omar")
    page.goto(f"/stages/{coding.pk}")
    page.get_by_test_id("connection").get_by_text("Live").wait_for()
    page.locator(".cm-content").click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.insert_text("import sys\nprint(sys.stdin.read().upper(), end='')\n")
    page.get_by_text("All changes saved").wait_for()
    page.get_by_label("Custom input").check()
    page.get_by_label("Input (stdin) for the run").fill("hello kv cache\n")
    page.get_by_role("button", name="Run with input").click()

    head = page.locator(".submission-head", has_text="Run on your input")
    expect(head.get_by_test_id("verdict")).to_have_text("ran", timeout=60_000)
    expect(head).not_to_contain_text("passed")
    expect(page.get_by_test_id("custom-output")).to_have_text("HELLO KV CACHE\n")
    expect(page.get_by_test_id("submission-result")).not_to_contain_text("Expected")
    page.screenshot(path=screenshot_path("custom-input-run"), full_page=True)
