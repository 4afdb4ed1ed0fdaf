"""Small, valid bank dicts for the bank tests (service, commands and API).

Secrets that must never reach a candidate are sentinel strings, so a test can search a
whole response body for them.
"""

import copy
from pathlib import Path
from typing import Any

import yaml

HIDDEN_INPUT = "40 2\n"
HIDDEN_OUTPUT = "SENTINEL-HIDDEN-OUT-42"
REFERENCE_CODE = (
    "import sys  # SENTINEL-REFERENCE\nprint(sum(map(int, sys.stdin.read().split())))\n"
)
COACH_NOTES = "SENTINEL-COACH-NOTES: look for a heap."
LOCKED_PART_PROMPT = "SENTINEL-LOCKED-PART: now subtract."
FLAW_EXPLANATION = "SENTINEL-FLAW: the router is a single point of failure."

DOCUMENT = "".join(f"line {n} of the design\n" for n in range(1, 21))


def coding_question(slug: str = "adder", **overrides: Any) -> dict:
    question = {
        "slug": slug,
        "kind": "coding",
        "title": "Add numbers",
        "difficulty": "easy",
        "tags": ["warm-up"],
        "prompt": "Add the numbers.\n",
        "coding": {
            "languages": ["python", "javascript"],
            "io": "stdio",
            "time_limit_ms": 1000,
            "memory_limit_mb": 128,
            "checker": "exact",
            "starter": {"python": "import sys\n"},
            "reference": {"python": REFERENCE_CODE},
            "parts": [
                {
                    "title": "Sum",
                    "prompt": "Print the sum.\n",
                    "samples": [{"input": "1 2\n", "output": "3\n"}],
                    "hidden": [
                        {"input": HIDDEN_INPUT, "output": HIDDEN_OUTPUT},
                        {"input": "0\n", "output": "0\n"},
                    ],
                },
                {
                    "title": "Difference",
                    "prompt": LOCKED_PART_PROMPT,
                    "samples": [{"input": "3 1\n", "output": "2\n"}],
                    "hidden": [{"input": "9 9\n", "output": "0\n"}],
                },
            ],
        },
        "follow_ups": [
            {
                "prompt": "Now subtract instead.",
                "unlocks_part": 2,
                "trigger": "on_part_passed",
                "coach_notes": COACH_NOTES,
            }
        ],
        "rubric": "code-rubric",
    }
    question.update(overrides)
    return question


def review_question(slug: str = "doc-review") -> dict:
    return {
        "slug": slug,
        "kind": "review",
        "title": "Review the doc",
        "difficulty": "medium",
        "tags": [],
        "prompt": "Review it.",
        "review": {
            "document": DOCUMENT,
            "flaws": [
                {
                    "category": "spof",
                    "lines": [3, 5],
                    "severity": "high",
                    "explanation": FLAW_EXPLANATION,
                }
            ],
        },
    }


def discussion_question(slug: str = "why-here") -> dict:
    return {
        "slug": slug,
        "kind": "discussion",
        "title": "Why here?",
        "difficulty": "easy",
        "tags": ["screen"],
        "prompt": "Why this lab?",
        "follow_ups": [{"prompt": "Why not elsewhere?", "trigger": "manual"}],
    }


def rubric(slug: str = "code-rubric") -> dict:
    return {
        "slug": slug,
        "dimensions": [
            {"name": "Correctness", "weight": 2, "levels": ["a", "b", "c", "d"]},
            {"name": "Clarity", "weight": 1, "levels": ["a", "b", "c", "d"]},
        ],
    }


def loop(slug: str = "mini-loop") -> dict:
    return {
        "slug": slug,
        "title": "Mini loop",
        "stages": [
            {"kind": "screen", "title": "Screen", "minutes": 30, "questions": ["why-here"]},
            {"kind": "coding", "title": "Coding", "minutes": 60, "questions": ["adder"]},
            {"kind": "review", "title": "Review", "minutes": 45, "questions": ["doc-review"]},
        ],
    }


def bank() -> dict:
    return copy.deepcopy(
        {
            "questions": [coding_question(), review_question(), discussion_question()],
            "rubrics": [rubric()],
            "loops": [loop()],
        }
    )


def write_yaml(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    return path


# Translated text that must stay as protected as its English: coach notes (the model
# answer), a locked part's prompt and a planted flaw's explanation.
ZH_COACH_NOTES = "SENTINEL-ZH-COACH-NOTES：看是否用堆。"
ZH_LOCKED_PART_PROMPT = "SENTINEL-ZH-LOCKED-PART：改为相减。"
ZH_FLAW_EXPLANATION = "SENTINEL-ZH-FLAW：路由是单点故障。"


def translated_bank() -> dict:
    """`bank()` with Simplified (and some Traditional) translations of every kind of
    translatable field; the discussion question and the loop's last stage stay English."""
    result = bank()
    coding, review, _discussion = result["questions"]
    coding["i18n"] = {
        "zh-Hans": {
            "title": "数字相加",
            "prompt": "把数字加起来。\n",
            "parts": {
                1: {"title": "求和", "prompt": "输出和。\n"},
                2: {"prompt": ZH_LOCKED_PART_PROMPT},
            },
            "follow_ups": {1: {"prompt": "现在改为相减。", "model_answer": ZH_COACH_NOTES}},
        },
        "zh-Hant": {"title": "數字相加"},
    }
    review["i18n"] = {
        "zh-Hans": {"title": "审阅文档", "flaws": {1: {"explanation": ZH_FLAW_EXPLANATION}}}
    }
    result["rubrics"][0]["i18n"] = {
        "zh-Hans": {
            "dimensions": {
                1: {"name": "正确性", "levels": ["甲", "乙", "丙", "丁"]},
                2: {"name": "清晰"},
            }
        }
    }
    result["loops"][0]["i18n"] = {
        "zh-Hans": {"title": "迷你面试", "stages": {1: {"title": "初筛"}, 2: {"title": "编程"}}},
        "zh-Hant": {"title": "迷你面試"},
    }
    return result
