"""(d) A candidate cannot reach another candidate's loop or stage, nor any coach page: each
shows a clear not-found / not-allowed page."""

import pytest

from interviews.models import LoopTemplate
from interviews.services.loops import loop_start
from tests.factories import UserFactory

from .conftest import sign_in

pytestmark = pytest.mark.e2e


def test_candidate_cannot_open_someone_elses_loop_or_coach_pages(
    page, live_server_url, bank, screenshot_path
) -> None:
    UserFactory(username="mallory")
    victim = UserFactory(username="victim")
    loop = loop_start(
        candidate=victim, template=LoopTemplate.objects.get(slug="ai-lab-infra-sde"), coached=True
    )
    stage = loop.stages.order_by("position").first()

    sign_in(page, "mallory")
    page.goto(f"/loops/{loop.pk}")
    problem = page.get_by_test_id("problem")
    problem.wait_for()
    assert "Not found" in problem.inner_text()
    assert "victim" not in page.locator("body").inner_text()
    page.screenshot(path=screenshot_path("not-found"))

    page.goto(f"/stages/{stage.pk}")
    page.get_by_test_id("problem").get_by_text("Not found").wait_for()

    page.goto("/coach")
    page.get_by_test_id("problem").get_by_text("Not allowed").wait_for()
    page.screenshot(path=screenshot_path("forbidden"))
    page.goto(f"/coach/stages/{stage.pk}")
    page.get_by_test_id("problem").get_by_text("Not allowed").wait_for()
    # The nav offers no coach console to a candidate.
    assert page.get_by_role("link", name="Coach console").count() == 0
