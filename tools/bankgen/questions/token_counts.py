"""token-counts: sliding-window token statistics over a normalised stream (top-k with
ties, distinct, count, reset)."""

import random

from ..common import Case, PartSpec, QuestionSpec

PROMPT = """\
A safety dashboard watches the text a model generates and keeps statistics over the
**last `W` tokens** of the stream: which tokens dominate, how many distinct tokens there
are, how often a given word appears. Implement the statistics service.

### Input

The first line holds `W K Q`: the window size in tokens, the number of tokens `top`
reports, and the number of commands. Each of the next `Q` lines is a command:

| command | effect / output |
|---|---|
| `push <text>` | tokenises `<text>` and appends its tokens to the stream (no output); `<text>` may be empty |
| `top` | prints the `K` most frequent tokens of the window as `token=count`, separated by single spaces: higher count first, equal counts in increasing byte order of the token. Fewer if the window has fewer distinct tokens; `-` if the window is empty |
| `distinct` | prints the number of distinct tokens in the window |
| `count <word>` | prints how many times the token `<word>` normalises to occurs in the window (`0` if it normalises to nothing) |
| `reset` | empties the stream (no output) |

The **window** is the last `W` tokens of the stream (all of them while the stream is
shorter than `W`).

**Tokenising.** The text is split on runs of spaces. Each piece is then normalised:

1. ASCII letters `A`–`Z` become lowercase (other characters are kept as they are);
2. every leading and trailing character from the set `. , ; : ! ? " ' ( ) [ ]` is
   removed (characters inside the token stay: `don't` stays `don't`, `"(a.b)"` becomes
   `a.b`);
3. a piece that becomes empty is dropped.

Texts contain printable ASCII only. `1 ≤ W ≤ 2·10^4`, `1 ≤ K ≤ 50`, `Q ≤ 2·10^4`, at
most `6·10^4` tokens in total.

### Output

One line per `top`, `distinct` and `count` command, in order.

### Example

```
8 2 7
push The cat, the CAT! and "the" dog.
top
count Cat
push dog dog dog
top
distinct
count ...
```

After the first push the stream is `the cat the cat and the dog` (7 tokens). After the
second it has 10 tokens; the window holds the last 8: `the cat and the dog dog dog dog`.

```
the=3 cat=2
2
dog=4 the=2
4
0
```

**Limits.** 2 s CPU per test. The largest test has a window of `2·10^4` tokens, more than
`10^4` of them distinct, and thousands of `top` queries: recounting the window, or
sorting every distinct token, for each query is too slow.
"""

SAMPLES = [
    Case(
        '8 2 7\npush The cat, the CAT! and "the" dog.\ntop\ncount Cat\npush dog dog dog\ntop\n'
        "distinct\ncount ...\n",
        expect="the=3 cat=2\n2\ndog=4 the=2\n4\n0\n",
    ),
    Case(
        "3 5 6\ntop\npush a b c d\ntop\nreset\ndistinct\ntop\n",
        expect="-\nb=1 c=1 d=1\n0\n-\n",
    ),
    Case(
        "100 1 4\npush (don't) [stop] \"don't\"\ntop\ncount DON'T\ncount (stop)\n",
        expect="don't=2\n2\n1\n",
    ),
]

VOCAB = [
    "the",
    "a",
    "kv",
    "token",
    "GPU",
    "gpu",
    "Cache",
    "cache.",
    "(cache)",
    "batch",
    "decode,",
    "prefill",
    "page",
    "safety",
    "model's",
    "don't",
    "x",
    "y",
    "z",
    "'",
    "...",
    "[a]",
    "A",
    "b",
    "B!",
    '"q"',
    "it's",
    "co-op",
    "3.14",
    "v1.2",
    "?!",
    "Z",
    "zz",
    "Zz",
]


def _commands(rng, q, *, vocab, push_len=(0, 8), weights=(6, 2, 1, 2, 0.2)):
    lines = []
    for _ in range(q):
        kind = rng.choices(["push", "top", "distinct", "count", "reset"], weights)[0]
        if kind == "push":
            words = [rng.choice(vocab) for _ in range(rng.randint(*push_len))]
            lines.append(("push " + " ".join(words)).rstrip() if words else "push")
        elif kind == "count":
            lines.append("count " + rng.choice(vocab))
        else:
            lines.append(kind)
    return lines


def _case(rng, w, k, q, **kwargs):
    lines = _commands(rng, q, **kwargs)
    return Case(f"{w} {k} {len(lines)}\n" + "".join(line + "\n" for line in lines))


def _large(seed, w, k, pushes, queries, vocab_size, push_len):
    rng = random.Random(seed)
    vocab = [f"{c}{d}" for c in "abcdefghijklmnopqrstuvwxyz" for d in "0123456789"][:vocab_size]
    lines = []
    for i in range(pushes + queries):
        if i % (pushes // queries + 1) == 0:
            lines.append(rng.choice(["top", "top", "distinct", "count " + rng.choice(vocab)]))
        else:
            # skewed: a few hot tokens, a long tail
            words = [
                vocab[min(int(rng.expovariate(1 / 40)), len(vocab) - 1)]
                if rng.random() < 0.7
                else rng.choice(vocab)
                for _ in range(push_len)
            ]
            lines.append("push " + " ".join(words))
    return Case(f"{w} {k} {len(lines)}\n" + "".join(line + "\n" for line in lines), large=True)


def _large_vocabulary(seed: int, w: int, k: int, queries: int, push_len: int) -> Case:
    """A window full of distinct tokens (a long tail of ~40k words plus a few hot ones) and
    a `top` after almost every push: sorting every distinct token per `top` times out."""
    rng = random.Random(seed)
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    vocab = [a + b + c for a in digits[10:] for b in digits for c in digits][:40_000]
    hot = vocab[:30]

    def words(n: int) -> str:
        return " ".join(
            rng.choice(hot) if rng.random() < 0.2 else rng.choice(vocab) for _ in range(n)
        )

    lines = [f"push {words(500)}" for _ in range(w // 500)]
    for i in range(queries):
        lines.append(f"push {words(push_len)}")
        if i % 50 == 49:
            lines.append(rng.choice(["distinct", f"count {rng.choice(vocab)}"]))
        else:
            lines.append("top")
    return Case(f"{w} {k} {len(lines)}\n" + "".join(line + "\n" for line in lines), large=True)


def _hidden():
    rng = random.Random(606)
    return [
        # window of one token
        Case("1 3 5\npush a b\ntop\npush c\ncount b\ntop\n", expect="b=1\n0\nc=1\n"),
        # a push with nothing but punctuation, and an empty push
        Case("5 2 4\npush ... ( ) !!\npush\ndistinct\ntop\n", expect="0\n-\n"),
        # ties broken by byte order: uppercase was lowered, digits sort before letters
        Case(
            "10 4 2\npush b B a 9 A 10 b\ntop\n",
            expect="b=3 a=2 10=1 9=1\n",
        ),
        # the window slides across push boundaries
        Case("4 2 4\npush x x x\npush y y\ntop\ncount x\n", expect="x=2 y=2\n2\n"),
        # reset in the middle; count of a word that normalises to nothing
        Case(
            "6 3 6\npush k k q\nreset\npush q\ntop\ncount k\ncount \"''\"\n",
            expect="q=1\n0\n0\n",
        ),
        _case(rng, 5, 2, 40, vocab=VOCAB),
        _case(rng, 1, 1, 60, vocab=VOCAB),
        _case(rng, 20, 5, 120, vocab=VOCAB, weights=(4, 3, 1, 3, 0.5)),
        _case(rng, 1000, 50, 200, vocab=VOCAB),
        _case(rng, 64, 3, 400, vocab=VOCAB, push_len=(0, 20)),
        _case(rng, 7, 7, 800, vocab=VOCAB[:6]),
        _case(rng, 300, 10, 1500, vocab=VOCAB, push_len=(1, 12)),
        # large: big window, skewed stream, frequent queries
        _large(66, 20_000, 5, 4_000, 3_000, 260, 14),
        _large_vocabulary(67, 20_000, 10, 8_000, 4),
    ]


STARTER_PY = """\
import sys


def main() -> None:
    lines = sys.stdin.read().split("\\n")
    w, k, q = map(int, lines[0].split())
    for line in lines[1 : 1 + q]:
        command, _, rest = line.partition(" ")
        # handle push / top / distinct / count / reset


main()
"""

STARTER_JS = """\
const lines = require("fs").readFileSync(0, "utf8").split("\\n");
const [w, k, q] = lines[0].trim().split(/\\s+/).map(Number);
const out = [];
for (const line of lines.slice(1, 1 + q)) {
  const space = line.indexOf(" ");
  const command = space < 0 ? line : line.slice(0, space);
  const rest = space < 0 ? "" : line.slice(space + 1);
  // handle push / top / distinct / count / reset
}
console.log(out.join("\\n"));
"""

STARTER_CPP = """\
#include <bits/stdc++.h>
using namespace std;

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    long long w, k, q;
    string line;
    getline(cin, line);
    istringstream(line) >> w >> k >> q;
    for (long long i = 0; i < q && getline(cin, line); i++) {
        // handle push / top / distinct / count / reset
    }
    return 0;
}
"""

FOLLOW_UPS = [
    {
        "prompt": (
            "The vocabulary is now 200k tokens and the window 10M tokens on each of 64\n"
            "shards. How do you serve a global top-K?\n"
        ),
        "trigger": "on_part_passed",
        "coach_notes": (
            "Per-shard exact counts do not merge into an exact global top-K from per-shard\n"
            "top-K lists alone (a token can be second everywhere and first globally).\n"
            "Options: ship per-shard counts of candidates (threshold algorithm / TPUT),\n"
            "Count-Min Sketch + heap, or Misra-Gries / SpaceSaving summaries, which merge\n"
            "with bounded error. Strong answers state the error bound and the memory.\n"
        ),
    },
]


def spec() -> QuestionSpec:
    return QuestionSpec(
        slug="token-counts",
        name="token_counts",
        title="Sliding-window token statistics",
        difficulty="medium",
        tags=["streaming", "top-k", "sliding-window", "tokenizer", "edge-cases", "challenge"],
        prompt=PROMPT,
        parts=[
            PartSpec(
                "Window statistics",
                "Implement the commands above.\n",
                SAMPLES,
                _hidden(),
            )
        ],
        starter={"python": STARTER_PY, "javascript": STARTER_JS, "cpp": STARTER_CPP},
        follow_ups=FOLLOW_UPS,
    )
