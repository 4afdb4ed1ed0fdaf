"""The function-style questions are offered in C++ and Go too (issue #19): a correct
C++ and Go solution of the shipped top-k-tokens passes every hidden test through the
compiled-language harness, a subtly wrong one fails, and every shipped starter of every
function-style question compiles and runs (a wrong answer, never a compile error)."""

from __future__ import annotations

import json

import pytest

from interviews.bankfile.validation import bank_load
from sandbox import Job, Limits, Test, run_tests
from tests.paths import SHIPPED_BANK_DIR

pytestmark = [pytest.mark.integration, pytest.mark.django_db]

FUNCTION_QUESTIONS = ("top-k-tokens", "lru-ttl-cache", "shard-aggregate")

TOP_K = {
    "cpp": """\
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

using json = nlohmann::json;

json top_k(const std::vector<std::string>& tokens, int k) {
  std::map<std::string, long long> counts;  // std::string compares bytes: UTF-8 code points
  for (const auto& token : tokens) counts[token]++;
  std::vector<std::pair<std::string, long long>> ranked(counts.begin(), counts.end());
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  json pairs = json::array();
  for (int i = 0; i < k && i < (int)ranked.size(); i++)
    pairs.push_back({ranked[i].first, ranked[i].second});
  return pairs;
}
""",
    "go": """\
package main

import "sort"

func top_k(tokens []string, k int) [][]interface{} {
\tcounts := map[string]int{}
\tfor _, token := range tokens {
\t\tcounts[token]++
\t}
\tkeys := make([]string, 0, len(counts))
\tfor token := range counts {
\t\tkeys = append(keys, token)
\t}
\tsort.Slice(keys, func(i, j int) bool {
\t\tif counts[keys[i]] != counts[keys[j]] {
\t\t\treturn counts[keys[i]] > counts[keys[j]]
\t\t}
\t\treturn keys[i] < keys[j] // Go compares strings bytewise: UTF-8 code-point order
\t})
\tpairs := [][]interface{}{}
\tfor i := 0; i < k && i < len(keys); i++ {
\t\tpairs = append(pairs, []interface{}{keys[i], counts[keys[i]]})
\t}
\treturn pairs
}
""",
}


@pytest.fixture(scope="module")
def questions(django_db_blocker) -> dict[str, dict]:
    with django_db_blocker.unblock():
        bank = bank_load(SHIPPED_BANK_DIR)
    return {e.spec["slug"]: e.spec for e in bank.questions if e.spec["slug"] in FUNCTION_QUESTIONS}


def _job(question: dict, language: str, code: str) -> Job:
    coding = question["coding"]
    return Job(
        language=language,
        code=code,
        io="function",
        entrypoint=coding["entrypoint"],
        checker=coding["checker"],
        limits=Limits(
            time_limit_ms=coding["time_limit_ms"],
            memory_limit_mb=coding["memory_limit_mb"],
        ),
    )


def _tests(question: dict) -> list[Test]:
    part = question["coding"]["parts"][0]
    return [Test(t["input"], json.loads(t["output"])) for t in [*part["samples"], *part["hidden"]]]


@pytest.mark.parametrize("language", ["cpp", "go"])
def test_top_k_in_a_compiled_language_passes_every_hidden_test(language, questions):
    question = questions["top-k-tokens"]
    assert language in question["coding"]["languages"]
    result = run_tests(_job(question, language, TOP_K[language]), _tests(question))
    assert result.verdict == "accepted", (result.compile_output, [t.message for t in result.tests])


def test_a_compiled_solution_with_the_wrong_tie_break_fails(questions):
    question = questions["top-k-tokens"]
    wrong = TOP_K["go"].replace("return keys[i] < keys[j]", "return keys[i] > keys[j]")
    result = run_tests(_job(question, "go", wrong), _tests(question))
    assert result.verdict == "wrong_answer"


@pytest.mark.parametrize("slug", FUNCTION_QUESTIONS)
@pytest.mark.parametrize("language", ["cpp", "go"])
def test_every_compiled_starter_compiles_and_runs(slug, language, questions):
    question = questions[slug]
    starter = question["coding"]["starter"][language]
    result = run_tests(_job(question, language, starter), _tests(question)[:1])
    assert result.verdict == "wrong_answer", (result.compile_output, result.tests)
