"""Browser tests: every `page` opens against the live ASGI server (relative URLs work).

The real Celery worker (judging in the real Docker engine) comes from the integration
fixtures; they are re-exported here until they move to tests/conftest.py.
"""

import os
import re
from collections.abc import Callable, Iterator

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from tests.integration.conftest import (  # noqa: F401  (fixtures)
    _shared_worker,
    celery_worker,
    start_worker,
    worker_env,
)

PASSWORD = "pw-Correct-Horse-9"  # tests.factories.UserFactory's
# The bank the e2e tests load (a directory or file); the shipped one by default.
BANK = os.environ.get("MOCKLOOP_E2E_BANK", "bank")


@pytest.fixture(scope="session", autouse=True)
def _allow_orm_beside_playwright() -> Iterator[None]:
    # Playwright's sync API leaves an asyncio loop set on this thread for the rest of the
    # session; Django would then refuse the test process's own ORM calls (creating the
    # test database, users, flushing). The server subprocess does not inherit this.
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        yield


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict, _live_server) -> dict:
    return {
        **browser_context_args,
        "base_url": _live_server.url,
        "viewport": {"width": 1280, "height": 720},
    }


@pytest.fixture
def page(page, live_server_url):
    """The pytest-playwright page, with the live server up and a transactional test DB."""
    page.set_default_timeout(15_000)
    return page


@pytest.fixture
def bank(transactional_db) -> None:
    """The starter bank, published without running the references (the judge runs them
    in the tests that need verdicts)."""
    call_command("import_bank", BANK, "--no-verify", verbosity=0)


@pytest.fixture
def new_page(
    browser: Browser, browser_context_args: dict, live_server_url
) -> Iterator[Callable[[], Page]]:
    """`new_page()` → a page in a fresh browser context (a second person)."""
    contexts: list[BrowserContext] = []

    def make() -> Page:
        context = browser.new_context(**browser_context_args)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        return page

    yield make
    for context in contexts:
        context.close()


def sign_in(page: Page, username: str, password: str = PASSWORD) -> None:
    page.goto("/login")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("button", name="Sign out").wait_for()


def editor_text(page: Page) -> str:
    """The CodeMirror document (its lines joined), as the person sees it."""
    return page.evaluate(
        "() => Array.from(document.querySelectorAll('.cm-content .cm-line'))"
        ".map(l => l.textContent).join('\\n')"
    )


#: The coding stage of the shipped ai-lab-infra-sde loop.
CODING_STAGE = "Coding and optimisation"


def queue_row(coach: Page, candidate: str, stage_title: str = CODING_STAGE) -> Locator:
    """The coach console's queue entry of one stage (a coached loop queues every live
    round, so a candidate has several)."""
    return (
        coach.get_by_test_id("coach-queue")
        .get_by_role("row", name=candidate)
        .filter(has_text=stage_title)
    )


def start_coached_coding_stage(candidate: Page, username: str = "grace") -> int:
    """Sign in, start a coached loop and open its coding stage's room, where the candidate
    waits for a coach (the clock has not started); the stage's id."""
    sign_in(candidate, username)
    template = candidate.get_by_test_id("template-ai-lab-infra-sde")
    template.get_by_label("With a live coach").check()
    template.get_by_role("button", name="Start this loop").click()
    candidate.get_by_test_id("stage-coding").get_by_role("link", name="Wait in the room").click()
    candidate.get_by_test_id("stage-room").wait_for()
    candidate.get_by_test_id("waiting-for-coach").wait_for()
    match = re.search(r"/stages/(\d+)", candidate.url)
    assert match, candidate.url
    return int(match.group(1))


def claim(
    coach: Page,
    coach_name: str = "coach-lin",
    candidate: str = "grace",
    *,
    room: Page | None = None,
    stage_title: str = CODING_STAGE,
) -> None:
    """Sign in as the coach, claim the candidate's stage from the queue (still pending),
    start its clock from the coach's room and wait until the room is live — and, given the
    candidate's waiting `room`, until the candidate's editor is live too."""
    sign_in(coach, coach_name)
    queue_row(coach, candidate, stage_title).get_by_role("button", name="Claim").click()
    coach.get_by_test_id("coach-room").wait_for()
    expect(coach.get_by_test_id("connection")).to_have_text("Live")
    coach.get_by_test_id("coach-pending").get_by_role("button", name="Start the clock").click()
    expect(coach.get_by_test_id("stage-status")).to_have_text("live")
    if room is not None:
        expect(room.get_by_test_id("stage-status")).to_have_text("live")
        room.get_by_text("All changes saved").wait_for()
