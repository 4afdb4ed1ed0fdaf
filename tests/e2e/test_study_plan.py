"""The two-week plan in the browser: a candidate opens it from the top bar, starts it,
practises a day's stage from it, sees it marked done, and reads it in Chinese."""

import pytest
from playwright.sync_api import Page, expect

from interviews.models import Stage
from interviews.services.stages import stage_finish
from tests.factories import UserFactory

from .conftest import sign_in

pytestmark = pytest.mark.e2e


def test_a_candidate_follows_the_two_week_plan(page: Page, live_server_url, bank, screenshot_path):
    UserFactory(username="plan-pei")
    sign_in(page, "plan-pei")
    page.get_by_role("link", name="Plan", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Two weeks to the AI-lab infrastructure loop"
    )
    expect(page.locator(".plan-day")).to_have_count(14)
    page.get_by_role("button", name="Start the plan today").click()
    expect(page.get_by_test_id("plan-today")).to_have_text("Day 1 of 14")

    day1 = page.get_by_test_id("plan-day-1")
    day1.get_by_role("button", name="Practise").first.click()
    page.get_by_test_id("stage-room").wait_for()
    stage = Stage.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
    assert (stage.loop.template.slug, stage.position) == ("infra-coding-practice", 1)

    Stage.objects.filter(pk=stage.pk).update(status="live")
    stage_finish(stage=Stage.objects.get(pk=stage.pk), actor=stage.loop.candidate)
    page.goto("/plan")
    day1 = page.get_by_test_id("plan-day-1")
    expect(day1.get_by_test_id("plan-practice").first).to_contain_text("done")
    expect(day1.get_by_role("link", name="Review")).to_have_attribute("href", f"/stages/{stage.pk}")
    page.screenshot(path=screenshot_path("plan-en"), full_page=True)

    page.get_by_label("Language").select_option("zh-Hans")
    expect(page.get_by_role("heading", level=1)).to_have_text("两周备战 AI 实验室基础设施面试")
    expect(page.get_by_test_id("plan-today")).to_have_text("第 1 天，共 14 天")
    expect(page.get_by_test_id("plan-day-1")).to_contain_text("并发与缓存")
    page.screenshot(path=screenshot_path("plan-zh-Hans"), full_page=True)
