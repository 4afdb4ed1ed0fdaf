"""A candidate who forgot their password asks for a link, opens it from the mail (the
console backend's, as in development), sets a new password and signs in with it; then
changes their time zone and language on the settings page."""

import re
import time

import pytest
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from playwright.sync_api import expect

from interviews.models import AccountProfile
from tests.factories import UserFactory

from .conftest import sign_in

pytestmark = pytest.mark.e2e

NEW_PASSWORD = "another-Battery-Staple-7"


def mailed_reset_path(log_path, uid: str, timeout_s: float = 15) -> str:
    """The reset link's path and query from the mail the server printed (console backend)."""
    pattern = re.compile(r"https?://[^/\s]+(/reset-password\?uid=" + re.escape(uid) + r"&\S+)")
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        found = pattern.findall(log_path.read_text(errors="replace"))
        if found:
            return found[-1]
        time.sleep(0.2)
    raise AssertionError("no reset mail in the server's output")


def test_a_candidate_resets_a_forgotten_password_and_changes_settings(
    page, _live_server, screenshot_path
) -> None:
    user = UserFactory(username="ada", email="ada@example.com")
    page.goto("/login")
    page.get_by_role("link", name="Forgot your password?").click()
    page.get_by_label("Email", exact=True).fill("ada@example.com")
    page.get_by_role("button", name="Mail me a link").click()
    expect(page.get_by_role("status")).to_contain_text("If an account has this address")
    page.screenshot(path=screenshot_path("account-forgot-password"))

    path = mailed_reset_path(_live_server.log_path, urlsafe_base64_encode(force_bytes(user.pk)))
    page.goto(path)
    page.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    page.get_by_role("button", name="Set the new password").click()
    expect(page.get_by_role("status")).to_contain_text("Your password is changed")
    page.screenshot(path=screenshot_path("account-reset-password"))

    page.get_by_role("link", name="Sign in").first.click()
    sign_in(page, "ada", NEW_PASSWORD)

    page.get_by_title("Account settings").click()
    page.get_by_role("heading", name="Account settings").wait_for()
    page.locator("select[name=time_zone]").select_option("Asia/Tokyo")
    page.locator("select[name=language]").select_option("zh-Hant")
    page.get_by_role("button", name="Save settings").click()
    # Saved, and the interface is in the saved language at once.
    expect(page.get_by_text("設定已儲存。")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hant")
    page.screenshot(path=screenshot_path("account-settings"), full_page=True)
    profile = AccountProfile.objects.get(user=user)
    assert (profile.time_zone, profile.language) == ("Asia/Tokyo", "zh-Hant")
