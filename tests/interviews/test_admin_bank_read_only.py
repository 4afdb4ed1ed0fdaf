"""The Django admin cannot change a published version in place: versioned bank rows are
read-only there (the editor's services make new versions), and a re-import compares the
content a version holds, so a row changed outside the services never reads "unchanged"."""

import pytest

from interviews import models as m
from interviews.services.bank_import import bank_import
from tests.interviews import bank_data as data

MODELS = {
    "question": m.Question,
    "part": m.Part,
    "testcase": m.TestCase,
    "followup": m.FollowUp,
    "plantedflaw": m.PlantedFlaw,
    "rubric": m.Rubric,
    "dimension": m.Dimension,
}


@pytest.fixture
def admin_client(world, client):
    client.force_login(world.admin)
    return client


def _published_verified() -> m.Question:
    bank_import({"questions": [data.coding_question()], "rubrics": [data.rubric()]}, verify=False)
    question = m.Question.objects.get(slug="adder")
    m.Question.objects.filter(pk=question.pk).update(verified_at="2026-01-01T00:00:00Z")
    question.refresh_from_db()
    assert question.status == "published" and question.is_verified
    return question


def test_the_question_change_view_is_read_only_and_refuses_a_post(admin_client):
    question = _published_verified()
    url = f"/admin/interviews/question/{question.pk}/change/"
    page = admin_client.get(url)
    assert page.status_code == 200
    body = page.content.decode()
    assert 'name="reference"' not in body  # shown, not editable
    assert f"/bank/questions/{question.pk}" in body

    response = admin_client.post(
        url,
        {
            "slug": "adder",
            "version": 1,
            "kind": "coding",
            "title": "Changed in place",
            "difficulty": "easy",
            "tags": "[]",
            "status": "published",
            "reference": '{"python": "print(0)"}',
        },
    )
    assert response.status_code == 403
    question.refresh_from_db()
    assert question.title == "Add numbers"
    assert question.reference == {"python": data.REFERENCE_CODE}
    assert question.is_verified
    assert m.Question.objects.filter(slug="adder").count() == 1


@pytest.mark.parametrize("model", list(MODELS))
def test_versioned_bank_rows_cannot_be_added_changed_or_deleted(admin_client, model):
    _published_verified()
    bank_import({"questions": [data.review_question()], "rubrics": [data.rubric()]}, verify=False)
    row = MODELS[model].objects.first()
    before = {f.name: getattr(row, f.attname) for f in row._meta.concrete_fields}
    assert admin_client.get(f"/admin/interviews/{model}/add/").status_code == 403
    assert admin_client.post(f"/admin/interviews/{model}/add/", {}).status_code == 403
    assert admin_client.post(f"/admin/interviews/{model}/{row.pk}/change/", {}).status_code == 403
    assert (
        admin_client.post(
            f"/admin/interviews/{model}/{row.pk}/delete/", {"post": "yes"}
        ).status_code
        == 403
    )
    row.refresh_from_db()
    assert {f.name: getattr(row, f.attname) for f in row._meta.concrete_fields} == before


def test_the_admin_actions_still_verify_and_publish_through_the_services(admin_client):
    question = _published_verified()
    m.Question.objects.filter(pk=question.pk).update(status="draft")
    response = admin_client.post(
        "/admin/interviews/question/",
        {"action": "publish", "_selected_action": [question.pk]},
        follow=True,
    )
    assert response.status_code == 200
    question.refresh_from_db()
    assert question.status == "published"


def test_a_version_changed_outside_the_services_is_not_unchanged_on_reimport(db):
    question = _published_verified()
    # What the old admin did: the reference rewritten in place, the fingerprint left as is.
    m.Question.objects.filter(pk=question.pk).update(reference={"python": "print(0)"})
    m.TestCase.objects.filter(part__question=question, visibility="hidden").update(output="7\n")

    result = bank_import(
        {"questions": [data.coding_question()], "rubrics": [data.rubric()]}, verify=False
    )
    assert [(q.slug, q.version) for q in result.created] == [("adder", 2)]
    assert result.unchanged == []
    newest = m.Question.objects.get(slug="adder", version=2)
    assert newest.reference == {"python": data.REFERENCE_CODE}
