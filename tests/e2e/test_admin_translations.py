"""An admin edits a question's translations in the bank editor: the English of each field
on the left, the translation on the right; a save keeps the version (translations are not
judged), and a translation the English no longer backs is refused at its path."""

import re

import pytest
from playwright.sync_api import Page, expect

from interviews.models import Question
from tests.factories import AdminFactory

from .conftest import sign_in

pytestmark = pytest.mark.e2e


def test_admin_edits_translations_beside_the_english(
    page: Page, live_server_url, bank, screenshot_path
) -> None:
    AdminFactory(username="root-admin")
    question = Question.objects.get(slug="top-k-tokens")
    sign_in(page, "root-admin")
    page.goto(f"/bank/questions/{question.pk}")
    editor = page.get_by_test_id("question-editor")
    editor.get_by_role("tab", name="Translations (2 languages)").click()
    panel = editor.locator(".translations-editor")
    prompt_row = panel.locator('[data-path="i18n.zh-Hans.prompt"]')
    expect(prompt_row.locator(".translations-english")).to_contain_text("Write `top_k(tokens, k)`")
    expect(prompt_row.locator("textarea")).to_have_value(re.compile("^编写 `top_k"))

    panel.get_by_role("combobox").select_option("zh-Hant")
    title = panel.locator('[data-path="i18n.zh-Hant.parts.1.title"] input')
    expect(title).to_have_value(question.i18n["zh-Hant"]["parts"]["1"]["title"])
    title.fill("計數與排名")
    page.screenshot(path=screenshot_path("admin-translations"), full_page=True)
    editor.get_by_role("button", name="Save").click()
    expect(page.get_by_test_id("editor-message")).to_contain_text("Saved")
    saved = Question.objects.filter(slug="top-k-tokens").order_by("-version").first()
    assert saved.pk == question.pk and saved.version == question.version
    assert saved.i18n["zh-Hant"]["parts"]["1"]["title"] == "計數與排名"

    # Clearing the English coach notes leaves their translation nothing to translate.
    editor.get_by_role("tab", name=re.compile("Follow-ups")).click()
    editor.locator(".coach-notes-input").first.fill("")
    editor.get_by_role("button", name="Save").click()
    errors = page.get_by_test_id("error-list")
    expect(errors).to_contain_text("i18n.zh-Hans.follow_ups.1.model_answer")
    expect(errors).to_contain_text("the English has no model_answer to translate")
    expect(editor.get_by_role("tab", name=re.compile("Translations.*⚠"))).to_be_visible()
    page.screenshot(path=screenshot_path("admin-translations-error"), full_page=True)

    # The panel lists them and drops them in one go; then the save goes through.
    editor.get_by_role("tab", name=re.compile("Translations")).click()
    expect(page.get_by_test_id("orphan-translations")).to_contain_text("2 translations")
    page.get_by_role("button", name="Remove them").click()
    editor.get_by_role("button", name="Save").click()
    expect(page.get_by_test_id("editor-message")).to_contain_text("Saved")
    latest = Question.objects.filter(slug="top-k-tokens").order_by("-version").first()
    assert "model_answer" not in latest.i18n["zh-Hans"]["follow_ups"]["1"]
    assert latest.i18n["zh-Hant"]["parts"]["1"]["title"] == "計數與排名"
