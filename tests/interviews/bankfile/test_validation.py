"""Bank validation: every problem is reported, with file and YAML path, and a broken bank
changes nothing."""

import pytest

from interviews import models as m
from interviews.bankfile.format import BankValidationError
from interviews.bankfile.validation import bank_load, question_validate
from interviews.services.bank_import import bank_import
from sandbox import judge
from tests.interviews import bank_data as data
from tests.sandbox.test_judge import CHECKER_SPECS_ACCEPTED, CHECKER_SPECS_REFUSED

pytestmark = pytest.mark.django_db


def _db_snapshot() -> dict[str, int]:
    models = [
        m.Question,
        m.Part,
        m.TestCase,
        m.FollowUp,
        m.PlantedFlaw,
        m.Rubric,
        m.Dimension,
        m.LoopTemplate,
        m.StageTemplate,
    ]
    return {model.__name__: model.objects.count() for model in models}


def _messages(exc: pytest.ExceptionInfo) -> list[str]:
    return [str(issue) for issue in exc.value.issues]


def test_a_file_with_many_errors_lists_all_of_them_and_imports_nothing(tmp_path):
    """Every error is collected (never stopping at the first), named by file, slug or
    `loops[i] (slug)` and field path; the database is left exactly as it was."""
    bank_import(data.bank(), verify=False)  # something already in the bank
    before = _db_snapshot()

    broken = data.bank()
    batcher = data.coding_question("token-batcher")
    batcher["coding"]["parts"][0]["hidden"] += [
        {"input": "1\n", "output": "1\n"},
        {"input": "2\n"},  # hidden[3]: no output
    ]
    batcher["coding"]["checker"] = "fuzzy"
    batcher["coding"]["reference"]["cpp"] = "int main() {}"  # not in languages
    batcher["follow_ups"][0]["unlocks_part"] = 7
    batcher["colour"] = "blue"
    review = data.review_question("doc-2")
    review["review"]["flaws"][0]["lines"] = [18, 25]
    review["review"]["flaws"][0]["category"] = "vibes"
    puzzle = data.discussion_question("riddle")
    puzzle["kind"] = "puzzle"
    bad_rubric = data.rubric("thin-rubric")
    bad_rubric["dimensions"][0]["levels"] = ["only", "three", "levels"]
    bad_loop = data.loop("mini-loop-2")
    bad_loop["stages"][0]["questions"] = ["no-such-question"]
    bad_loop["stages"][1]["kind"] = "lunch"
    broken["questions"] += [batcher, review, puzzle, data.discussion_question("why-here")]
    broken["rubrics"].append(bad_rubric)
    broken["loops"].append(bad_loop)
    path = data.write_yaml(tmp_path / "bank" / "coding.yaml", broken)

    with pytest.raises(BankValidationError) as exc:
        bank_import(path, verify=False)

    messages = _messages(exc)
    f = str(path)
    expected = [
        f"{f}: token-batcher.coding.parts[0].hidden[3].output: missing",
        f"{f}: token-batcher.coding.checker: must be exact, tokens, unordered-lines or "
        "float:<eps> (e.g. float:1e-6)",
        f"{f}: token-batcher.coding.reference.cpp: language not listed in `languages`",
        f"{f}: token-batcher.follow_ups[0].unlocks_part: there is no part 7 (the question has 2)",
        f"{f}: token-batcher.colour: unknown field",
        f"{f}: doc-2.review.flaws[0].lines: must satisfy 1 <= first <= last <= 20 "
        "(the document's lines)",
        f"{f}: doc-2.review.flaws[0].category: must be one of: spof, timeouts, gpu-memory, "
        "prefill-decode, concurrency, consistency, idempotency, observability, security, other",
        f"{f}: riddle.kind: must be one of: coding, design, review, discussion",
        f"{f}: why-here.slug: duplicate slug (first defined at {f} questions[2])",
        f"{f}: rubrics[1] (thin-rubric).dimensions[0].levels: must be four descriptors "
        "(levels 1 to 4)",
        f"{f}: loops[1] (mini-loop-2).stages[0].questions[0]: unknown question 'no-such-question'",
        f"{f}: loops[1] (mini-loop-2).stages[1].kind: must be one of: screen, challenge, "
        "hm_call, coding, design, review, deep_dive, values",
    ]
    for message in expected:
        assert message in messages
    assert len(messages) == len(expected), messages
    assert _db_snapshot() == before


@pytest.mark.parametrize(
    ("mutate", "path", "message"),
    [
        (lambda q: q.pop("title"), "title", "missing"),
        (lambda q: q.update(slug="Bad Slug"), "slug", "must match [a-z0-9-]+"),
        (
            lambda q: q.update(difficulty="brutal"),
            "difficulty",
            "must be one of: easy, medium, hard",
        ),
        (lambda q: q.update(tags="llm"), "tags", "must be a list"),
        (lambda q: q.update(status="live"), "status", "must be one of: draft, published, archived"),
        (lambda q: q.update(review={"document": "x"}), "review", "only for kind: review"),
        (lambda q: q.pop("coding"), "coding", "missing (required for kind: coding)"),
        (lambda q: q.update(rubric="nope"), "rubric", "unknown rubric 'nope'"),
        (
            lambda q: q["coding"].update(languages=["python", "rust"]),
            "coding.languages[1]",
            "must be one of: python, javascript, cpp, go, java",
        ),
        (
            lambda q: q["coding"].update(languages=["python", "java"]),
            "coding.languages[1]",
            "java cannot be judged yet; use one of: python, javascript, cpp, go",
        ),
        (
            lambda q: q["coding"].update(io="socket"),
            "coding.io",
            "must be one of: stdio, function",
        ),
        (
            lambda q: q["coding"].update(entrypoint="solve"),
            "coding.entrypoint",
            "only for io: function",
        ),
        (
            lambda q: q["coding"].update(checker="float:-1"),
            "coding.checker",
            "float:<eps> needs a number >= 0, e.g. float:1e-6",
        ),
        (
            lambda q: q["coding"].update(time_limit_ms="fast"),
            "coding.time_limit_ms",
            "must be an integer",
        ),
        (
            lambda q: q["coding"].update(reference={}),
            "coding.reference",
            "must give a solution in at least one language",
        ),
        (
            lambda q: q["coding"]["starter"].update(cobol="x"),
            "coding.starter.cobol",
            "unknown language; must be one of: python, javascript, cpp, go, java",
        ),
        (lambda q: q["coding"].update(parts=[]), "coding.parts", "must have at least one part"),
        (
            lambda q: q["coding"]["parts"][1].update(hidden=[]),
            "coding.parts[1].hidden",
            "must have at least one hidden test",
        ),
        (
            lambda q: q["coding"]["parts"][0]["samples"][0].update(output=3),
            "coding.parts[0].samples[0].output",
            "must be a string for io: stdio (quote it)",
        ),
        (
            lambda q: q["follow_ups"][0].update(unlocks_part=1),
            "follow_ups[0].unlocks_part",
            "part 1 is always open; a follow-up can unlock parts 2 and up",
        ),
        (
            lambda q: q["follow_ups"][0].update(trigger="after_minutes"),
            "follow_ups[0].after_minutes",
            "missing (required for after_minutes)",
        ),
        (
            lambda q: q["follow_ups"][0].update(after_minutes=5),
            "follow_ups[0].after_minutes",
            "only for trigger: after_minutes",
        ),
        (
            lambda q: q["follow_ups"].append({"prompt": "again", "unlocks_part": 2}),
            "follow_ups[1].unlocks_part",
            "part 2 is already unlocked by follow_ups[0]",
        ),
        (
            lambda q: q["follow_ups"][0].update(trigger="sometimes"),
            "follow_ups[0].trigger",
            "must be one of: manual, on_part_passed, after_minutes, after_answer",
        ),
        (
            lambda q: q["follow_ups"][0].update(trigger="after_answer"),
            "follow_ups[0].trigger",
            "after_answer needs a written answer; a coding question uses on_part_passed",
        ),
    ],
)
def test_coding_question_rules(mutate, path, message):
    question = data.coding_question()
    mutate(question)
    bank = {"questions": [question], "rubrics": [data.rubric()]}
    with pytest.raises(BankValidationError) as exc:
        bank_load(bank, label="bank.yaml")
    slug = question["slug"] if question["slug"] == "adder" else "questions[0]"
    assert f"bank.yaml: {slug}.{path}: {message}" in _messages(exc)


@pytest.mark.parametrize(
    ("mutate", "path", "message"),
    [
        (
            lambda f: f.update(lines=[5, 3]),
            "review.flaws[0].lines",
            "must satisfy 1 <= first <= last <= 20 (the document's lines)",
        ),
        (
            lambda f: f.update(lines=[0, 2]),
            "review.flaws[0].lines",
            "must satisfy 1 <= first <= last <= 20 (the document's lines)",
        ),
        (
            lambda f: f.update(lines=[3]),
            "review.flaws[0].lines",
            "must be [first, last] line numbers",
        ),
        (
            lambda f: f.update(severity="meh"),
            "review.flaws[0].severity",
            "must be one of: low, medium, high",
        ),
        (lambda f: f.pop("explanation"), "review.flaws[0].explanation", "missing"),
    ],
)
def test_review_flaw_rules(mutate, path, message):
    question = data.review_question()
    mutate(question["review"]["flaws"][0])
    with pytest.raises(BankValidationError) as exc:
        bank_load({"questions": [question]}, label="r.yaml")
    assert f"r.yaml: doc-review.{path}: {message}" in _messages(exc)


@pytest.mark.parametrize("checker", CHECKER_SPECS_ACCEPTED + CHECKER_SPECS_REFUSED)
def test_checker_grammar_agrees_with_the_judge(checker):
    """A checker spec imports exactly when the judge can run it, with the judge's message."""
    question = data.coding_question()
    question["coding"]["checker"] = checker
    bank = {"questions": [question], "rubrics": [data.rubric()]}
    try:
        judge.parse_checker(checker)
    except judge.CheckerError as refused:
        with pytest.raises(BankValidationError) as exc:
            bank_load(bank, label="bank.yaml")
        assert exc.value.errors == {"adder.coding.checker": [str(refused)]}
    else:
        [entry] = bank_load(bank, label="bank.yaml").questions
        assert entry.spec["coding"]["checker"] == checker


def test_loop_and_rubric_rules():
    """Loops and rubrics are named `loops[i] (slug)` / `rubrics[i] (slug)`; stage question
    kinds must fit the room; rubrics referenced by stages must exist."""
    bank = data.bank()
    bank["loops"][0]["stages"][1]["questions"] = ["why-here"]  # coding stage, discussion q
    bank["loops"][0]["stages"][0]["rubric"] = "ghost"
    bank["loops"][0]["stages"][2]["minutes"] = 0
    bank["rubrics"][0]["dimensions"][1]["name"] = "Correctness"
    bank["rubrics"][0]["dimensions"][0]["weight"] = -1
    with pytest.raises(BankValidationError) as exc:
        bank_load(bank, label="b.yaml")
    assert _messages(exc) == [
        "b.yaml: rubrics[0] (code-rubric).dimensions[0].weight: must be a number >= 0",
        "b.yaml: rubrics[0] (code-rubric).dimensions[1].name: duplicate dimension 'Correctness'",
        "b.yaml: loops[0] (mini-loop).stages[2].minutes: must be between 1 and 600",
        "b.yaml: loops[0] (mini-loop).stages[0].rubric: unknown rubric 'ghost'",
        "b.yaml: loops[0] (mini-loop).stages[1].questions[0]: 'why-here' is a discussion "
        "question; a coding stage needs coding",
    ]


def test_references_resolve_across_files_and_against_the_database(tmp_path):
    """A loop may name questions and rubrics from another file of the same import, or
    ones already in the database."""
    bank = data.bank()
    data.write_yaml(tmp_path / "bank" / "a-rubrics.yaml", {"rubrics": bank["rubrics"]})
    data.write_yaml(tmp_path / "bank" / "b-questions.yml", {"questions": bank["questions"]})
    data.write_yaml(tmp_path / "bank" / "c-loops.yaml", {"loops": bank["loops"]})
    result = bank_import(tmp_path / "bank", verify=False)
    assert len(result.created) == 3

    later = {"loops": [{**data.loop("second-loop"), "title": "Second"}]}
    bank_import(later, verify=False)
    assert m.LoopTemplate.objects.filter(slug="second-loop").exists()


def test_yaml_syntax_errors_and_duplicate_keys_are_reported_per_file(tmp_path):
    folder = tmp_path / "bank"
    folder.mkdir()
    (folder / "a.yaml").write_text("questions:\n  - slug: x\n    kind: [unclosed\n")
    (folder / "b.yaml").write_text("rubrics: []\nrubrics: []\n")
    (folder / "c.yaml").write_text("- just a list\n")
    (folder / "d.yaml").write_text("questions: []\nextras: 1\n")
    with pytest.raises(BankValidationError) as exc:
        bank_import(folder, verify=False)
    messages = _messages(exc)
    assert messages[0].startswith(f"{folder / 'a.yaml'}: invalid YAML: line ")
    assert messages[1].startswith(f"{folder / 'b.yaml'}: invalid YAML: line 2, column 1:")
    assert "duplicate key 'rubrics'" in messages[1]
    assert messages[2:] == [
        f"{folder / 'c.yaml'}: must be a mapping with `questions`, `rubrics`, `loops` "
        "and/or `plans`",
        f"{folder / 'd.yaml'}: extras: unknown field",
    ]


def test_missing_path_is_an_error(tmp_path):
    with pytest.raises(BankValidationError) as exc:
        bank_import(tmp_path / "nowhere.yaml", verify=False)
    assert _messages(exc) == [f"{tmp_path / 'nowhere.yaml'}: no such file or directory"]


def test_function_io_accepts_yaml_values_and_json_text_and_stores_canonical_json():
    question = data.coding_question("pairs")
    question.pop("follow_ups")
    question["coding"].update(io="function", entrypoint="top_k")
    question["coding"]["parts"] = [
        {
            "title": "Pairs",
            "samples": [{"input": [["a", "b"], 1], "output": [["a", 1]]}],
            "hidden": [
                {"input": '[["x"],  2]', "output": '[["x",1]]'},
                {"input": "[[], 0]", "output": "null"},
            ],
        }
    ]
    bank = bank_load({"questions": [question], "rubrics": [data.rubric()]})
    part = bank.questions[0].spec["coding"]["parts"][0]
    assert part["samples"] == [{"input": '[["a", "b"], 1]', "output": '[["a", 1]]'}]
    assert part["hidden"] == [
        {"input": '[["x"], 2]', "output": '[["x", 1]]'},
        {"input": "[[], 0]", "output": "null"},
    ]


@pytest.mark.parametrize(
    ("test", "path", "message"),
    [
        ({"input": "[1,", "output": "1"}, "input", "is not valid JSON text"),
        ({"input": {"a": 1}, "output": "1"}, "input", "must be a JSON array of arguments"),
        ({"input": "5", "output": "1"}, "input", "must be a JSON array of arguments"),
        ({"input": "[1]", "output": "{oops"}, "output", "is not valid JSON text"),
    ],
)
def test_function_io_rejects_bad_json(test, path, message):
    question = data.coding_question("pairs")
    question.pop("follow_ups")
    question["coding"].update(io="function", entrypoint="solve")
    question["coding"]["parts"] = [{"title": "One", "hidden": [test]}]
    with pytest.raises(BankValidationError) as exc:
        bank_load({"questions": [question], "rubrics": [data.rubric()]}, label="f.yaml")
    [issue] = exc.value.issues
    assert issue.location == f"pairs.coding.parts[0].hidden[0].{path}"
    assert issue.message.startswith(message)


def test_function_io_needs_an_entrypoint():
    question = data.coding_question()
    question["coding"]["io"] = "function"
    with pytest.raises(BankValidationError) as exc:
        bank_load({"questions": [question], "rubrics": [data.rubric()]}, label="f.yaml")
    assert "f.yaml: adder.coding.entrypoint: missing (required for io: function)" in _messages(exc)


def test_drafts_may_be_incomplete():
    """A draft coding question may lack a reference and hidden tests (it cannot be
    published until it has both and passes verification)."""
    question = data.coding_question(status="draft")
    question["coding"].pop("reference")
    question["coding"]["parts"][0].pop("hidden")
    spec = bank_load({"questions": [question], "rubrics": [data.rubric()]}).questions[0].spec
    assert spec["status"] == "draft"
    assert spec["coding"]["reference"] == {}


def test_question_validate_keys_errors_by_field_path():
    """The API's validation: same rules, errors keyed by path inside the question."""
    question = data.coding_question()
    question["coding"]["parts"][0]["title"] = ""
    question["surprise"] = True
    with pytest.raises(BankValidationError) as exc:
        question_validate(question)
    assert exc.value.errors == {
        "surprise": ["unknown field"],
        "coding.parts[0].title": ["must not be empty"],
        "rubric": ["unknown rubric 'code-rubric'"],
    }


def test_go_is_a_coding_language():
    """A question may list Go (stdio; the sandbox compiles it with Debian's Go 1.19)."""
    question = data.coding_question()
    question.pop("rubric", None)
    question["coding"]["languages"] = ["python", "go"]
    question["coding"]["starter"]["go"] = "package main\n\nfunc main() {\n}\n"
    question["coding"]["reference"]["go"] = "package main\n\nfunc main() {\n}\n"
    spec = question_validate(question)
    assert spec["coding"]["languages"] == ["python", "go"]
    assert set(spec["coding"]["reference"]) == {"python", "go"}
