"""top-k-tokens: the warm-up — count tokens, rank by count then by token."""

import random

from ..common import Case, PartSpec, QuestionSpec

PROMPT = """\
Write `top_k(tokens, k)`: given a list of token strings and an integer `k ≥ 0`, return
the `k` most frequent tokens as `[token, count]` pairs, most frequent first; ties are
broken by the token in ascending code-point order. If there are fewer than `k` distinct
tokens, return them all. Tokens are case-sensitive.

Up to `5·10^4` tokens (each at most 20 characters, i.e. Unicode code points, emoji
included) and up to `2·10^4` distinct ones; `k ≤ 5·10^4`.

**Example.** `top_k(["a", "b", "a", "c", "b", "a"], 2)` returns `[["a", 3], ["b", 2]]`.

**Limits.** 2 s CPU per test. The largest test has `5·10^4` tokens, over `10^4` of them
distinct: counting each distinct token with its own pass over the list is quadratic and
too slow for it.
"""

WORDS = ["token", "gpu", "decode", "kv", "page", "of", "the", "prefill", "batch", "cache"]


def _hidden():
    rng = random.Random(1313)
    cases = [
        Case([["b", "a", "b", "a"], 1], expect=[["a", 2]]),
        Case(
            [["tok"] * 5 + ["kv"] * 5 + ["gpu"] * 2, 2],
            expect=[["kv", 5], ["tok", 5]],
        ),
        Case([["z", "y", "x"], 0], expect=[]),
        Case(
            [["Apple", "apple", "APPLE", "apple"], 3],
            expect=[["apple", 2], ["APPLE", 1], ["Apple", 1]],
        ),
        # digits and punctuation sort before letters; the empty string is a token too
        Case([["b", "10", "9", "", "!", "b"], 10]),
        # non-ASCII: code-point order
        Case([["é", "e", "z", "é", "ä"], 3], expect=[["é", 2], ["e", 1], ["z", 1]]),
        # beyond the BMP: U+FF5A comes before U+1F600 in code points, after it in UTF-16
        Case(
            [["😀", "ｚ", "😀", "ｚ", "a", "𝑥", "ｚ", "😀"], 3],
            expect=[["ｚ", 3], ["😀", 3], ["a", 1]],
        ),
        Case([["🤖", "💡", "ﬀ", "🤖", "ﬀ", "💡", "𐍈"], 4]),
        Case([[rng.choice(WORDS) for _ in range(60)], 5]),
        Case([[rng.choice(WORDS) for _ in range(500)], 100]),
        Case([[f"t{rng.randint(0, 300)}" for _ in range(2000)], 7]),
        Case([[f"w{i}" for i in range(300)], 300]),
        Case([["same"] * 1000, 1]),
        Case([[rng.choice(["a", "b"]) for _ in range(999)], 2]),
    ]
    big = random.Random(1314)
    tokens = [f"{min(int(big.expovariate(1 / 5000)), 19999):x}" for _ in range(50000)]
    cases.append(Case([tokens, 25], large=True))
    return cases


STARTER_PY = """\
def top_k(tokens: list[str], k: int) -> list[list]:
    return []
"""

STARTER_JS = """\
function top_k(tokens, k) {
  return [];
}

module.exports = { top_k };
"""

STARTER_CPP = """\
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

using json = nlohmann::json;

// The JSON arguments convert to these parameter types (nlohmann::json); return anything
// nlohmann::json holds: numbers, strings, std::vector, std::map, json itself.
json top_k(const std::vector<std::string>& tokens, int k) {
  json pairs = json::array();  // [[token, count], ...]
  return pairs;
}
"""

STARTER_GO = """\
package main

// The JSON arguments decode into these parameter types (encoding/json; a JSON number
// in an interface{} is a float64); the return value is encoded back to JSON.
func top_k(tokens []string, k int) [][]interface{} {
\treturn [][]interface{}{} // [[token, count], ...]
}
"""

FOLLOW_UPS = [
    {
        "prompt": (
            "The token stream is now 2 TB spread over 500 machines. How do you compute the\n"
            "global top 100?\n"
        ),
        "trigger": "on_part_passed",
        "coach_notes": (
            "Map-reduce: local counts, shuffle by hash(token) so each token's count lands on\n"
            "one reducer, local top-k per reducer, merge. Local top-k before the shuffle is\n"
            "wrong (a token can be frequent globally but nowhere locally). Watch for skew:\n"
            "hot tokens overload one reducer; combiners help.\n"
        ),
    },
    {
        "prompt": "JavaScript: how does your sort compare strings, and is that code-point order?",
        "trigger": "on_part_passed",
        "coach_notes": (
            "Default string comparison in JS compares UTF-16 code units, which differs from\n"
            "code-point order only for characters outside the BMP; localeCompare is wrong\n"
            "here (locale-dependent, case-folding). Python compares code points.\n"
        ),
    },
]


def spec() -> QuestionSpec:
    return QuestionSpec(
        slug="top-k-tokens",
        name="top_k_tokens",
        title="Top-k most frequent tokens",
        difficulty="easy",
        tags=["aggregation", "top-k", "warm-up", "practice"],
        prompt=PROMPT,
        parts=[
            PartSpec(
                "Count and rank",
                "Arguments arrive as a JSON array `[tokens, k]`; return the JSON list of pairs.\n",
                [
                    Case([["a", "b", "a", "c", "b", "a"], 2], expect=[["a", 3], ["b", 2]]),
                    Case([["x"], 3], expect=[["x", 1]]),
                    Case([[], 1], expect=[]),
                ],
                _hidden(),
            )
        ],
        starter={
            "python": STARTER_PY,
            "javascript": STARTER_JS,
            "cpp": STARTER_CPP,
            "go": STARTER_GO,
        },
        follow_ups=FOLLOW_UPS,
        languages=["python", "javascript", "cpp", "go"],
        io="function",
        entrypoint="top_k",
    )
