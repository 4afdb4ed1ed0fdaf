"""A big bank's export streams: the YAML download (and `export_bank`) is written a few
questions at a time, never built in memory at once, and its bytes are exactly the bank
file `bank_dump(bank_export())` gives."""

import copy

import pytest

from interviews.bankfile.format import bank_dump
from interviews.selectors import bank as bank_selectors
from interviews.selectors.bank import bank_export, bank_export_chunks
from interviews.services.bank_import import bank_import
from tests.factories import AdminFactory
from tests.interviews import bank_data as data
from tests.interviews.world import client_for

pytestmark = pytest.mark.django_db

QUESTIONS = 60
HIDDEN_BYTES = 60_000  # ≈ 3.6 MB of hidden tests in all: big enough to stream, still quick


def _big_bank() -> dict:
    questions = []
    for n in range(QUESTIONS):
        question = copy.deepcopy(data.coding_question(f"big-{n:03d}"))
        big = " ".join(str(i % 997) for i in range(HIDDEN_BYTES // 4))[:HIDDEN_BYTES]
        question["coding"]["parts"][0]["hidden"].append({"input": big + "\n", "output": "0\n"})
        questions.append(question)
    return {"questions": questions, "rubrics": [data.rubric()]}


@pytest.fixture
def big_bank():
    bank_import(_big_bank(), verify=False)


def test_the_download_streams_in_chunks_with_the_bank_files_exact_bytes(big_bank):
    response = client_for(AdminFactory()).get("/api/v1/bank/export/")
    assert response.status_code == 200
    assert response.streaming
    chunks = list(response.streaming_content)
    whole = b"".join(chunks)
    assert whole.decode() == bank_dump(bank_export())
    assert len(whole) > 3_000_000
    assert len(chunks) >= QUESTIONS // bank_selectors.EXPORT_BATCH
    assert max(len(chunk) for chunk in chunks) < len(whole) / 2


def test_chunks_are_produced_lazily(big_bank, django_assert_max_num_queries):
    chunks = bank_export_chunks()
    with django_assert_max_num_queries(6):  # the id list and the first batch, no more
        first = next(chunks)
    assert first.startswith("questions:\n")
    rest = "".join(chunks)
    assert first + rest == bank_dump(bank_export())


def test_sections_can_be_left_out(big_bank):
    text = "".join(bank_export_chunks(sections=["rubrics"]))
    assert text == bank_dump({"rubrics": bank_export()["rubrics"]})
