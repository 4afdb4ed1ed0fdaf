"""The bank that ships in bank/: it imports, covers every stage of the AI-lab
loop with its questions, rubrics and timing, and every Python reference solution really
produces the expected output of every test.

The references run here as plain subprocesses (no Docker), many at a time;
`import_bank` without `--no-verify` runs them again in the sandbox
(tests/integration/test_bank_verified.py). The expected outputs themselves come from
tools/bankgen/build.py, which also cross-checks every reference against an
independent naive solution.
"""

import fnmatch
import functools
import importlib
import json
import math
import os
import re
import subprocess
import sys
import tomllib
from concurrent.futures import ThreadPoolExecutor

import pytest

from interviews import models as m
from interviews.bankfile.validation import bank_load
from interviews.services.bank_import import bank_import
from mockloop.env import BASE_DIR
from tests.paths import BANKGEN_DIR, SHIPPED_BANK_DIR

pytestmark = pytest.mark.django_db

STAGE_KINDS = [
    "screen",
    "challenge",
    "hm_call",
    "coding",
    "design",
    "review",
    "deep_dive",
    "values",
]
STAGE_RUBRICS = {
    "screen": "screen-default",
    "challenge": "challenge-default",
    "hm_call": "hm-call-default",
    "coding": "coding-default",
    "design": "design-default",
    "review": "review-default",
    "deep_dive": "deep-dive-default",
    "values": "values-default",
}
CHALLENGE = ["token-batcher", "priority-scheduler", "stream-stats", "token-counts"]
SECOND_CHALLENGE = [
    "kv-block-allocator",
    "stream-detokenizer",
    "prefix-cache",
    "speculative-decoding",
]
PRACTICE_THEMES = {
    "concurrency": "async-pipeline",
    "asyncio": "async-bounded-fetcher",
    "tokenizer": "bpe-tokenizer",
    "parser": "limits-config-parser",
    "crawler": "fake-web-crawler",
    "map-reduce": "shard-aggregate",
    "dedup": "minhash-dedup",
    "refactoring": "refactor-rate-limiter",
    "debugging": "debug-sessionizer",
    "cache": "lru-ttl-cache",
    "performance": "usage-ledger",
}
FLAW_CATEGORIES = {
    "spof",
    "timeouts",
    "gpu-memory",
    "prefill-decode",
    "concurrency",
    "consistency",
    "idempotency",
    "observability",
    "security",
    "other",
}
LARGE_INPUT_BYTES = 16 * 1024
TOOLS = BANKGEN_DIR

# Calls the entrypoint with the JSON arguments from stdin and prints the JSON result.
FUNCTION_DRIVER = """
import json, sys
namespace = {"__name__": "solution"}
exec(compile(sys.argv[1], "reference.py", "exec"), namespace)
args = json.loads(sys.stdin.read())
print(json.dumps(namespace[sys.argv[2]](*args)))
"""


@functools.cache
def _bank():
    return bank_load(SHIPPED_BANK_DIR)


def _questions() -> dict[str, dict]:
    return {e.spec["slug"]: e.spec for e in _bank().questions}


def _loops() -> dict[str, dict]:
    return {e.spec["slug"]: e.spec for e in _bank().loops}


def _coding() -> list[dict]:
    return [q for q in _questions().values() if q["kind"] == "coding"]


# --- import and the loop ------------------------------------------------------------------


def test_the_shipped_bank_imports():
    result = bank_import(SHIPPED_BANK_DIR, verify=False)
    kinds = {q.kind for q in result.created}
    assert kinds == {"coding", "design", "review", "discussion"}
    assert all(q.status == "published" for q in result.created)

    again = bank_import(SHIPPED_BANK_DIR, verify=False)
    assert again.created == []  # `make run` re-imports it idempotently


def test_the_ai_lab_loop_has_every_stage_kind_with_questions_rubric_and_timing():
    bank_import(SHIPPED_BANK_DIR, verify=False)
    template = m.LoopTemplate.objects.get(slug="ai-lab-infra-sde")
    stages = list(template.stages.select_related("rubric").order_by("position"))
    assert [s.kind for s in stages] == STAGE_KINDS
    slugs = set(m.Question.objects.values_list("slug", flat=True))
    for stage in stages:
        assert stage.question_slugs and set(stage.question_slugs) <= slugs
        assert stage.minutes > 0
        assert stage.rubric is not None and stage.rubric.slug == STAGE_RUBRICS[stage.kind]
    minutes = {s.kind: s.minutes for s in stages}
    assert minutes == {
        "screen": 30,
        "challenge": 90,
        "hm_call": 45,
        "coding": 60,
        "design": 60,
        "review": 45,
        "deep_dive": 60,
        "values": 45,
    }
    challenge = next(s for s in stages if s.kind == "challenge")
    assert challenge.question_slugs == CHALLENGE


def test_each_sitting_has_a_challenge_of_four_serving_tasks_in_the_same_time():
    """The second sitting repeats the first's format with different tasks: four
    LLM-serving tasks, none shared with the first sitting, in the same 90 minutes."""
    loops, questions = _loops(), _questions()
    first, second = (
        next(s for s in loops[slug]["stages"] if s["kind"] == "challenge")
        for slug in ("ai-lab-infra-sde", "ai-lab-infra-sde-b")
    )
    assert second["questions"] == SECOND_CHALLENGE
    assert not set(first["questions"]) & set(second["questions"])
    assert second["minutes"] == first["minutes"] == 90
    for slug in SECOND_CHALLENGE:
        assert {"serving", "challenge"} <= set(questions[slug]["tags"]), slug


def test_every_loop_template_uses_questions_of_the_right_kind():
    questions = _questions()
    needed = {"challenge": "coding", "coding": "coding", "design": "design", "review": "review"}
    for loop in _loops().values():
        for stage in loop["stages"]:
            for slug in stage["questions"]:
                kind = questions[slug]["kind"]
                assert kind == needed.get(stage["kind"], "discussion"), (loop["slug"], slug)


def test_every_question_is_reachable_from_some_loop():
    used = {slug for loop in _loops().values() for s in loop["stages"] for slug in s["questions"]}
    assert set(_questions()) <= used


# --- rubrics --------------------------------------------------------------------------------


def test_rubrics_per_stage_kind_have_four_to_six_weighted_dimensions_with_four_levels():
    rubrics = {e.spec["slug"]: e.spec for e in _bank().rubrics}
    assert set(STAGE_RUBRICS.values()) <= set(rubrics)
    for slug, rubric in rubrics.items():
        dimensions = rubric["dimensions"]
        assert 4 <= len(dimensions) <= 6, slug
        assert len({d["name"] for d in dimensions}) == len(dimensions)
        for dimension in dimensions:
            assert dimension["weight"] > 0
            levels = dimension["levels"]
            assert len(set(levels)) == 4, (slug, dimension["name"])
            assert all(len(level) >= 20 for level in levels), (slug, dimension["name"])
        assert any(d["weight"] > 1 for d in dimensions), f"{slug}: nothing weighs more"


def test_every_question_names_a_rubric_that_fits_its_kind():
    allowed = {
        "coding": {"coding-default", "challenge-default"},
        "design": {"design-default"},
        "review": {"review-default"},
        "discussion": {
            "screen-default",
            "hm-call-default",
            "deep-dive-default",
            "values-default",
            "discussion-default",
        },
    }
    for slug, question in _questions().items():
        assert question.get("rubric") in allowed[question["kind"]], slug


# --- coding ---------------------------------------------------------------------------------


def test_the_challenge_and_practice_coding_questions_exist():
    questions = _questions()
    for slug in [*CHALLENGE, "preemptive-scheduler", *PRACTICE_THEMES.values(), "top-k-tokens"]:
        assert questions[slug]["kind"] == "coding", slug
    practice = [q for q in _coding() if "practice" in q["tags"]]
    assert len(practice) >= 6
    assert {q["slug"] for q in practice} >= set(PRACTICE_THEMES.values())


def test_every_coding_part_has_samples_hidden_tests_and_a_large_input():
    for question in _coding():
        coding = question["coding"]
        slug = question["slug"]
        assert len(question["prompt"]) > 400, f"{slug}: write a real statement"
        for p, part in enumerate(coding["parts"]):
            where = f"{slug}.parts[{p}]"
            assert len(part["samples"]) >= 3, where
            assert len(part["hidden"]) >= 12, where
            sizes = [len(t["input"].encode()) for t in part["hidden"]]
            assert max(sizes) >= LARGE_INPUT_BYTES, f"{where}: no large input"
            assert max(sizes) <= 400 * 1024, f"{where}: keep large inputs reasonable"
            assert len({t["input"] for t in part["hidden"]}) == len(part["hidden"]), where


#: Function-style questions whose arguments and result are plain JSON data: offered in
#: every judged language (the C++ and Go harnesses convert them to typed parameters).
FUNCTION_IN_EVERY_LANGUAGE = {"lru-ttl-cache", "shard-aggregate", "top-k-tokens"}


def test_coding_languages_starters_and_references():
    for question in _coding():
        coding = question["coding"]
        slug = question["slug"]
        if slug in FUNCTION_IN_EVERY_LANGUAGE:
            expected = ["python", "javascript", "cpp", "go"]
        elif coding["io"] == "function":
            expected = ["python", "javascript"]
        else:
            expected = ["python", "javascript", "cpp"]
        assert coding["languages"] == expected, slug
        assert set(coding["starter"]) == set(expected), slug
        assert "python" in coding["reference"], slug
        assert coding["time_limit_ms"] == 2000, slug


def test_the_live_scheduler_unlocks_its_follow_up_parts():
    question = _questions()["preemptive-scheduler"]
    assert len(question["coding"]["parts"]) == 4
    unlocking = {f["unlocks_part"]: f for f in question["follow_ups"] if f.get("unlocks_part")}
    assert set(unlocking) == {2, 3, 4}
    for follow_up in unlocking.values():
        assert follow_up["trigger"] in ("on_part_passed", "manual")
        assert len(follow_up["coach_notes"]) > 100
    titles = " ".join(p["title"].lower() for p in question["coding"]["parts"])
    for words in ("k requests", "pre-emption", "incremental"):
        assert words in titles


def test_token_batcher_keeps_its_parts_and_unlocks():
    batcher = _questions()["token-batcher"]
    assert batcher["coding"]["io"] == "stdio"
    assert len(batcher["coding"]["parts"]) >= 2
    assert {f.get("unlocks_part") for f in batcher["follow_ups"]} >= {2}


@pytest.mark.parametrize(
    ("slug", "second_part"),
    [
        ("lru-ttl-cache", "pinned"),
        ("refactor-rate-limiter", "token bucket"),
        ("bpe-tokenizer", "decode"),
        ("fake-web-crawler", "politeness"),
        ("async-pipeline", "cancellation"),
    ],
)
def test_practice_questions_extend_the_code_in_a_second_part(slug, second_part):
    """A follow-up, pushed when part 1 passes, unlocks a part that extends part 1's code;
    it comes after the question's other follow-ups, so their positions stay put."""
    question = _questions()[slug]
    parts = question["coding"]["parts"]
    assert len(parts) == 2 and second_part in parts[1]["title"].lower()
    follow_ups = question["follow_ups"]
    assert follow_ups[-1]["unlocks_part"] == 2
    assert follow_ups[-1]["trigger"] == "on_part_passed"
    assert len(follow_ups[-1]["coach_notes"]) > 100
    assert all(f.get("unlocks_part") is None for f in follow_ups[:-1])


def test_generated_coding_files_match_their_reference_sources():
    """The YAML is generated by tools/bankgen/build.py: its reference is the one there."""
    for path in sorted(SHIPPED_BANK_DIR.glob("coding-*.yaml")):
        slug = path.stem.removeprefix("coding-")
        reference = _questions()[slug]["coding"]["reference"]["python"]
        source = TOOLS / "references" / (slug.replace("-", "_") + ".py")
        assert source.read_text() == reference, f"{path.name} is stale: rerun tools.bankgen.build"


def test_generated_coding_files_carry_their_translation_files():
    """build.py copies `tools/bankgen/i18n/<slug>.yaml` into the question's `i18n` block
    (validated on import like any other translation); a question without one has none."""
    from tools.bankgen.build import question_translations

    questions = _questions()
    translated = {path.stem for path in (TOOLS / "i18n").glob("*.yaml")}
    assert "top-k-tokens" in translated
    for path in sorted(SHIPPED_BANK_DIR.glob("coding-*.yaml")):
        slug = path.stem.removeprefix("coding-")
        block = question_translations(slug)
        assert (block is not None) == (slug in translated)
        if block is None:
            assert "i18n" not in questions[slug], slug
            continue
        alone = {key: value for key, value in questions[slug].items() if key != "rubric"}
        validated = bank_load({"questions": [{**alone, "i18n": block}]})
        assert questions[slug]["i18n"] == validated.questions[0].spec["i18n"], (
            f"{path.name} is stale: rerun tools.bankgen.build"
        )
    top_k = questions["top-k-tokens"]["i18n"]
    assert set(top_k) == {"zh-Hans", "zh-Hant"}
    assert set(top_k["zh-Hans"]["follow_ups"]) == {1, 2}


def test_every_discussion_and_design_question_and_follow_up_has_key_points_on_its_rubric():
    rubrics = {e.spec["slug"]: {d["name"] for d in e.spec["dimensions"]} for e in _bank().rubrics}
    for slug, question in _questions().items():
        if question["kind"] not in ("discussion", "design"):
            continue
        dimensions = rubrics[question["rubric"]]
        owners = [
            ("", question),
            *((f"follow_ups[{i}]", f) for i, f in enumerate(question.get("follow_ups", []))),
        ]
        for where, owner in owners:
            assert owner.get("key_points"), (slug, where)
            for point in owner["key_points"]:
                assert point["dimension"] in dimensions, (slug, where, point["dimension"])


def test_bank_files_stay_small():
    for path in SHIPPED_BANK_DIR.glob("*.yaml"):
        assert path.stat().st_size < 1_500_000, path.name
    # The generator writes into bank/ only; its one YAML input is the translations.
    stray = [
        p for p in (*TOOLS.rglob("*.yaml"), *TOOLS.rglob("*.yml")) if p.parent != TOOLS / "i18n"
    ]
    assert not stray
    for path in (TOOLS / "i18n").glob("*.y*ml"):
        assert path.suffix == ".yaml" and path.stat().st_size < 200_000, path.name


def _normalise_stdout(text: str) -> str:
    """The `exact` checker: trailing whitespace per line and trailing blank lines ignored."""
    return "\n".join(line.rstrip() for line in text.rstrip().splitlines())


_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def _same_tokens(got: str, want: str, eps: float) -> bool:
    got_tokens, want_tokens = got.split(), want.split()
    if len(got_tokens) != len(want_tokens):
        return False
    for g, w in zip(got_tokens, want_tokens, strict=True):
        if g == w:
            continue
        if not (eps and _NUMBER.fullmatch(g) and _NUMBER.fullmatch(w)):
            return False
        if abs(float(g) - float(w)) > eps * max(1.0, abs(float(w))):
            return False
    return True


def _json_equal(a, b, eps: float) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, float) or isinstance(b, float):
        return (
            isinstance(a, int | float)
            and isinstance(b, int | float)
            and math.isclose(a, b, rel_tol=eps, abs_tol=eps)
        )
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y, eps) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k], eps) for k in a)
    return a == b


def _run_reference(coding: dict, test: dict) -> str | None:
    """None when the reference's output matches, else what went wrong."""
    reference = coding["reference"]["python"]
    checker = coding["checker"]
    eps = float(checker.split(":", 1)[1]) if checker.startswith("float:") else 0.0
    if coding["io"] == "stdio":
        args = [sys.executable, "-c", reference]
    else:
        args = [sys.executable, "-c", FUNCTION_DRIVER, reference, coding["entrypoint"]]
    run = subprocess.run(args, input=test["input"], capture_output=True, text=True, timeout=60)
    if run.returncode != 0:
        return f"exit {run.returncode}: {run.stderr[-500:]}"
    if coding["io"] == "function":
        ok = _json_equal(json.loads(run.stdout), json.loads(test["output"]), eps)
    elif checker == "exact":
        ok = _normalise_stdout(run.stdout) == _normalise_stdout(test["output"])
    elif checker.startswith("float:") or checker == "tokens":
        ok = _same_tokens(run.stdout, test["output"], eps)
    else:
        ok = sorted(_normalise_stdout(run.stdout).splitlines()) == sorted(
            _normalise_stdout(test["output"]).splitlines()
        )
    return None if ok else f"wrong output: {run.stdout[:300]!r}"


@pytest.mark.parametrize("slug", sorted(q["slug"] for q in _coding()))
def test_python_reference_passes_every_test(slug):
    coding = _questions()[slug]["coding"]
    cases = [
        (f"parts[{p}].{key}[{i}]", test)
        for p, part in enumerate(coding["parts"])
        for key in ("samples", "hidden")
        for i, test in enumerate(part[key])
    ]
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        outcomes = list(pool.map(lambda case: _run_reference(coding, case[1]), cases))
    failures = [
        f"{where}: {problem}"
        for (where, _), problem in zip(cases, outcomes, strict=True)
        if problem
    ]
    assert not failures, "\n".join(failures[:10])


# --- design, review, discussion -----------------------------------------------------------


def test_design_prompts_have_follow_up_chains_with_coach_notes():
    questions = _questions()
    for slug in ("llm-serving-design", "model-downloader-design"):
        design = questions[slug]
        assert design["kind"] == "design"
        follow_ups = design["follow_ups"]
        assert len(follow_ups) >= 4, slug
        assert all(len(f.get("coach_notes", "")) > 150 for f in follow_ups), slug
        triggers = {f["trigger"] for f in follow_ups}
        assert {"after_answer", "after_minutes"} <= triggers, slug
    chains = " ".join(
        f["prompt"].lower()
        for slug in ("llm-serving-design", "model-downloader-design")
        for f in questions[slug]["follow_ups"]
    )
    # the chain: coordinator dies; GPU memory runs out; KV pages leak; P99 after scale-out
    for topic in ("coordinator", "gpu memory", "kv pages", "p99", "scaling out"):
        assert topic in chains, topic
    serving = questions["llm-serving-design"]["prompt"].lower()
    for part in ("safety interceptor", "tenant", "paged kv", "continuous batcher"):
        assert part in serving


def test_review_docs_plant_enough_flaws_over_enough_categories():
    reviews = [q for q in _questions().values() if q["kind"] == "review"]
    assert {"serving-doc-review", "weights-distribution-review"} <= {q["slug"] for q in reviews}
    assert len(reviews) >= 2
    for question in reviews:
        document = question["review"]["document"]
        lines = document.splitlines()
        flaws = question["review"]["flaws"]
        assert len(flaws) >= 8, question["slug"]
        categories = {f["category"] for f in flaws}
        assert len(categories) >= 5 and categories <= FLAW_CATEGORIES, question["slug"]
        for flaw in flaws:
            first, last = flaw["lines"]
            assert 1 <= first <= last <= len(lines)
            assert last - first <= 5, "anchor flaws precisely"
            assert all(lines[i - 1].strip() for i in (first, last)), "flaw on a blank line"
            assert len(flaw["explanation"]) > 120
        assert {f["severity"] for f in flaws} >= {"high", "medium"}


def test_a_review_doc_plants_a_real_split_brain_with_its_fencing_flaw():
    """Two leaders after a partition, and what lets both act: the key anchors both, and
    the review practice loop offers the doc."""
    review = _questions()["scheduler-failover-review"]["review"]
    flaws = review["flaws"]
    brain = [f for f in flaws if "split brain" in f["explanation"].lower()]
    assert brain and brain[0]["category"] == "consistency" and brain[0]["severity"] == "high"
    assert any(f["category"] == "concurrency" and "fenc" in f["explanation"] for f in flaws)
    practice = _loops()["design-review-practice"]
    assert "scheduler-failover-review" in {s for st in practice["stages"] for s in st["questions"]}


def test_discussion_rounds_cover_the_loop_material():
    questions = _questions()
    discussion = {slug for slug, q in questions.items() if q["kind"] == "discussion"}
    assert {"why-this-lab", "hm-inference-performance", "project-deep-dive", "safety-values"} <= (
        discussion
    )

    def text(slug: str) -> str:
        return " ".join(questions[slug]["prompt"].lower().split())

    screen = text("why-this-lab")
    assert "why" in screen and "risk" in screen
    hm = text("hm-inference-performance")
    for topic in ("prefill", "decode", "kv cache", "paged", "speculative", "latent", "disaggregat"):
        assert topic in hm, topic
    deep = text("project-deep-dive")
    for part in ("context", "architecture", "trade-off", "failure", "metrics", "ownership"):
        assert part in deep, part
    assert "extension" in deep and "50 engineer-years" in deep and "$20m" in deep
    values = text("safety-values")
    for topic in ("wrong", "risk", "skip a safety evaluation", "architecture"):
        assert topic in values, topic
    for slug in discussion:
        follow_ups = questions[slug]["follow_ups"]
        assert len(follow_ups) >= 2, slug
        assert all(f.get("coach_notes") for f in follow_ups), slug


def test_coach_notes_never_leak_into_what_the_candidate_sees():
    for slug, question in _questions().items():
        visible = question["prompt"] + "".join(
            p["prompt"] for p in question.get("coding", {}).get("parts", [])
        )
        for follow_up in question.get("follow_ups", []):
            notes = follow_up.get("coach_notes", "")
            for sentence in filter(None, (s.strip() for s in notes.split("."))):
                if len(sentence) > 60:
                    assert sentence not in visible, (slug, sentence)


def test_follow_up_timing_is_consistent():
    for slug, question in _questions().items():
        for follow_up in question.get("follow_ups", []):
            if follow_up["trigger"] == "after_minutes":
                assert 5 <= follow_up["after_minutes"] <= 60, slug
            if follow_up["trigger"] == "on_part_passed":
                assert question["kind"] == "coding", slug


def test_every_follow_up_is_reachable_solo():
    """Most candidates practise alone: every follow-up of every stage that ships has a
    trigger the scripted interviewer acts on, and a timed one fires before the stage's
    clock runs out."""
    questions = _questions()
    for loop in _loops().values():
        for stage in loop["stages"]:
            for slug in stage["questions"]:
                question = questions[slug]
                for index, follow_up in enumerate(question.get("follow_ups", [])):
                    where = (loop["slug"], stage["title"], slug, index)
                    trigger = follow_up["trigger"]
                    assert trigger != "manual", where
                    if trigger == "after_minutes":
                        assert follow_up["after_minutes"] < stage["minutes"], where
                    if trigger == "after_answer":
                        assert question["kind"] != "coding", where


def test_the_generator_is_a_package_outside_the_application():
    """tools/bankgen imports as a package (no `sys.path` set-up) with a question module for
    every generated file, and neither it nor any bank YAML is inside a package that
    `pip install .` ships."""
    from tools.bankgen import common

    assert common.BANK == SHIPPED_BANK_DIR
    assert (TOOLS / "README.md").exists()
    modules = {
        path.stem: importlib.import_module(f"tools.bankgen.questions.{path.stem}")
        for path in (TOOLS / "questions").glob("[!_]*.py")
    }
    assert all(callable(module.spec) for module in modules.values())
    generated = {p.stem.removeprefix("coding-") for p in SHIPPED_BANK_DIR.glob("coding-*.yaml")}
    assert {name.replace("_", "-") for name in modules} == generated

    setuptools = tomllib.loads((BASE_DIR / "pyproject.toml").read_text())["tool"]["setuptools"]
    include = setuptools["packages"]["find"]["include"]
    shipped = [
        path.parent.name
        for path in BASE_DIR.glob("*/__init__.py")
        if any(fnmatch.fnmatchcase(path.parent.name, pattern) for pattern in include)
    ]
    assert "interviews" in shipped and not {"tools", "tests"} & set(shipped)
    assert not any(fnmatch.fnmatchcase(name, p) for name in ("bank", "tools") for p in include)
    for top in shipped:
        assert not list((BASE_DIR / top).rglob("*.y*ml")), top


def test_the_practice_loop_has_a_stage_for_every_theme():
    practice = _loops()["infra-coding-practice"]
    offered = {slug for stage in practice["stages"] for slug in stage["questions"]}
    assert set(PRACTICE_THEMES.values()) <= offered
