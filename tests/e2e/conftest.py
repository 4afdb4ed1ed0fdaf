"""Browser tests: every `page` opens against the live ASGI server (relative URLs work).

The real Celery worker (judging in the real Docker engine) comes from the integration
fixtures; they are re-exported here until they move to tests/conftest.py.
"""

import os
from collections.abc import Callable, Iterator

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, BrowserContext, Page

from tests.integration.conftest import (  # noqa: F401  (fixtures)
    _shared_worker,
    celery_worker,
    start_worker,
    worker_env,
)

PASSWORD = "pw-Correct-Horse-9"  # tests.factories.UserFactory's
# The bank the e2e tests load (a directory or file); the shipped one by default.
BANK = os.environ.get("MOCKLOOP_E2E_BANK", "interviews/bank")


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
