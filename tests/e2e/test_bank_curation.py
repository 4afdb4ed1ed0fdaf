"""Bank curation in the browser: Publish is disabled with the reason on a coding question
that is not verified or failed verification; in-app navigation away from unsaved edits asks
first; a review document edit that changes a planted flaw's text shows the re-anchor
prompt, and confirming it saves the flaw where it now belongs."""

import re

import pytest
from playwright.sync_api import Page, expect

from interviews.models import Question
from interviews.services.bank_import import bank_import
from tests.factories import AdminFactory
from tests.interviews import bank_data as data

from .conftest import sign_in

pytestmark = pytest.mark.e2e


def _draft_adder() -> Question:
    question = {**data.coding_question("e2e-unverified"), "status": "draft"}
    bank_import({"questions": [question], "rubrics": [data.rubric()]}, verify=False)
    return Question.objects.get(slug="e2e-unverified")


def test_publish_is_disabled_with_the_reason_until_verified(
    page: Page, live_server_url, transactional_db, screenshot_path
) -> None:
    AdminFactory(username="curator")
    question = _draft_adder()
    sign_in(page, "curator")
    page.goto(f"/bank/questions/{question.pk}")
    publish = page.get_by_role("button", name="Publish")
    expect(publish).to_be_disabled()
    expect(page.get_by_test_id("publish-blocked")).to_contain_text("Not verified yet")
    page.screenshot(path=screenshot_path("editor-publish-unverified"), full_page=True)

    Question.objects.filter(pk=question.pk).update(
        verification={
            "state": "failed",
            "done": 5,
            "total": 5,
            "failures": ["python: parts[0].samples[0] wrong_answer (sample 1 of part 1)"],
        }
    )
    page.reload()
    expect(publish).to_be_disabled()
    expect(page.get_by_test_id("publish-blocked")).to_contain_text("Verification failed")
    expect(page.get_by_test_id("verify-failed")).to_be_visible()
    assert "/api/" not in page.get_by_test_id("publish-blocked").inner_text()
    page.screenshot(path=screenshot_path("editor-publish-failed"), full_page=True)


def test_leaving_unsaved_edits_in_the_app_asks_first(
    page: Page, live_server_url, transactional_db
) -> None:
    AdminFactory(username="curator")
    question = _draft_adder()
    sign_in(page, "curator")
    page.goto(f"/bank/questions/{question.pk}")
    editor = page.get_by_test_id("question-editor")
    editor.get_by_label("Title").fill("Half-edited title")
    expect(page.get_by_text("Unsaved changes")).to_be_visible()

    asked: list[str] = []

    def dismiss(dialog) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", dismiss)
    page.get_by_role("link", name="Question bank").first.click()
    for _ in range(50):  # the blocker asks from an effect, just after the click
        if asked:
            break
        page.wait_for_timeout(100)
    assert asked and "unsaved changes" in asked[0]
    expect(editor.get_by_label("Title")).to_have_value("Half-edited title")
    assert re.search(rf"/bank/questions/{question.pk}$", page.url)

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("link", name="Question bank").first.click()
    page.wait_for_url(re.compile(r"/bank/?$"))


def test_a_doc_edit_inside_a_flaw_asks_to_re_anchor(
    page: Page, live_server_url, transactional_db, screenshot_path
) -> None:
    AdminFactory(username="curator")
    bank_import({"questions": [data.review_question("e2e-doc")]}, verify=False)
    question = Question.objects.get(slug="e2e-doc")
    sign_in(page, "curator")
    page.goto(f"/bank/questions/{question.pk}")
    editor = page.get_by_test_id("question-editor")
    editor.get_by_role("tab", name=re.compile("Design doc")).click()
    editor.get_by_role("button", name="Edit text").click()
    lines = data.DOCUMENT.splitlines()
    edited = [
        "# Serving design, revised",
        *lines[:3],
        "A sentence added inside flaw 1.",
        *lines[3:],
    ]
    editor.get_by_label("Document (markdown)").fill("\n".join(edited) + "\n")
    editor.get_by_role("button", name="Save").click()

    prompt = page.get_by_test_id("reanchor-prompt")
    expect(prompt).to_be_visible()
    expect(prompt).to_contain_text("Flaw #1 · spof")
    expect(prompt).to_contain_text("lines 3–5 → lines 4–7")
    expect(prompt).to_contain_text("A sentence added inside flaw 1.")
    page.screenshot(path=screenshot_path("editor-reanchor-prompt"), full_page=True)

    prompt.get_by_role("button", name="Move it as proposed and save").click()
    expect(page.get_by_test_id("editor-message")).to_contain_text("Saved v1 in place.")
    expect(prompt).to_have_count(0)
    flaw = Question.objects.get(pk=question.pk).flaws.get()
    assert (flaw.line_start, flaw.line_end) == (4, 7)


def test_the_import_page_uploads_the_chosen_file(
    page: Page, live_server_url, transactional_db, tmp_path
) -> None:
    import yaml

    AdminFactory(username="curator")
    bank_file = tmp_path / "uploaded-bank.yaml"
    bank_file.write_text(yaml.safe_dump(data.bank(), sort_keys=False), encoding="utf-8")
    sign_in(page, "curator")
    page.goto("/bank/transfer")
    page.get_by_label("YAML file").set_input_files(str(bank_file))
    expect(page.get_by_label("Bank YAML")).to_be_disabled()  # the file is not read in
    expect(page.get_by_label("Bank YAML")).to_have_value("")
    page.get_by_label(re.compile("Verify every new coding reference")).uncheck()
    page.get_by_role("button", name="Import uploaded-bank.yaml").click()
    expect(page.get_by_test_id("import-result")).to_contain_text("Imported")
    assert Question.objects.filter(slug=data.bank()["questions"][0]["slug"]).exists()
