"""The import page uploads the bank file as a form (multipart) rather than reading it into
the page: the same import, the same problems listed."""

import pytest
import yaml
from django.core.files.uploadedfile import SimpleUploadedFile

from interviews import models as m
from tests.factories import AdminFactory
from tests.interviews import bank_data as data
from tests.interviews.world import client_for

pytestmark = pytest.mark.django_db
IMPORT = "/api/v1/bank/import/"


def _upload(text: str, name: str = "bank.yaml") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode("utf-8"), content_type="application/yaml")


def test_an_uploaded_bank_file_is_imported():
    admin = client_for(AdminFactory())
    text = yaml.safe_dump(data.bank(), sort_keys=False)
    response = admin.post(IMPORT, {"file": _upload(text), "verify": "0"}, format="multipart")
    assert response.status_code == 200, response.content
    assert {q["slug"] for q in response.json()["questions"]["created"]} == {
        q["slug"] for q in data.bank()["questions"]
    }
    assert m.Question.objects.exists()


def test_an_uploaded_file_with_problems_lists_them():
    admin = client_for(AdminFactory())
    response = admin.post(
        IMPORT,
        {"file": _upload("questions: [\n", "my-bank.yaml"), "verify": "0"},
        format="multipart",
    )
    assert response.status_code == 400
    assert "invalid YAML" in str(response.json()["errors"])


def test_a_form_without_the_file_is_refused():
    admin = client_for(AdminFactory())
    response = admin.post(IMPORT, {"verify": "0"}, format="multipart")
    assert response.status_code == 400
    assert "file" in response.json()["detail"]


def test_candidates_cannot_upload():
    from tests.factories import UserFactory

    response = client_for(UserFactory()).post(
        IMPORT, {"file": _upload("questions: []\n")}, format="multipart"
    )
    assert response.status_code == 403
