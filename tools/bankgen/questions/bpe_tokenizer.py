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


PART2 = """\
**Decoding, and canonical token sequences.** The serving stack now receives token ids
(from the model's sampler, or from a client resuming a conversation) and must turn them
back into text. Give every symbol an **id**: a single character has its ASCII code
(`33`–`126`; no other code is a character id), and the symbol made by rule `r` (0-based,
duplicates included) has id `256 + r`, whatever the rule's rank. When the encoder of part
1 merges a pair, the new symbol's id is `256 +` the rank of that pair (its first
occurrence in the list).

**Input.**

```
decode
M
left right        (M lines: merge rules, as in part 1)
T
id id ...         (T lines, each with at least one id)
```

**Output.** For each id line, one line:

- `invalid` if some id is neither a character id nor `256 + r` for a rule `r < M`;
- otherwise the **text** (the concatenation of the ids' symbols; it has no spaces), then
  `canonical` if encoding that text as one word with part 1's rules gives exactly these
  ids, else `noncanonical k` followed by the `k` ids of its canonical encoding.

**Example.** With the rules of part 1's example (`a b`, `ab a`, `b c`, `x y`):

```
decode
4
a b
ab a
b c
x y
4
256 256
97 98 99
300
257 97
```

```
abab canonical
abc noncanonical 2 256 99
invalid
abaa canonical
```

`97 98 99` decodes to `abc`, which the encoder turns into `ab c`, i.e. `256 99`. A model
can sample such non-canonical sequences; re-encoding its text does not give them back.

Total ids at most `3·10^5`; a line can hold tens of thousands of ids. **Limits.** 2 s CPU
per test: the canonical check needs part 1's fast encoder.
"""


def _word_ids(rules: list[tuple[str, str]], word: str) -> list[int]:
    """Canonical ids of one word (the plain definition; used only to build inputs)."""
    ranks: dict[tuple[str, str], int] = {}
    for r, pair in enumerate(rules):
        ranks.setdefault(pair, r)
    toks = [(c, ord(c)) for c in word]
    while True:
        best = min(
            (
                (ranks[toks[i][0], toks[i + 1][0]], i)
                for i in range(len(toks) - 1)
                if (toks[i][0], toks[i + 1][0]) in ranks
            ),
            default=None,
        )
        if best is None:
            return [i for _, i in toks]
        r, i = best
        toks[i : i + 2] = [(toks[i][0] + toks[i + 1][0], 256 + r)]


def _decode_case(rules, id_lines) -> str:
    head = "decode\n" + f"{len(rules)}\n" + "".join(f"{a} {b}\n" for a, b in rules)
    return head + f"{len(id_lines)}\n" + "".join(" ".join(map(str, x)) + "\n" for x in id_lines)


def _random_ids(rng, rules, words, *, canonical=0.5, invalid=0.05):
    """Id lines for `words`: canonical encodings, or random splits into known symbols."""
    lines = []
    for word in words:
        ids = _word_ids(rules, word)
        if rng.random() >= canonical and len(ids) > 0:
            # split some merged symbols back into characters
            split = []
            for i in ids:
                if i >= 256 and rng.random() < 0.4:
                    split += [ord(c) for c in rules[i - 256][0] + rules[i - 256][1]]
                else:
                    split.append(i)
            ids = split
        if rng.random() < invalid:
            ids = [*ids, rng.choice([32, 127, 255, 256 + len(rules), 10**6])]
        lines.append(ids)
    return lines


P2_SAMPLES = [
    Case(
        _decode_case(SAMPLE_RULES, [[256, 256], [97, 98, 99], [300], [257, 97]]),
        expect="abab canonical\nabc noncanonical 2 256 99\ninvalid\nabaa canonical\n",
    ),
    Case(_decode_case([], [[104, 105], [33]]), expect="hi canonical\n! canonical\n"),
    # 32 (space), 127 and 255 are not ids; without rules neither is 256
    Case(
        _decode_case([], [[32], [127], [97, 255], [256]]),
        expect="invalid\ninvalid\ninvalid\ninvalid\n",
    ),
]


def _decode_hidden():
    rng = random.Random(818)
    corpus = _corpus(rng, 1500)
    rules = train(corpus, 120)
    cases = [
        # a duplicate rule has its own id, but the encoder never produces it
        Case(
            _decode_case([("b", "c"), ("a", "b"), ("b", "c")], [[97, 258], [97, 256]]),
            expect="abc noncanonical 2 97 256\nabc canonical\n",
        ),
        # one text, two symbols: `a`+`bc` and `ab`+`c` are different ids
        Case(
            _decode_case([("a", "b"), ("b", "c"), ("ab", "c"), ("a", "bc")], [[259], [258]]),
            expect="abc noncanonical 1 258\nabc canonical\n",
        ),
        # a rule whose parts the encoder never builds still decodes
        Case(
            _decode_case([("xy", "z"), ("q", "q")], [[256], [120, 121, 122]]),
            expect="xyz noncanonical 3 120 121 122\nxyz canonical\n",
        ),
        # the id of the last rule is valid, one past it is not
        Case(
            _decode_case([("a", "a"), ("q", "q")], [[257], [258], [97, 97, 97]]),
            expect="qq canonical\ninvalid\naaa noncanonical 2 256 97\n",
        ),
        Case(_decode_case(rules, _random_ids(rng, rules, _corpus(rng, 10)))),
        Case(_decode_case(rules, _random_ids(rng, rules, _corpus(rng, 40), canonical=0.8))),
        Case(_decode_case(rules[:30], _random_ids(rng, rules[:30], _corpus(rng, 60)))),
        Case(
            _decode_case(rules + rules[:20], _random_ids(rng, rules + rules[:20], _corpus(rng, 40)))
        ),
        Case(_decode_case(rules, _random_ids(rng, rules, ["".join(_corpus(rng, 50))] * 2))),
        Case(_decode_case(list(reversed(rules)), _random_ids(rng, rules[::-1], _corpus(rng, 50)))),
        Case(_decode_case(rules, _random_ids(rng, rules, _corpus(rng, 200), invalid=0.2))),
        Case(_decode_case([("a", "a"), ("aa", "aa")], [[97] * 9, [257, 256, 97], [257, 257]])),
    ]
    big_rng = random.Random(89)
    dna = "".join(big_rng.choice("ACGT") for _ in range(30000))
    dna_rules = train([dna[i : i + 40] for i in range(0, 30000, 40)], 300)
    cases.append(Case(_decode_case(dna_rules, [[ord(c) for c in dna]]), large=True))
    return cases


STARTER_PY = """\
import sys


def main() -> None:
    lines = sys.stdin.read().split("\\n")
    decoding = lines[0].strip() == "decode"  # part 2 starts with the word `decode`
    if decoding:
        lines = lines[1:]
    m = int(lines[0])
    rules = [tuple(lines[1 + r].split()) for r in range(m)]
    t = int(lines[1 + m])
    texts = lines[2 + m : 2 + m + t]
    # part 1: encode each line and print "count tokens..."
    # part 2: decode each line of ids and say whether it is canonical


main()
"""

STARTER_JS = """\
let lines = require("fs").readFileSync(0, "utf8").split("\\n");
const decoding = lines[0].trim() === "decode"; // part 2 starts with the word `decode`
if (decoding) lines = lines.slice(1);
const m = Number(lines[0]);
const rules = lines.slice(1, 1 + m).map((l) => l.trim().split(" "));
const t = Number(lines[1 + m]);
const texts = lines.slice(2 + m, 2 + m + t);
// part 1: encode each line and print "count tokens..."
// part 2: decode each line of ids and say whether it is canonical
"""

STARTER_CPP = """\
#include <bits/stdc++.h>
using namespace std;

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    string line;
    getline(cin, line);
    bool decoding = line.rfind("decode", 0) == 0;  // part 2 starts with the word `decode`
    if (decoding) getline(cin, line);
    int m = stoi(line);
    // read m rules, then T and T text lines (keep the spaces: use getline)
    // part 1: encode each line; part 2: decode each line of ids, canonical or not
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
    {
        "prompt": (
            "The server now gets token ids back from the sampler and from clients. Decode\n"
            "them, and tell me whether each sequence is what your encoder would produce\n"
            "(part 2).\n"
        ),
        "unlocks_part": 2,
        "trigger": "on_part_passed",
        "coach_notes": (
            "Decoding is a table look-up; the interesting half is canonicality: re-encode the\n"
            "decoded text with the part 1 encoder and compare ids, not strings (a duplicate\n"
            "rule, or `a`+`bc` vs `ab`+`c`, gives the same text with different ids). Why it\n"
            "matters: a sampled non-canonical sequence re-tokenises differently, which breaks\n"
            "prefix-cache hits, token-count billing and resumed conversations. Watch for ids\n"
            "of duplicate rules treated as invalid, and for space or control codes accepted.\n"
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
        parts=[
            PartSpec("Encode the text", "Implement the encoder.\n", SAMPLES, _hidden()),
            PartSpec("Decode and check canonical ids", PART2, P2_SAMPLES, _decode_hidden()),
        ],
        starter={"python": STARTER_PY, "javascript": STARTER_JS, "cpp": STARTER_CPP},
        follow_ups=FOLLOW_UPS,
    )
