"""Stage detail reads the bank's structure from the cache, and never a stale one."""

import pytest
from django.core.cache.backends.redis import RedisCache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from interviews import bank_cache
from interviews import models as m
from interviews.services.bank_import import bank_import
from interviews.services.loops import loop_start
from tests.interviews.world import CANDIDATE_SECRETS

API = "/api/v1"
BANK_TABLES = (
    "interviews_part",
    "interviews_testcase",
    "interviews_followup",
    "interviews_plantedflaw",
    "interviews_dimension",
    "interviews_rubricversion",
)


def _detail(client, stage):
    response = client.get(f"{API}/stages/{stage.pk}/")
    assert response.status_code == 200, response.content
    return response.json()


def _timeless(detail: dict) -> dict:
    """The detail without the clock fields, which move between two reads."""
    return {k: v for k, v in detail.items() if k not in ("server_time", "time_remaining_ms")}


def _bank_tables_read(ctx) -> set[str]:
    return {t for q in ctx.captured_queries for t in BANK_TABLES if f'"{t}"' in q["sql"]}


@pytest.mark.parametrize("who", ["owner", "assigned"])
def test_second_read_comes_from_the_cache_and_is_identical(world, as_user, who):
    client = as_user(getattr(world, who))
    with CaptureQueriesContext(connection) as cold:
        first = _detail(client, world.coding)
    with CaptureQueriesContext(connection) as warm:
        second = _detail(client, world.coding)
    assert _bank_tables_read(cold) >= {"interviews_part", "interviews_rubricversion"}
    assert _bank_tables_read(warm) == set()
    assert _timeless(second) == _timeless(first)
    if who == "owner":  # the cache holds coach data too; none of it reaches the candidate
        assert not [secret for secret in CANDIDATE_SECRETS if secret in str(second)]
    assert [p["number"] for p in second["questions"][0]["parts"]] == (
        [1, 2, 3] if who == "assigned" else [1, 3]
    )


def test_parts_edited_in_the_django_admin_show_at_once(world, as_user):
    """Edits that go through model save/delete (the Django admin, fixes by hand) move the
    bank generation on, so no process keeps serving the old structure."""
    client = as_user(world.assigned)
    _detail(client, world.coding)
    part = m.Part.objects.get(question=world.coding_q, position=1)
    part.title = "Fixed batches, renamed"
    part.save()
    world.unlock_follow_up.delete()
    detail = _detail(client, world.coding)
    question = detail["questions"][0]
    assert question["parts"][0]["title"] == "Fixed batches, renamed"
    assert [f["prompt"] for f in question["follow_ups"]] == ["What is the complexity?"]
    # Nothing unlocks part 2 any more, so it is open.
    assert [p["locked"] for p in question["parts"]] == [False, False, False]


def test_a_rubric_reimported_with_new_dimensions_shows_them_to_new_loops(world, as_user):
    """A started stage keeps the rubric version it started with; a loop started after the
    re-import is scored on the new dimensions."""
    client = as_user(world.owner)
    assert [d["name"] for d in _detail(client, world.coding)["rubric"]["dimensions"]] == [
        "Problem solving",
        "Communication",
    ]
    levels = ["poor", "fair", "good", "great"]
    bank_import(
        {
            "rubrics": [
                {
                    "slug": "coding-default",
                    "dimensions": [{"name": "Correctness", "weight": 2, "levels": levels}],
                }
            ]
        },
        verify=False,
    )
    kept = _detail(client, world.coding)["rubric"]
    assert [d["name"] for d in kept["dimensions"]] == ["Problem solving", "Communication"]
    later = loop_start(candidate=world.owner, template=world.template)
    rubric = _detail(client, later.stages.get(position=1))["rubric"]
    assert rubric["dimensions"] == [
        {
            "name": "Correctness",
            "label": "Correctness",
            "weight": 2.0,
            "levels": levels,
            "language": "en",
            "fallback_fields": [],
        }
    ]


def test_every_bank_write_invalidates_twice_now_and_on_commit(
    world, django_capture_on_commit_callbacks
):
    """Now, and once more after commit: a read between the two may have cached the rows
    from before the commit under the new generation."""
    before = bank_cache._generation()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        m.Part.objects.filter(question=world.coding_q, position=3).get().save()
    assert bank_cache._generation() == before + 1
    assert bank_cache._bump in callbacks
    for callback in callbacks:
        callback()
    assert bank_cache._generation() == before + 2


def test_without_a_reachable_cache_stage_detail_reads_the_database(world, as_user, monkeypatch):
    client = as_user(world.assigned)
    expected = _detail(client, world.coding)
    # Connection refused (the discard port): only the bank cache loses its Redis.
    monkeypatch.setattr(bank_cache, "cache", RedisCache("redis://127.0.0.1:9/0", {}))
    detail = _detail(client, world.coding)
    assert _timeless(detail) == _timeless(expected)


def test_hidden_tests_are_not_cached(world):
    structures = bank_cache.question_structures({world.coding_q.pk})
    samples = [t for part in structures[world.coding_q.pk].parts for t in part.sample_tests]
    assert samples and {t.visibility for t in samples} == {"sample"}
    cached = bank_cache.question_structures({world.coding_q.pk})[world.coding_q.pk]
    assert [t.pk for p in cached.parts for t in p.sample_tests] == [t.pk for t in samples]
