"""bpe-tokenizer: apply a ranked BPE merge list to text, one merge at a time; the fast
version needs a heap over a linked list of symbols."""

import random
from collections import Counter

from ..common import Case, PartSpec, QuestionSpec

PROMPT = """\
Implement the encoder of a **byte-pair-encoding (BPE) tokenizer**. You are given the
ranked list of merge rules a tokenizer learned, and lines of text to encode.

### Input

```
M
left right        (M lines: merge rules, rank 0 first)
T
text              (T lines)
```

A rule `left right` says: two adjacent symbols `left` and `right` may be merged into the
single symbol `left + right` (concatenation). Its **rank** is its 0-based position in
the list; a smaller rank is preferred. If the same pair appears more than once, only its
first occurrence counts. `left` and `right` are non-empty strings of printable ASCII
characters without spaces; they need not occur in the text.

### Encoding

Each text line is split into **words**: maximal runs of non-space characters (lines may
start or end with spaces, or contain several spaces in a row; an empty line has no
words). Words are encoded independently — merges never cross a space:

1. start with one symbol per character of the word;
2. among all adjacent pairs of symbols that have a rule, take the one with the smallest
   rank; if several occurrences of that pair exist, take the **leftmost**; merge it;
3. repeat step 2 until no adjacent pair has a rule.

Note that this merges one occurrence at a time: after a merge, new pairs appear and are
considered at once.

### Output

For each text line, one line: the number of tokens of the line, then its tokens (the
final symbols of all its words, in order), separated by single spaces. An empty line
gives `0`.

Constraints: `0 ≤ M ≤ 10^5`, `0 ≤ T`, total text length at most `3·10^5` characters; a
single word can be tens of thousands of characters long (think of a base64 blob or a
DNA sequence in a prompt).

### Example

```
4
a b
ab a
b c
x y
2
abab abc  bc
aaba
```

`abab`: pairs `ab` (rank 0) at positions 0 and 2 → merge the leftmost: `ab a b`; now
`a b` (rank 0) beats `ab a` (rank 1): `ab ab`. `abc`: `ab c` — the rule `b c` never
applies because `b` was merged first. `aaba`: `a a b a` → `a ab a` → `a aba`.

```
5 ab ab ab c bc
2 a aba
```

**Limits.** 2 s CPU per test. Rescanning every pair after every merge is quadratic in
the word length and times out on the long words.
"""

SYLLABLES = ["ka", "to", "ri", "en", "an", "the", "ing", "tion", "er", "ou", "qu", "st", "re"]


def _corpus(rng, words):
    return [
        "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 4)))
        + rng.choice(["", "", "s", "ed", "'s", ".", ","])
        for _ in range(words)
    ]


def train(words, merges):
    """Plain BPE training: repeatedly merge the most frequent adjacent pair."""
    vocab = Counter(tuple(w) for w in words)
    rules = []
    for _ in range(merges):
        pairs = Counter()
        for word, count in vocab.items():
            for a, b in zip(word, word[1:], strict=False):
                pairs[a, b] += count
        if not pairs:
            break
        (a, b), _ = min(pairs.items(), key=lambda kv: (-kv[1], kv[0]))
        rules.append((a, b))
        merged = Counter()
        for word, count in vocab.items():
            out = []
            i = 0
            while i < len(word):
                if i + 1 < len(word) and word[i] == a and word[i + 1] == b:
                    out.append(a + b)
                    i += 2
                else:
                    out.append(word[i])
                    i += 1
            merged[tuple(out)] += count
        vocab = merged
    return rules


def _case(rules, lines):
    head = f"{len(rules)}\n" + "".join(f"{a} {b}\n" for a, b in rules)
    return head + f"{len(lines)}\n" + "".join(line + "\n" for line in lines)


SAMPLE_RULES = [("a", "b"), ("ab", "a"), ("b", "c"), ("x", "y")]

SAMPLES = [
    Case(_case(SAMPLE_RULES, ["abab abc  bc", "aaba"]), expect="5 ab ab ab c bc\n2 a aba\n"),
    Case(_case([], ["hi there", ""]), expect="7 h i t h e r e\n0\n"),
    Case(
        _case([("l", "l"), ("e", "l"), ("el", "l"), ("h", "e")], ["hello", "hell", "ll!"]),
        expect="3 he ll o\n2 he ll\n2 ll !\n",
    ),
]


def _hidden():
    rng = random.Random(808)
    corpus = _corpus(rng, 1500)
    rules = train(corpus, 120)
    odd_rules = [("z", "z"), ("a", "b"), ("a", "b"), ("zz", "zz"), ("!", "?"), ("qu", "qu")]
    cases = [
        # overlapping occurrences: "aaa" merges the leftmost pair only
        Case(_case([("a", "a")], ["aaa aaaa aaaaa"]), expect="7 aa a aa aa aa aa a\n"),
        # a duplicate rule keeps its first rank
        Case(_case([("b", "c"), ("a", "b"), ("b", "c"), ("a", "bc")], ["abc"]), expect="1 abc\n"),
        Case(_case([("x", "y"), ("a", "b"), ("b", "c"), ("a", "b")], ["abc"]), expect="2 ab c\n"),
        # rules whose parts never occur; spaces only; leading and trailing spaces
        Case(_case([("q", "q"), ("x", "y")], ["   ", "  xy  x y  "]), expect="0\n3 xy x y\n"),
        # a new pair with a lower rank than the current one is taken at once
        Case(_case([("ab", "a"), ("a", "b")], ["abab", "ababab"]), expect="2 aba b\n3 aba b ab\n"),
        Case(_case(rules, [" ".join(_corpus(rng, 8)) for _ in range(3)])),
        Case(_case(rules + odd_rules, [" ".join(_corpus(rng, 20)) for _ in range(5)])),
        Case(_case(rules[:30], [" ".join(_corpus(rng, 40)) for _ in range(10)])),
        # the learned list with its first rules repeated at the end (a concatenated file)
        Case(_case(rules + rules[:20], [" ".join(_corpus(rng, 40)) for _ in range(4)])),
        Case(_case(rules, ["".join(_corpus(rng, 60))])),
        Case(_case(list(reversed(rules)), [" ".join(_corpus(rng, 30)) for _ in range(6)])),
        Case(_case(rules, ["".join(rng.choice("ab") for _ in range(300))])),
        Case(_case([("a", "a"), ("aa", "aa"), ("aaaa", "aaaa")], ["a" * 1000, "a" * 999])),
        Case(_case(rules, [" ".join(_corpus(rng, 400))])),
    ]
    big_rng = random.Random(88)
    big_rules = train(_corpus(big_rng, 3000), 400)
    blob = "".join(_corpus(big_rng, 9000))
    cases.append(Case(_case(big_rules, [blob[:24000], blob[24000:30000]]), large=True))
    dna = "".join(big_rng.choice("ACGT") for _ in range(30000))
    dna_rules = train([dna[i : i + 40] for i in range(0, 30000, 40)], 300)
    cases.append(Case(_case(dna_rules, [dna]), large=True))
    return cases


STARTER_PY = """\
import sys


def main() -> None:
    lines = sys.stdin.read().split("\\n")
    m = int(lines[0])
    rules = [tuple(lines[1 + r].split()) for r in range(m)]
    t = int(lines[1 + m])
    texts = lines[2 + m : 2 + m + t]
    # encode each line and print "count tokens..."


main()
"""

STARTER_JS = """\
const lines = require("fs").readFileSync(0, "utf8").split("\\n");
const m = Number(lines[0]);
const rules = lines.slice(1, 1 + m).map((l) => l.trim().split(" "));
const t = Number(lines[1 + m]);
const texts = lines.slice(2 + m, 2 + m + t);
// encode each line and print "count tokens..."
"""

STARTER_CPP = """\
#include <bits/stdc++.h>
using namespace std;

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    string line;
    getline(cin, line);
    int m = stoi(line);
    // read m rules, then T and T text lines (keep the spaces: use getline)
    return 0;
}
"""

FOLLOW_UPS = [
    {
        "prompt": "How do you make one merge cost O(log n) instead of O(n)?",
        "trigger": "after_minutes",
        "after_minutes": 20,
        "coach_notes": (
            "Symbols in a doubly linked list (arrays of prev/next), a min-heap of candidate\n"
            "pairs keyed by (rank, position of the left symbol), lazy invalidation by\n"
            "checking that both symbols are still alive and unchanged, and pushing the two\n"
            "new neighbour pairs after each merge. Positions keep their left-to-right order\n"
            "in the list, so 'leftmost' is the smallest original index.\n"
        ),
    },
    {
        "prompt": (
            "Production tokenizers work on bytes, not characters, and cache words. What\n"
            "changes, and what breaks if a client sends invalid UTF-8?\n"
        ),
        "trigger": "on_part_passed",
        "coach_notes": (
            "Byte-level BPE has a 256-symbol base so nothing is out of vocabulary; invalid\n"
            "UTF-8 still encodes but decoding a partial token stream may split a code point,\n"
            "so streaming detokenizers hold back incomplete sequences. A word cache (LRU)\n"
            "helps natural text but not blobs. A pre-tokenizer regex splits words; a\n"
            "pathological input (one 1 MB word) is a DoS risk: cap word length.\n"
        ),
    },
]


def spec() -> QuestionSpec:
    return QuestionSpec(
        slug="bpe-tokenizer",
        name="bpe_tokenizer",
        title="BPE tokenizer: apply ranked merges fast",
        difficulty="medium",
        tags=["tokenizer", "parsing", "heap", "linked-list", "practice"],
        prompt=PROMPT,
        parts=[PartSpec("Encode the text", "Implement the encoder.\n", SAMPLES, _hidden())],
        starter={"python": STARTER_PY, "javascript": STARTER_JS, "cpp": STARTER_CPP},
        follow_ups=FOLLOW_UPS,
    )
