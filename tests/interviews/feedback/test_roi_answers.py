"""The deep-dive ROI check on answers as candidates write them: rates are not benefits,
totals are not added to their parts, negated claims are not benefits, and when the
figures and the answer disagree the check says it is unsure instead of adding."""

import pytest

from interviews.feedback.deep_dive import roi


def counted(result) -> list[str]:
    return [f["text"] for f in result["figures"] if f["counted"]]


def excluded(result) -> dict[str, str]:
    return {f["text"]: f["excluded"] for f in result["figures"] if f["excluded"]}


#: The answer from the issue: a rate, a 3-year total beside its yearly figure and a negated
#: "$20M" all used to be added up to "It adds up".
HONEST_SHORTFALL = """## ROI
The project cost 50 engineer-years, about $20M. It freed 300 GPUs at $2 per GPU-hour:
about $5.3M a year, or $15.8M over 3 years. Honestly, the savings do not cover $20M;
it paid back only in year four.
"""


def test_the_honest_shortfall_is_read_as_a_shortfall():
    r = roi(HONEST_SHORTFALL)
    assert r["status"] == "does_not_add_up"
    assert r["benefit_usd"] == pytest.approx(15.9e6)
    assert excluded(r) == {"$2": "rate", "$15.8M": "horizon_total", "$20M": "negated"}
    assert "It adds up" not in r["verdict"]


def test_a_price_per_gpu_hour_is_not_a_benefit():
    r = roi("It cost $1M. We now pay $2 per GPU-hour less, saving $3M per year for 2 years.")
    assert excluded(r) == {"$2": "rate"}
    assert r["benefit_usd"] == 6e6 and r["status"] == "adds_up"


@pytest.mark.parametrize(
    "rate", ["$0.40/token", "$3 an hour", "$0.50 per 1k tokens", "$12 per request"]
)
def test_rates_in_their_usual_spellings(rate):
    r = roi(f"It cost $500k. Inference is {rate}; we saved $900k in total.")
    assert list(excluded(r).values()) == ["rate"]
    assert r["benefit_usd"] == 900e3


def test_a_multi_year_total_is_not_added_to_its_yearly_figure():
    r = roi("The rewrite cost $8M. It saves $4M a year, $12M over 3 years.")
    assert excluded(r) == {"$12M": "horizon_total"}
    assert r["benefit_usd"] == 12e6 and r["status"] == "adds_up"


def test_a_total_that_disagrees_with_its_yearly_figure_is_unsure():
    r = roi("The rewrite cost $8M. It saves $4M a year, $20M over 3 years.")
    assert r["status"] == "unsure"
    assert "does not match the yearly figures" in r["verdict"]


def test_a_multi_year_total_alone_counts_once():
    r = roi("It cost $5M. It saved $9M over 3 years.")
    assert counted(r) == ["$5M", "$9M"] and r["status"] == "adds_up"


def test_a_negated_saving_is_not_a_benefit():
    r = roi("It cost $6M. It did not save $10M as planned; it saved $4M.")
    assert excluded(r) == {"$10M": "negated"}
    assert r["benefit_usd"] == 4e6 and r["status"] == "does_not_add_up"


def test_never_and_less_than_are_negations_too():
    r = roi("The spend was $3M. We never recovered $5M; savings were less than $1M.")
    assert set(excluded(r).values()) == {"negated"}


def test_an_answer_saying_it_does_not_pay_back_is_not_told_it_adds_up():
    text = (
        "## ROI\nWe invested $2M. The savings were $3M per year on paper, but that "
        "does not pay back once you count the migration freeze."
    )
    r = roi(text)
    assert r["status"] == "unsure"
    assert "does not pay back" in r["verdict"] and "It adds up" not in r["verdict"]


def test_a_plain_strong_roi_still_adds_up():
    r = roi(
        "## ROI\nThe project cost 50 engineer-years (~$20M). It saved $12M per year in GPU "
        "spend over 3 years."
    )
    assert r["status"] == "adds_up" and r["benefit_usd"] == 36e6 and r["cost_usd"] == 20e6


def test_a_plain_shortfall_still_does_not_add_up():
    r = roi("The platform cost $20M. We reduced GPU cost by $2M per year over 5 years.")
    assert r["status"] == "does_not_add_up" and r["benefit_usd"] == 10e6


def test_yearly_savings_with_an_engineer_cost_in_years():
    r = roi(
        "It took 10 engineer-years. It saved $1.5M a year in on-call and GPU spend, "
        "$4.5M over three years."
    )
    assert excluded(r) == {"$4.5M": "horizon_total"}
    assert (r["cost_usd"], r["benefit_usd"], r["status"]) == (4e6, 4.5e6, "adds_up")
