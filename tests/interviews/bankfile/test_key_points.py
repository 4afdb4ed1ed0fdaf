"""Key points in the bank file: per question and per follow-up, validated with path-named
errors, imported and exported unchanged."""

import copy

import pytest

from interviews import models as m
from interviews.bankfile.format import BankValidationError
from interviews.bankfile.validation import bank_load
from interviews.selectors.bank import question_to_dict
from interviews.services.bank_import import bank_import
from tests.interviews import bank_data as data

pytestmark = pytest.mark.django_db

POINT = {
    "point": "Prefill is compute-bound",
    "patterns": {"en": [r"prefill\b.*compute[- ]bound"], "zh": ["预填充.*计算"]},
    "dimension": "First-principles reasoning",
}


def with_points() -> dict:
    question = data.discussion_question()
    question["key_points"] = [copy.deepcopy(POINT)]
    question["follow_ups"][0]["key_points"] = [
        {"point": "Names another lab", "patterns": {"en": ["other lab"]}, "dimension": "Fit"}
    ]
    return question


def messages(exc) -> list[str]:
    return [str(issue) for issue in exc.value.issues]


def test_key_points_import_and_export_round_trip():
    question = with_points()
    bank_import({"questions": [copy.deepcopy(question)]}, verify=False)
    row = m.Question.objects.get(slug="why-here")
    assert row.key_points == [POINT]
    assert row.follow_ups.get().key_points[0]["point"] == "Names another lab"
    exported = question_to_dict(row)
    assert exported["key_points"] == question["key_points"]
    assert exported["follow_ups"][0]["key_points"] == question["follow_ups"][0]["key_points"]


@pytest.mark.parametrize(
    ("mutate", "path", "message"),
    [
        (lambda q: q["key_points"][0].pop("dimension"), "key_points[0].dimension", "missing"),
        (lambda q: q["key_points"][0].update(point=""), "key_points[0].point", "must not be empty"),
        (
            lambda q: q["key_points"][0].update(patterns={"fr": ["x"]}),
            "key_points[0].patterns.fr",
            "unknown field",
        ),
        (
            lambda q: q["key_points"][0].update(patterns={"en": []}),
            "key_points[0].patterns",
            "needs at least one pattern (en or zh)",
        ),
        (
            lambda q: q["follow_ups"][0]["key_points"][0].update(patterns={"en": ["(unclosed"]}),
            "follow_ups[0].key_points[0].patterns.en[0]",
            "not a regular expression",
        ),
    ],
)
def test_key_point_rules(mutate, path, message):
    question = with_points()
    mutate(question)
    with pytest.raises(BankValidationError) as exc:
        bank_load({"questions": [question]}, label="k.yaml")
    assert any(line.startswith(f"k.yaml: why-here.{path}: {message}") for line in messages(exc)), (
        messages(exc)
    )


def test_the_admin_question_dict_carries_key_points_and_a_put_back_keeps_them(world, as_user):
    question = with_points()
    bank_import({"questions": [copy.deepcopy(question)]}, verify=False)
    row = m.Question.objects.filter(slug="why-here").latest("version")
    admin = as_user(world.admin)
    got = admin.get(f"/api/v1/questions/{row.pk}/").json()
    assert got["key_points"] == [POINT]
    got["title"] = "Why here, really?"
    assert admin.put(f"/api/v1/questions/{row.pk}/", got, format="json").status_code == 200
    latest = m.Question.objects.filter(slug="why-here").latest("version")
    assert latest.title == "Why here, really?" and latest.key_points == [POINT]
    assert latest.follow_ups.get().key_points == question["follow_ups"][0]["key_points"]
