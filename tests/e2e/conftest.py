"""Browser tests: every `page` opens against the live ASGI server (relative URLs work)."""

from collections.abc import Iterator

import pytest


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
    return {**browser_context_args, "base_url": _live_server.url}


@pytest.fixture
def page(page, live_server_url):
    """The pytest-playwright page, with the live server up and a transactional test DB."""
    return page
