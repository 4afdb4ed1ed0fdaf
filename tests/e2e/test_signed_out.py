"""A sign-in that ends on the server ends in the browser too: logout in another tab of the
same session closes the room's socket with 4401, and the room sends the person to sign in
again, saying why — instead of a room that keeps reconnecting or shows "Not allowed"."""

import pytest
from playwright.sync_api import expect

from tests.factories import UserFactory

from .conftest import start_coached_coding_stage

pytestmark = pytest.mark.e2e


def test_logout_elsewhere_sends_the_room_to_sign_in_with_a_message(
    page, live_server_url, bank, screenshot_path
) -> None:
    UserFactory(username="grace")
    start_coached_coding_stage(page)

    other_tab = page.context.new_page()
    other_tab.goto("/")
    other_tab.get_by_role("button", name="Sign out").click()
    other_tab.wait_for_url("**/login")

    notice = page.get_by_role("status").filter(has_text="You were signed out")
    expect(notice).to_be_visible()
    assert "/login" in page.url and "ended=1" in page.url
    assert "next=%2Fstages%2F" in page.url  # signing in again goes back to the room
    page.screenshot(path=screenshot_path("signed-out-elsewhere"))
