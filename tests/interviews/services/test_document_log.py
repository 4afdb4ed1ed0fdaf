"""The event log of a shared document stays bounded: past LOG_MAX_BYTES its updates are
folded into one (services/documents.py), and the document, resync and replay still come
out the same."""

import base64

import pytest
from django.utils import timezone
from pycrdt import Doc, Text

from interviews.models import StageEvent, StageQuestion
from interviews.services import documents
from tests.factories import CodingQuestionFactory, StageFactory

pytestmark = pytest.mark.django_db


def _live_stage():
    stage = StageFactory(status="live", started_at=timezone.now())
    question = CodingQuestionFactory()
    StageQuestion.objects.create(stage=stage, question=question, position=1)
    return stage, f"code:{question.pk}"


def _type(stage, name: str, doc: Doc, text: str, *, replace: bool = False) -> None:
    """Append `text` to the shared code (or replace it all, as a paste over a selection
    does) as the candidate's editor would: one update."""
    before = doc.get_state()
    code = doc.get("code", type=Text)
    if replace and len(str(code)):
        del code[0 : len(str(code))]
    code.insert(len(str(code)), text)
    update = doc.get_update(before)
    documents.document_update_apply(
        stage=stage,
        actor=stage.loop.candidate,
        name=name,
        update_b64=base64.b64encode(update).decode(),
    )


def _replayed(stage, name: str) -> str:
    doc = Doc()
    for payload in StageEvent.objects.filter(stage=stage, type="doc.update").order_by("seq"):
        if payload.payload["doc"] == name:
            doc.apply_update(base64.b64decode(payload.payload["update"]))
    return str(doc.get("code", type=Text))


def _log_bytes(stage) -> int:
    rows = StageEvent.objects.filter(stage=stage, type="doc.update")
    return sum(len(row.payload["update"]) for row in rows)


def test_large_updates_are_folded_and_the_document_is_unchanged(monkeypatch):
    monkeypatch.setattr(documents, "LOG_MAX_BYTES", 40_000)
    monkeypatch.setattr(documents, "LOG_CHECK_EVERY", 5)
    stage, name = _live_stage()
    editor = Doc()
    chunks = [f"<{i}>" + "x" * 3000 for i in range(60)]
    for chunk in chunks:
        _type(stage, name, editor, chunk, replace=True)
    expected = chunks[-1]
    # Without folding the log would hold ~240 KB of a 3 KB document.
    assert _log_bytes(stage) < 40_000 + 5 * 4_100
    # Every event is still there, in order: resync and replay see contiguous seqs.
    rows = StageEvent.objects.filter(stage=stage).order_by("seq")
    seqs = list(rows.values_list("seq", flat=True))
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
    assert _replayed(stage, name) == expected
    assert documents.document_state(stage=stage, name=name).text == expected


def test_ordinary_typing_is_never_folded(monkeypatch):
    monkeypatch.setattr(documents, "LOG_CHECK_EVERY", 5)
    stage, name = _live_stage()
    editor = Doc()
    for char in "def solve():\n    return 42\n":
        _type(stage, name, editor, char)
    updates = [
        e.payload["update"] for e in StageEvent.objects.filter(stage=stage, type="doc.update")
    ]
    assert documents.EMPTY_UPDATE_B64 not in updates
    assert _replayed(stage, name) == "def solve():\n    return 42\n"
