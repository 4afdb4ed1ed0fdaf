"""The candidate's pages on a phone (390 × 844): the dashboard, the loop page, a stage's
feedback, the loop report and the progress page fit the screen (nothing scrolls
sideways, Sign out is fully visible), and a room below tablet width says it needs a
wider screen instead of breaking."""

import pytest
from playwright.sync_api import Page, expect

from interviews.models import LoopTemplate, Stage
from interviews.services.answers import answer_save
from interviews.services.loops import loop_start
from interviews.services.stages import stage_finish, stage_start
from tests.factories import UserFactory

from .conftest import sign_in

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}


def _fits(page: Page) -> dict:
    return page.evaluate(
        """() => {
          const out = Array.from(document.querySelectorAll('.topbar button'))
            .find(b => b.textContent.trim() === 'Sign out');
          const r = out.getBoundingClientRect();
          const wide = Array.from(document.querySelectorAll('body *'))
            .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
            .slice(0, 5).map(e => e.tagName + '.' + e.className);
          return {scroll: document.documentElement.scrollWidth, left: r.left, right: r.right,
                  top: r.top, bottom: r.bottom, inner: window.innerWidth, wide};
        }"""
    )


def test_the_candidate_pages_fit_a_phone(page: Page, live_server_url, bank, screenshot_path):
    candidate = UserFactory(username="phone-pia")
    loop = loop_start(
        candidate=candidate, template=LoopTemplate.objects.get(slug="ai-lab-infra-sde")
    )
    screen = loop.stages.get(kind="screen")
    stage_start(stage=screen, actor=candidate)
    question = screen.stage_questions.order_by("position").first().question
    answer_save(
        stage=screen,
        actor=candidate,
        question=question,
        text="I read the responsible scaling policy; the largest risk is misuse of agents.",
    )
    stage_finish(stage=Stage.objects.get(pk=screen.pk), actor=candidate)
    page.set_viewport_size(PHONE)
    sign_in(page, "phone-pia")
    pages = {
        "dashboard": "/",
        "loop": f"/loops/{loop.pk}",
        "feedback": f"/stages/{screen.pk}/scorecard",
        "report": f"/loops/{loop.pk}/report",
        "progress": "/progress",
    }
    problems = {}
    for name, url in pages.items():
        page.goto(url)
        page.locator("main").first.wait_for()
        page.wait_for_load_state("networkidle")
        page.screenshot(path=screenshot_path(f"phone-{name}"), full_page=True)
        fits = _fits(page)
        if not (
            fits["scroll"] <= PHONE["width"]
            and fits["left"] >= 0
            and fits["right"] <= PHONE["width"]
        ):
            problems[name] = fits
    assert problems == {}


def test_a_room_on_a_phone_asks_for_a_wider_screen(
    page: Page, live_server_url, bank, screenshot_path
):
    candidate = UserFactory(username="phone-pedro")
    loop = loop_start(
        candidate=candidate, template=LoopTemplate.objects.get(slug="ai-lab-infra-sde")
    )
    coding = loop.stages.get(kind="coding")
    stage_start(stage=coding, actor=candidate)
    page.set_viewport_size(PHONE)
    sign_in(page, "phone-pedro")
    page.goto(f"/stages/{coding.pk}")
    notice = page.get_by_test_id("room-too-narrow")
    expect(notice).to_contain_text("needs a wider screen")
    page.screenshot(path=screenshot_path("phone-room"), full_page=True)
    assert _fits(page)["scroll"] <= PHONE["width"]
    page.set_viewport_size({"width": 1024, "height": 768})
    expect(notice).to_have_count(0)
    page.get_by_test_id("stage-room").wait_for()
