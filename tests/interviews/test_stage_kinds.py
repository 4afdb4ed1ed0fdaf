"""The stage-kind registry is where every kind-dependent rule reads from: the DB choices,
the coach queue's notion of a live round, bank validation and the reports."""

import pytest

from interviews.models import Stage
from interviews.models.bank import QuestionKind, StageKind
from interviews.stage_kinds import (
    StageKindSpec,
    stage_kind_get,
    stage_kind_list,
    stage_kind_register,
)

CONTRACT_KINDS = [
    "screen",
    "challenge",
    "hm_call",
    "coding",
    "design",
    "review",
    "deep_dive",
    "values",
]


def test_the_registry_holds_the_contract_kinds_in_loop_order():
    assert [spec.kind for spec in stage_kind_list()] == CONTRACT_KINDS


def test_the_model_choices_are_the_registry_with_the_migrated_labels():
    """Derived, not repeated; the labels stay Django's defaults so no migration follows."""
    assert StageKind.values == CONTRACT_KINDS
    assert dict(StageKind.choices)["hm_call"] == "Hm Call"
    assert StageKind.CHALLENGE == "challenge"


def test_every_spec_names_real_question_kinds():
    for spec in stage_kind_list():
        assert set(spec.question_kinds) <= set(QuestionKind.values), spec.kind


def test_a_kind_cannot_be_registered_twice_nor_name_an_unknown_room():
    with pytest.raises(ValueError, match="registered twice"):
        stage_kind_register(stage_kind_get("coding"))
    with pytest.raises(ValueError, match="unknown room"):
        StageKindSpec(kind="x", label="X", live=True, question_kinds=("coding",), room="chess")
    with pytest.raises(ValueError, match="bad question kinds"):
        StageKindSpec(kind="x", label="X", live=True, question_kinds=("poem",), room="coding")


def test_liveness_comes_from_the_spec_and_an_unknown_kind_counts_as_live():
    assert Stage(kind="challenge").is_live_kind is False
    assert Stage(kind="values").is_live_kind is True
    assert Stage(kind="from-a-newer-version").is_live_kind is True
    assert stage_kind_get("from-a-newer-version") is None
    assert stage_kind_get(None) is None


def test_only_the_deep_dive_asks_for_deep_dive_feedback():
    assert [s.kind for s in stage_kind_list() if s.deep_dive_feedback] == ["deep_dive"]


@pytest.mark.django_db
def test_the_migrations_match_the_registry():
    """A kind added to (or dropped from) the registry changes the choices: its migration
    must come with it."""
    from django.core.management import call_command

    call_command("makemigrations", "interviews", "--check", "--dry-run", verbosity=0)
