"""Bank changes leave an audit trail: who changed which question version, and how."""

import pytest

from interviews.models import AuditEntry
from interviews.services.bank_import import bank_import
from interviews.services.questions import question_archive, question_create, question_update
from tests.factories import AdminFactory
from tests.interviews import bank_data

pytestmark = pytest.mark.django_db


def test_question_lifecycle_is_audited_with_actor_and_version():
    admin = AdminFactory()
    question = question_create(data=bank_data.discussion_question("why-here"), actor=admin)
    changed = {**bank_data.discussion_question("why-here"), "title": "Why here, really?"}
    question, created = question_update(question=question, data=changed, actor=admin)
    question_archive(question=question, actor=admin)

    entries = list(AuditEntry.objects.order_by("id"))
    assert [e.action for e in entries] == ["question.create", "question.update", "question.archive"]
    assert all(e.actor == admin for e in entries)
    assert entries[0].target_label == "why-here v1"
    assert entries[0].target_id == question.pk


def test_import_is_audited_once_and_an_identical_reimport_is_not():
    bank_import(bank_data.bank(), verify=False, label="test bank")
    bank_import(bank_data.bank(), verify=False, label="test bank")
    imports = AuditEntry.objects.filter(action="bank.import")
    assert imports.count() == 1
    assert imports.get().actor is None
    assert imports.get().detail["source"] == "test bank"
