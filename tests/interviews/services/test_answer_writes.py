"""Autosaves of one answer that arrive while an earlier one is being written are merged
into one write: last write wins per field, and no save returns before its fields are
committed."""

import threading
import time

import pytest
from django.db import connection

from interviews import models as m
from interviews.services import answers
from tests.interviews.world import build_world

pytestmark = pytest.mark.django_db(transaction=True)


def test_saves_arriving_during_a_write_are_merged_into_the_next_one(monkeypatch):
    world = build_world()
    stage, question = world.coding, world.coding_q
    release = threading.Event()
    write = answers._answer_write
    writes: list[dict] = []

    def slow_write(**kwargs):
        writes.append(dict(kwargs["changes"]))
        if len(writes) == 1:
            assert release.wait(10)  # the database is busy with the first save
        return write(**kwargs)

    monkeypatch.setattr(answers, "_answer_write", slow_write)
    results: dict[int, m.Answer | BaseException] = {}

    def save(n: int, **fields) -> None:
        try:
            results[n] = answers.answer_save(
                stage=stage, actor=world.owner, question=question, **fields
            )
        except BaseException as exc:
            results[n] = exc
        finally:
            connection.close()

    first = threading.Thread(target=save, args=(0,), kwargs={"text": "v0"})
    first.start()
    while not writes:
        time.sleep(0.01)
    later = []
    for n, fields in enumerate(
        [{"text": "v1"}, {"notes": {"a": "n2"}}, {"text": "v3"}, {"scene": {"s": 4}}], start=1
    ):
        thread = threading.Thread(target=save, args=(n,), kwargs=fields)
        thread.start()
        later.append(thread)
        time.sleep(0.05)  # arrival order
    assert len(writes) == 1  # all four wait for the first write
    release.set()
    for thread in [first, *later]:
        thread.join(10)

    assert writes == [
        {"text": "v0"},
        {"text": "v3", "notes": {"a": "n2"}, "scene": {"s": 4}},  # v1 lost to v3: later wins
    ]
    assert results[0].text == "v0"
    for n in range(1, 5):
        answer = results[n]
        assert (answer.text, answer.notes, answer.scene) == ("v3", {"a": "n2"}, {"s": 4})
    stored = m.Answer.objects.get(stage=stage, question=question)
    assert (stored.text, stored.notes, stored.scene) == ("v3", {"a": "n2"}, {"s": 4})


def test_a_save_to_a_finished_stage_is_refused_and_changes_nothing():
    world = build_world()
    stage, question = world.coding, world.coding_q
    answers.answer_save(stage=stage, actor=world.owner, question=question, text="kept")
    m.Stage.objects.filter(pk=stage.pk).update(status="done")
    with pytest.raises(answers.StateConflict):
        answers.answer_save(stage=stage, actor=world.owner, question=question, text="late")
    assert m.Answer.objects.get(stage=stage, question=question).text == "kept"


def test_a_save_waiting_for_another_s_write_gives_its_database_connection_back(monkeypatch):
    """On PostgreSQL a web process lends few connections (DB_POOL_MAX_SIZE): saves queued
    behind a write must not hold them, or every other request of the process stalls."""
    world = build_world()
    stage, question = world.coding, world.coding_q
    release = threading.Event()
    write = answers._answer_write
    writes: list[dict] = []

    def slow_write(**kwargs):
        writes.append(dict(kwargs["changes"]))
        if len(writes) == 1:
            assert release.wait(10)
        return write(**kwargs)

    monkeypatch.setattr(answers, "_answer_write", slow_write)
    held_after: dict[int, bool] = {}

    def save(n: int) -> None:
        connection.ensure_connection()  # as a request that authenticated first
        try:
            answers.answer_save(stage=stage, actor=world.owner, question=question, text=f"v{n}")
            held_after[n] = connection.connection is not None
        finally:
            connection.close()

    threads = [threading.Thread(target=save, args=(0,))]
    threads[0].start()
    while not writes:
        time.sleep(0.01)
    for n in (1, 2):
        threads.append(threading.Thread(target=save, args=(n,)))
        threads[-1].start()
        time.sleep(0.05)
    release.set()
    for thread in threads:
        thread.join(10)
    assert len(writes) == 2  # the two waiting saves were merged into one write
    assert held_after[0] is True  # the first writer kept its connection throughout
    assert sorted(held_after[n] for n in (1, 2)) == [False, True]  # the second write's
    # writer connected again to write; the save it carried never did
    assert m.Answer.objects.get(stage=stage, question=question).text == "v2"
