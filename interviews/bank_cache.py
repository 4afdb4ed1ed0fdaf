"""The bank's structure as stage detail reads it, cached in the shared cache.

Stage detail is the page every candidate and coach reloads. Half of its cost was loading,
on every request, the same parts (with sample tests), follow-ups, planted flaws and rubric
dimensions of question versions that never change once a stage uses them. Here they are
kept in the shared cache (Redis in production), under a *bank generation*: any save or
delete of a bank row (from the API, an import or the Django admin) moves the generation
on, so every process stops reading the old entries at once. Bank edits are rare; a
global generation is simpler than tracking which question each row belongs to.

Writes that bypass model signals (`QuerySet.update`, `bulk_create` without a saved
parent) must call `bank_changed()` themselves.

If the cache is unreachable, everything is read from the database: the cache only saves
work. Hidden tests are never loaded here.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models import Prefetch
from django.db.models.signals import post_delete, post_save

from interviews.models import (
    Dimension,
    FollowUp,
    Part,
    PlantedFlaw,
    Question,
    Rubric,
    RubricVersion,
    StageQuestion,
    TestCase,
)

log = logging.getLogger(__name__)

GENERATION_KEY = "bank:generation"
# Bounds how long an entry could outlive a lost generation bump (e.g. Redis down).
ENTRY_SECONDS = 600
BANK_MODELS = (Question, Part, TestCase, FollowUp, PlantedFlaw, Rubric, Dimension)
#: Which questions a stage asks: fixed when its loop starts (one `bulk_create`, no
#: signal), changed after only in the Django admin, so its writes move the generation on
#: too and a stage's question ids may be kept in the process memo.
STAGE_LINK_MODELS = (StageQuestion,)


@dataclass
class QuestionStructure:
    """What stage detail shows of one question version besides its own row."""

    parts: list[Part] = field(default_factory=list)  # each with `sample_tests`
    follow_ups: list[FollowUp] = field(default_factory=list)
    flaws: list[PlantedFlaw] = field(default_factory=list)


# --- the generation ----------------------------------------------------------------------


def _start_generation() -> bool:
    """Set the generation if it is missing (True if this call set it). A fresh start
    value, not 1: entries of an evicted generation must never match."""
    return cache.add(GENERATION_KEY, time.time_ns(), timeout=None)


def _bump() -> None:
    try:
        if _start_generation():
            return
        cache.incr(GENERATION_KEY)
    except ValueError:  # expired between add and incr
        _start_generation()
    except Exception as error:  # e.g. `make run`'s set-up, before its Redis has started
        log.warning("bank cache: could not move the generation on (%s)", error)
        log.debug("bank cache: generation bump failed", exc_info=True)


def bank_changed() -> None:
    """Invalidate every cached structure: now, and again once the transaction commits
    (a read between the two could otherwise cache the rows from before the commit)."""
    _bump()
    transaction.on_commit(_bump)


def _generation() -> int:
    generation = cache.get(GENERATION_KEY)
    if generation is None:
        _start_generation()
        generation = cache.get(GENERATION_KEY)
    return int(generation)


def bank_generation() -> int | None:
    """The current generation, or None when the cache is unreachable. A process may keep
    its own copy of bank rows under this number (the judge worker keeps a part's tests),
    and must read the database when it is None."""
    try:
        return _generation()
    except Exception:
        log.warning("bank cache: unreachable, reading the database", exc_info=True)
        return None


def _on_bank_write(sender: type, **kwargs: Any) -> None:
    bank_changed()


def connect_signals() -> None:
    for model in (*BANK_MODELS, *STAGE_LINK_MODELS):
        post_save.connect(_on_bank_write, sender=model, dispatch_uid=f"bank_cache.{model.__name__}")
        post_delete.connect(
            _on_bank_write, sender=model, dispatch_uid=f"bank_cache.{model.__name__}.delete"
        )


# --- the process memo ----------------------------------------------------------------------


class ProcessMemo:
    """Values derived from bank rows (a question's serialized payload, a stage's question
    ids), kept in this process's memory under one bank generation: a value of another
    generation is never returned, and a new one empties the memo. Bounded (LRU). With no
    generation (the cache unreachable) nothing is kept."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.generation: int | None = None
        self.entries: OrderedDict[tuple, Any] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, generation: int | None, key: tuple) -> Any:
        if generation is None:
            return None
        with self.lock:
            if generation != self.generation:
                return None
            value = self.entries.get(key)
            if value is not None:
                self.entries.move_to_end(key)
            return value

    def put(self, generation: int | None, key: tuple, value: Any) -> None:
        if generation is None:
            return
        with self.lock:
            if self.generation is not None and generation < self.generation:
                return  # read before a bump (generations only grow: `_start_generation`)
            if generation != self.generation:
                self.entries.clear()
                self.generation = generation
            self.entries[key] = value
            while len(self.entries) > self.limit:
                self.entries.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()
            self.generation = None


#: Stage detail's pieces: a question in 3 languages for 2 audiences is 6 entries.
process_memo = ProcessMemo(limit=4096)


# --- loading -----------------------------------------------------------------------------


def _load_questions(question_ids: list[int]) -> dict[int, QuestionStructure]:
    structures = {pk: QuestionStructure() for pk in question_ids}
    parts = Part.objects.filter(question_id__in=question_ids).order_by("question_id", "position")
    parts = parts.prefetch_related(
        Prefetch(
            "tests",
            queryset=TestCase.objects.filter(visibility=TestCase.Visibility.SAMPLE).order_by(
                "position"
            ),
            to_attr="sample_tests",
        )
    )
    for part in parts:
        structures[part.question_id].parts.append(part)
    follow_ups = FollowUp.objects.filter(question_id__in=question_ids)
    for follow_up in follow_ups.order_by("question_id", "position"):
        structures[follow_up.question_id].follow_ups.append(follow_up)
    flaws = PlantedFlaw.objects.filter(question_id__in=question_ids)
    for flaw in flaws.order_by("question_id", "position"):
        structures[flaw.question_id].flaws.append(flaw)
    return structures


def _load_rubrics(rubric_ids: list[int]) -> dict[int, Rubric]:
    rubrics = Rubric.objects.filter(pk__in=rubric_ids).prefetch_related(
        Prefetch("dimensions", queryset=Dimension.objects.order_by("position"))
    )
    return {rubric.pk: rubric for rubric in rubrics}


def _load_rubric_versions(version_ids: list[int]) -> dict[int, RubricVersion]:
    versions = RubricVersion.objects.filter(pk__in=version_ids).select_related("rubric")
    return {version.pk: version for version in versions}


def _cached(prefix: str, ids: set[int], load: Any) -> dict[int, Any]:
    """Entries for `ids`: from the cache where present, the rest loaded and stored."""
    if not ids:
        return {}
    try:
        generation = _generation()
        keys = {f"bank:{generation}:{prefix}:{pk}": pk for pk in ids}
        found = {keys[key]: value for key, value in cache.get_many(list(keys)).items()}
    except Exception:
        log.warning("bank cache: unreachable, reading the database", exc_info=True)
        return load(sorted(ids))
    missing = sorted(ids - found.keys())
    if missing:
        loaded = load(missing)
        found.update(loaded)
        try:
            cache.set_many(
                {key: loaded[pk] for key, pk in keys.items() if pk in loaded},
                timeout=ENTRY_SECONDS,
            )
        except Exception:
            log.warning("bank cache: could not store entries", exc_info=True)
    return found


def question_structures(question_ids: set[int]) -> dict[int, QuestionStructure]:
    """Parts (ordered, with `sample_tests`), follow-ups and flaws of each question.

    Each call returns fresh objects (unpickled or loaded), so callers may annotate them."""
    return _cached("question", set(question_ids), _load_questions)


def rubric_versions(version_ids: set[int]) -> dict[int, RubricVersion]:
    """Rubric versions (with their rubric's slug): immutable, so cached like the rest."""
    return _cached("rubric-version", set(version_ids), _load_rubric_versions)


def rubrics_with_dimensions(rubric_ids: set[int]) -> dict[int, Rubric]:
    """Rubrics with their dimensions prefetched in order (`rubric.dimensions.all()`)."""
    return _cached("rubric", set(rubric_ids), _load_rubrics)
