"""An admin edits a discussion question's key points in the bank editor: adds one, is
told by path what is wrong with its pattern, fixes it, saves, and finds it again after a
reload — and each follow-up has its own key points."""

import re

import pytest
from playwright.sync_api import Page, expect

from interviews.models import Question
from tests.factories import AdminFactory

from .conftest import sign_in

pytestmark = pytest.mark.e2e


def test_admin_edits_key_points_of_a_question(
    page: Page, live_server_url, bank, screenshot_path
) -> None:
    AdminFactory(username="root-admin")
    question = Question.objects.get(slug="why-this-lab")
    shipped = len(question.key_points)
    sign_in(page, "root-admin")
    page.goto(f"/bank/questions/{question.pk}")
    editor = page.get_by_test_id("question-editor")
    editor.get_by_role("tab", name=f"Key points ({shipped})").click()
    points = editor.get_by_test_id("key-points-key_points")
    expect(points.locator(".key-point")).to_have_count(shipped)

    points.get_by_role("button", name="Add key point").click()
    new = points.locator(".key-point").last
    new.get_by_label("Point (what a strong answer says)").fill("names a paper of the lab")
    new.get_by_label("Rubric dimension").fill("Specific motivation")
    new.get_by_label(re.compile("Patterns, English")).fill("(paper")
    new.get_by_label(re.compile("Patterns, Chinese")).fill("论文")
    editor.get_by_role("button", name="Save").click()
    error = new.locator(f'[data-path="key_points[{shipped}].patterns.en"]')
    expect(error).to_contain_text("not a regular expression")
    expect(page.get_by_test_id("error-list")).to_contain_text(
        f"key_points[{shipped}].patterns.en[0]"
    )
    page.screenshot(path=screenshot_path("admin-key-points-error"), full_page=True)

    new.get_by_label(re.compile("Patterns, English")).fill("\\bpaper\\b")
    editor.get_by_role("button", name="Save").click()
    expect(page.get_by_test_id("editor-message")).to_contain_text("Saved")
    saved = Question.objects.filter(slug="why-this-lab").order_by("-version").first()
    assert saved.key_points[-1] == {
        "point": "names a paper of the lab",
        "patterns": {"en": ["\\bpaper\\b"], "zh": ["论文"]},
        "dimension": "Specific motivation",
    }

    page.reload()
    editor.get_by_role("tab", name=f"Key points ({shipped + 1})").click()
    expect(
        points.locator(".key-point").last.get_by_label("Point (what a strong answer says)")
    ).to_have_value("names a paper of the lab")
    editor.get_by_role("tab", name=re.compile("Follow-ups")).click()
    follow_up = editor.get_by_test_id("key-points-follow_ups[0].key_points")
    expect(follow_up).to_contain_text("Key points of follow-up 1")
    page.screenshot(path=screenshot_path("admin-key-points-follow-ups"), full_page=True)
