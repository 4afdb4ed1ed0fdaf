"""A second sitting worth taking (issue #19): every discussion round of the loop has at
least two prompts in the bank, and the second sitting asks none of the first sitting's
questions, round by round."""

import pytest

from interviews.bankfile.validation import bank_load
from tests.paths import SHIPPED_BANK_DIR

pytestmark = pytest.mark.django_db

DISCUSSION_ROUNDS = ("screen", "hm_call", "deep_dive", "values")


@pytest.fixture(scope="module")
def shipped(django_db_blocker):
    with django_db_blocker.unblock():
        return bank_load(SHIPPED_BANK_DIR)


def _stages(bank, slug: str) -> list[dict]:
    (loop,) = [entry.spec for entry in bank.loops if entry.spec["slug"] == slug]
    return loop["stages"]


def test_every_discussion_round_has_at_least_two_prompts(shipped):
    asked: dict[str, set[str]] = {kind: set() for kind in DISCUSSION_ROUNDS}
    for entry in shipped.loops:
        for stage in entry.spec["stages"]:
            if stage["kind"] in asked:
                asked[stage["kind"]].update(stage["questions"])
    assert {kind: len(slugs) >= 2 for kind, slugs in asked.items()} == dict.fromkeys(
        DISCUSSION_ROUNDS, True
    ), asked


def test_the_second_sitting_repeats_no_question_of_the_first(shipped):
    first = _stages(shipped, "ai-lab-infra-sde")
    second = _stages(shipped, "ai-lab-infra-sde-b")
    assert [s["kind"] for s in first] == [s["kind"] for s in second]
    for one, two in zip(first, second, strict=True):
        assert not set(one["questions"]) & set(two["questions"]), (one["title"], two["title"])
