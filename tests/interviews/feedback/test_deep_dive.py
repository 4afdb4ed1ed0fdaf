"""Deep-dive feedback: the seven-part checklist, quantification and ROI arithmetic are
deterministic rules, each reporting the rule that fired and the text it fired on."""

import pytest

from interviews import models as m
from interviews.feedback.deep_dive import (
    DEFAULT_HORIZON_YEARS,
    answer_feedback,
    before_after_pairs,
    checklist,
    quantification,
    quantities,
    roi,
    usd,
)
from interviews.services.answers import answer_save
from tests.interviews.deep_dive_samples import STRONG_ANSWER as STRONG

API = "/api/v1"

THIN = "We built a thing. We made it faster. It was good and we were happy with it."

PROSE = (
    "The problem was that the model downloader took hours to reach every node. I built a "
    "chain-forwarding scheme instead of the central server, at the cost of harder recovery. "
    "When a node died mid-chain the transfer failed, and we learned to gossip chunk bitmaps. "
    "Before: 4 h to reach 2,000 nodes, after: 25 min. If the load grew ten times, the "
    "coordinator would break first."
)


def covered(text: str) -> set[str]:
    return {item["part"] for item in checklist(text) if item["covered"]}


def test_a_complete_answer_covers_all_seven_parts_quantifies_and_adds_up():
    feedback = answer_feedback(STRONG)
    assert feedback["covered"] == feedback["total"] == 7
    assert all(item["hint"] == "" for item in feedback["checklist"])
    q = feedback["quantification"]
    assert q["quantifies"] and q["level"] == "strong"
    assert [(p["text"], p["change"]) for p in q["before_after"]] == [
        ("from 900 ms to 250 ms", "-72.2%"),
        ("from 1,200 QPS to 3,000 QPS", "+150.0%"),
    ]
    r = feedback["roi"]
    assert r["status"] == "adds_up"
    # The $30M a year of the context is the problem's cost, not the project's: only the
    # ROI section is read.
    assert (r["cost_usd"], r["benefit_usd"], r["ratio"]) == (20e6, 36e6, 1.8)
    assert r["arithmetic"] == [
        'Figures read from the section "ROI" (line 24)',
        'Horizon: 3 years ("over 3 years")',
        "Cost: $20M",
        "Benefit: ($12M/year × 3 years = $36M)",
        "Benefit $36M ≥ cost $20M: ratio 1.8, net $16M",
    ]
    effort = next(f for f in r["figures"] if f["kind"] == "effort")
    assert not effort["counted"] and "money figures given" in effort["note"]


def test_a_thin_answer_gets_hints_and_no_roi():
    feedback = answer_feedback(THIN)
    assert covered(THIN) == {"architecture"}  # "We built"
    missing = [item for item in feedback["checklist"] if not item["covered"]]
    assert len(missing) == 6 and all(item["hint"] for item in missing)
    assert feedback["quantification"] == {
        "quantifies": False,
        "level": "none",
        "figures": [],
        "before_after": [],
        "rule": feedback["quantification"]["rule"],
    }
    assert feedback["roi"]["status"] == "absent"
    assert feedback["ownership_voice"]["we"] == 3 and feedback["ownership_voice"]["note"]


def test_cue_phrases_cover_parts_without_headings():
    assert covered(PROSE) == {
        "context",
        "architecture",
        "trade-off",
        "failure",
        "ownership",
        "extension",
    }
    q = quantification(PROSE)
    assert q["quantifies"]
    (pair,) = q["before_after"]
    assert pair["rule"] == "before-after.labels"
    assert pair["text"].startswith("Before: 4 h") and pair["text"].endswith("25 min")
    assert (pair["before"], pair["after"], pair["unit"]) == (4.0, pytest.approx(25 / 60), "h")


@pytest.mark.parametrize(
    ("text", "part"),
    [
        ("# Background\nx", "context"),
        ("**Design trade-offs**\nx", "trade-off"),  # the more specific part wins
        ("- **Incidents**: x", "failure"),
        ("3. Results: x", "metrics"),
        ("### What I did\nx", "ownership"),
        ("Scaling: x", "extension"),
        ("## How it works\nx", "architecture"),
    ],
)
def test_heading_styles(text, part):
    items = {item["part"]: item for item in checklist(text)}
    assert covered(text) == {part}
    assert f"{part}.heading" in [span["rule"] for span in items[part]["evidence"]]


def test_every_span_points_at_its_text():
    for text in (STRONG, PROSE):
        for item in checklist(text):
            for span in item["evidence"]:
                assert text[span["start"] : span["end"]] == span["text"]
                assert span["line"] == text.count("\n", 0, span["start"]) + 1
        for quantity in quantities(text):
            assert text[quantity["start"] : quantity["end"]] == quantity["text"]


def test_quantities_with_units_and_scales():
    text = (
        "p99 120 ms, 35% fewer errors, 80 GB of KV cache, 12k QPS, $1.5M, $300k, "
        "2.5 million dollars, 50 engineer-years, 64 GPUs, 3x faster, 2 TB/day, 4,000 nodes"
    )
    found = [(q["text"], q["value"], q["unit"]) for q in quantities(text) if q["unit"]]
    assert found == [
        ("120 ms", 120.0, "ms"),
        ("35%", 35.0, "%"),
        ("80 GB", 80.0, "GB"),
        ("12k QPS", 12000.0, "QPS"),
        ("$1.5M", 1.5e6, "USD"),
        ("$300k", 3e5, "USD"),
        ("2.5 million dollars", 2.5e6, "USD"),
        ("50 engineer-years", 50.0, "engineer-years"),
        ("64 GPUs", 64.0, "GPUs"),
        ("3x", 3.0, "x"),
        ("2 TB", 2.0, "TB"),
        ("4,000 nodes", 4000.0, "nodes"),
    ]
    # A figure is read once; "engineer-years" is effort, not a duration.
    assert [q["kind"] for q in quantities("50 engineer-years")] == ["effort"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("latency from 120 ms to 45 ms", [("from 120 ms to 45 ms", 120, 45, "ms")]),
        ("from 120 to 45 ms", [("from 120 to 45 ms", 120, 45, "ms")]),
        ("120ms -> 45ms", [("120ms -> 45ms", 120, 45, "ms")]),
        ("80 GB → 60 GB", [("80 GB → 60 GB", 80, 60, "GB")]),
        ("from 2 s to 900 ms", [("from 2 s to 900 ms", 2, 0.9, "s")]),
        ("before: 40%, after: 85%", [("before: 40%, after: 85%", 40, 85, "%")]),
        ("from 2019 to 2021", []),  # no unit on either side
        ("from 3 GPUs to 40 ms", []),  # units that do not convert
        ("before: 40%. Then after: 85%", []),  # not one sentence
    ],
)
def test_before_after_pairs(text, expected):
    pairs = before_after_pairs(text, quantities(text))
    assert [(p["text"], p["before"], p["after"], p["unit"]) for p in pairs] == expected


def test_quantifies_needs_a_pair_or_three_figures():
    assert not quantification("It took 3 weeks and 2 GPUs.")["quantifies"]
    three = quantification("It took 3 weeks, 2 GPUs and $40k.")
    assert three["quantifies"] and three["level"] == "some"
    assert quantification("P99 from 300 ms to 200 ms")["quantifies"]


def roi_lines(text: str) -> list[str]:
    return roi(text)["arithmetic"]


def test_roi_that_does_not_add_up_explains_by_how_much():
    r = roi("The project cost $20M. We reduced GPU cost by $2M per year over 5 years.")
    assert r["status"] == "does_not_add_up"
    assert (r["cost_usd"], r["benefit_usd"], r["ratio"]) == (20e6, 10e6, 0.5)
    assert "$10M short" in r["verdict"]
    reduced = r["figures"][1]
    # "reduced GPU cost" is a benefit, though it contains the word "cost".
    assert (reduced["side"], reduced["cue"]) == ("benefit", "reduced GPU cost")


def test_roi_annualises_and_assumes_a_horizon_when_none_is_given():
    r = roi("We spent $300k on the pilot. Savings came to $40k per month.")
    assert r["status"] == "adds_up" and r["horizon_assumed"]
    assert r["horizon_years"] == DEFAULT_HORIZON_YEARS
    assert r["benefit_usd"] == 40e3 * 12 * DEFAULT_HORIZON_YEARS
    assert "($40k × 12/year = $480k/year × 3 years = $1.44M)" in r["arithmetic"][2]
    assert "assumed" in r["verdict"]


def test_roi_in_engineer_years_only():
    r = roi("The migration cost 50 engineer-years. It saved 30 engineer-years of toil per year.")
    assert r["cost_usd"] == 50 * 400_000
    assert r["benefit_usd"] == 30 * 400_000 * DEFAULT_HORIZON_YEARS
    assert r["status"] == "adds_up"
    assert "50 engineer-years × $400k/engineer-year = $20M" in r["figures"][0]["note"]


def test_roi_stated_total_replaces_the_sum_and_lists_continue():
    text = (
        "Costs: $5M build plus $1M/year to run. Savings: $4M/year GPU + $2M/year on-call "
        "= $6M/year total, over five years."
    )
    r = roi(text)
    assert [(f["text"], f["side"], f["counted"]) for f in r["figures"]] == [
        ("$5M", "cost", True),
        ("$1M", "cost", True),
        ("$4M", "benefit", False),
        ("$2M", "benefit", False),
        ("$6M", "benefit", True),
    ]
    assert (r["cost_usd"], r["benefit_usd"], r["horizon_years"]) == (10e6, 30e6, 5.0)
    assert r["arithmetic"][1:3] == [
        "Cost: $5M + ($1M/year × 5 years = $5M) = $10M",
        'Benefit: stated total ($6M/year × 5 years = $30M) ("$6M", line 1)',
    ]


def test_roi_repeated_amount_counts_once():
    r = roi("It cost $20M. Yes, $20M in cost. It returned $25M.")
    assert r["cost_usd"] == 20e6 and r["status"] == "adds_up"
    assert "repeats an amount" in r["figures"][1]["note"]


def test_roi_incomplete_and_unclassified():
    r = roi("The project cost $20M.")
    assert r["status"] == "incomplete" and r["benefit_usd"] is None
    assert "No benefit figure" in r["verdict"]
    r = roi("Our GPU bill is $5M.")
    assert r["status"] == "incomplete" and r["figures"][0]["side"] == "unclassified"
    assert r["arithmetic"] == ['Not counted (no cost or benefit word in their sentence): "$5M"']


def test_usd_formatting():
    assert [usd(v) for v in (950, 300e3, 1.25e6, 20e6, 2.5e9, -14e6)] == [
        "$950",
        "$300k",
        "$1.25M",
        "$20M",
        "$2.5B",
        "-$14M",
    ]


def test_same_text_same_feedback():
    assert answer_feedback(STRONG) == answer_feedback(STRONG)


# --- the endpoint --------------------------------------------------------------------------


@pytest.fixture
def deep_dive(world):
    """The world's values stage turned into a live deep dive the assigned coach has."""
    m.Stage.objects.filter(pk=world.coding.pk).update(status="done")
    m.Stage.objects.filter(pk=world.values.pk).update(
        kind="deep_dive", status="live", coach=world.assigned
    )
    world.values.refresh_from_db()
    answer_save(stage=world.values, actor=world.owner, question=world.discussion_q, text=STRONG)
    return world


def test_endpoint_waits_for_the_candidate_until_the_stage_is_done(deep_dive, as_user):
    w = deep_dive
    url = f"{API}/stages/{w.values.pk}/deep-dive-feedback/"
    assert as_user(w.owner).get(url).status_code == 409
    coach_view = as_user(w.assigned).get(url)
    assert coach_view.status_code == 200
    (answer,) = coach_view.json()["answers"]
    assert answer["question"] == w.discussion_q.pk and answer["covered"] == 7
    assert as_user(w.coach).get(url).status_code == 404
    assert as_user(w.other).get(url).status_code == 404
    m.Stage.objects.filter(pk=w.values.pk).update(status="done")
    owner_view = as_user(w.owner).get(url)
    assert owner_view.status_code == 200
    assert owner_view.json()["answers"][0]["roi"]["status"] == "adds_up"


def test_endpoint_is_404_for_other_stage_kinds(deep_dive, as_user):
    url = f"{API}/stages/{deep_dive.coding.pk}/deep-dive-feedback/"
    assert as_user(deep_dive.assigned).get(url).status_code == 404


def test_endpoint_without_answers(deep_dive, as_user):
    m.Answer.objects.all().delete()
    url = f"{API}/stages/{deep_dive.values.pk}/deep-dive-feedback/"
    assert as_user(deep_dive.admin).get(url).json() == {
        "stage": deep_dive.values.pk,
        "answers": [],
    }
