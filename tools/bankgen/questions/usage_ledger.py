"""usage-ledger: a multi-round performance question. The same token ledger, three rounds:
each follow-up brings an input the previous round's solution is too slow for, and asks
the candidate to say what bounds the current code before changing it."""

import random

from ..common import Case, PartSpec, QuestionSpec

PROMPT = """\
Billing keeps a ledger of the tokens each request of a tenant consumed, in arrival
order: request `i` (1-based) used `tokens[i]` tokens. The billing API answers questions
about it. This is a **performance** round in three parts: each part keeps the rules and
brings inputs the previous part's straightforward solution is too slow for. Before you
optimise, say what bounds your current code (the algorithm? the interpreter? reading
and writing?) and how you know.

### Input

The first line holds `n q`, the second the `n` token counts, then `q` operations, one
per line:

| operation | meaning | output |
|---|---|---|
| `sum l r` | tokens of requests `l … r` (`1 ≤ l ≤ r ≤ n`) | one line: the total |
| `set i v` | request `i` is re-billed: `tokens[i] = v` (part 2 on) | nothing |
| `find x` | the first request at which the running total reaches `x`: the smallest `i` with `tokens[1] + … + tokens[i] ≥ x`, or `-1` if the whole ledger stays below `x` (part 3) | one line |

`1 ≤ n, q ≤ 1.5·10^4`, `0 ≤ tokens, v ≤ 10^6`, `1 ≤ x ≤ 10^12`.

### Example

```
5 6
3 0 4 1 5
sum 1 3
sum 2 2
set 2 10
sum 1 3
find 14
find 100
```

```
7
0
17
3
-1
```

After `set 2 10` the running totals are `3 13 17 18 23`: `14` is first reached at
request 3.

**Limits.** 2 s CPU per test in every part. Part 1's largest tests have `n = q = 1.5·10^4`
sums; part 2's mix sums and re-billing half and half; part 3's mix all three.
The sizes are set so that each round's bound bites in Python; in C++ or JavaScript the
previous round's solution may still fit in 2 s — then say what would bound it at ten
times the size, and fix that.
"""


def _ledger(rng, n, q, *, kinds, max_tokens=10**6):
    tokens = [rng.randint(0, max_tokens) for _ in range(n)]
    lines = [f"{n} {q}", " ".join(map(str, tokens))]
    total = sum(tokens)
    for _ in range(q):
        kind = rng.choice(kinds)
        if kind == "sum":
            lo = rng.randint(1, n)
            lines.append(f"sum {lo} {rng.randint(lo, n)}")
        elif kind == "set":
            lines.append(f"set {rng.randint(1, n)} {rng.randint(0, max_tokens)}")
        else:
            lines.append(f"find {rng.randint(1, max(1, total + total // 10))}")
    return Case("\n".join(lines) + "\n")


def _large(seed, kinds):
    return Case(
        _ledger(random.Random(seed), 15000, 15000, kinds=kinds, max_tokens=999).input, large=True
    )


EXAMPLE = "5 6\n3 0 4 1 5\nsum 1 3\nsum 2 2\nset 2 10\nsum 1 3\nfind 14\nfind 100\n"


def _part(seed, kinds, targeted):
    rng = random.Random(seed)
    cases = list(targeted)
    for n, q, top in [
        (5, 8, 9),
        (20, 30, 5),
        (60, 80, 100),
        (200, 300, 10**6),
        (500, 600, 3),
        (1000, 900, 1000),
    ]:
        cases.append(_ledger(rng, n, q, kinds=kinds, max_tokens=top))
    return cases


PART1_TARGETED = [
    Case("1 2\n0\nsum 1 1\nsum 1 1\n", expect="0\n0\n"),
    Case(
        "3 3\n1000000 1000000 1000000\nsum 1 3\nsum 3 3\nsum 2 3\n",
        expect="3000000\n1000000\n2000000\n",
    ),
    # l = r at both ends
    Case("4 2\n5 6 7 8\nsum 1 1\nsum 4 4\n", expect="5\n8\n"),
    Case("6 4\n0 0 1 0 0 2\nsum 1 2\nsum 1 3\nsum 4 5\nsum 1 6\n", expect="0\n1\n0\n3\n"),
    Case("2 1\n7 9\nsum 1 2\n", expect="16\n"),
    Case("5 3\n1 2 3 4 5\nsum 2 4\nsum 1 5\nsum 5 5\n", expect="9\n15\n5\n"),
]
PART2_TARGETED = [
    # a re-billed request changes later sums, and setting it back restores them
    Case("3 5\n1 2 3\nset 2 10\nsum 1 3\nset 2 2\nsum 1 3\nsum 2 2\n", expect="14\n6\n2\n"),
    # set to zero, set the same value, set the last request
    Case("4 5\n5 5 5 5\nset 1 0\nset 3 5\nset 4 9\nsum 1 4\nsum 1 1\n", expect="19\n0\n"),
    Case("1 3\n4\nset 1 1000000\nsum 1 1\nset 1 0\n", expect="1000000\n"),
    Case("5 4\n1 1 1 1 1\nset 5 6\nset 5 7\nsum 4 5\nsum 1 4\n", expect="8\n4\n"),
    Case("2 2\n0 0\nset 2 3\nset 1 2\n", expect=""),
    Case("3 4\n9 9 9\nsum 1 3\nset 2 0\nsum 1 3\nsum 2 3\n", expect="27\n18\n9\n"),
]
PART3_TARGETED = [
    # reached exactly at a request, and one token later
    Case("3 3\n2 3 4\nfind 5\nfind 6\nfind 1\n", expect="2\n3\n1\n"),
    # zeros: the first request at which the total is reached, not a later zero
    Case("5 3\n0 3 0 0 2\nfind 3\nfind 4\nfind 5\n", expect="2\n5\n5\n"),
    # the whole ledger is below x, or exactly x
    Case("2 2\n1 1\nfind 3\nfind 2\n", expect="-1\n2\n"),
    # after a re-billing
    Case("4 4\n1 1 1 1\nfind 2\nset 1 5\nfind 2\nfind 8\n", expect="2\n1\n4\n"),
    Case("1 2\n0\nfind 1\nfind 1000000000000\n", expect="-1\n-1\n"),
    # a power-of-two length and one past it (the descent's top step)
    Case("8 3\n1 1 1 1 1 1 1 1\nfind 8\nfind 7\nfind 9\n", expect="8\n7\n-1\n"),
    Case("9 3\n1 1 1 1 1 1 1 1 1\nfind 9\nfind 8\nsum 1 9\n", expect="9\n8\n9\n"),
]

STARTER_PY = """\
import sys


def main():
    lines = sys.stdin.read().split("\\n")
    n, q = map(int, lines[0].split())
    tokens = [int(x) for x in lines[1].split()]
    for line in lines[2 : 2 + q]:
        op, *args = line.split()
        if op == "sum":
            l, r = int(args[0]), int(args[1])
            print(sum(tokens[l - 1 : r]))


main()
"""

STARTER_JS = """\
const lines = require("fs").readFileSync(0, "utf8").split("\\n");
const [n, q] = lines[0].split(" ").map(Number);
const tokens = lines[1].split(" ").map(Number);
const out = [];
for (const line of lines.slice(2, 2 + q)) {
  const [op, a, b] = line.split(" ");
  if (op === "sum") {
    let total = 0;
    for (let i = Number(a) - 1; i < Number(b); i++) total += tokens[i];
    out.push(String(total));
  }
}
console.log(out.join("\\n"));
"""

STARTER_CPP = """\
#include <bits/stdc++.h>
using namespace std;

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    int n, q;
    cin >> n >> q;
    vector<long long> tokens(n);
    for (auto &t : tokens) cin >> t;
    string op;
    for (int k = 0; k < q; k++) {
        cin >> op;
        if (op == "sum") {
            int l, r;
            cin >> l >> r;
            long long total = 0;
            for (int i = l - 1; i < r; i++) total += tokens[i];
            cout << total << "\\n";
        }
    }
}
"""

BOUND_POINTS = [
    {
        "point": "Names what bounds the current code before changing it (CPU in the algorithm, not I/O or memory).",
        "patterns": {"en": ["cpu[- ]bound", "\\bo\\(n", "complexity", "per query", "not (i/o|io)"]},
        "dimension": "Performance reasoning",
    },
    {
        "point": "Measures or estimates: operations times input size against the limit.",
        "patterns": {"en": ["profil", "measur", "10\\^?8", "operations", "estimat"]},
        "dimension": "Performance reasoning",
    },
]

FOLLOW_UPS = [
    {
        "prompt": (
            "Round 2: requests get re-billed (`set`), half the operations now. Before you\n"
            "change anything: what bounds your round-1 solution on this input, and why?\n"
        ),
        "unlocks_part": 2,
        "trigger": "on_part_passed",
        "coach_notes": (
            "Round 1's good answer is prefix sums (O(n) once, O(1) per sum); a scan per sum\n"
            "is O(n·q) ≈ 10^8 steps, CPU-bound, seconds in Python. With `set`, prefix sums\n"
            "need an O(n) rebuild per update: again O(n·q). The bound is the algorithm\n"
            "(CPU), not I/O (the input is ~300 KB) and not memory (a few MB). Model answer:\n"
            "a Fenwick (binary indexed) tree or a segment tree, O(log n) per sum and set;\n"
            "sqrt decomposition (blocks of ~140) is an acceptable O(√n) alternative.\n"
        ),
        "key_points": BOUND_POINTS,
    },
    {
        "prompt": (
            "Round 3: billing asks `find x`, the first request at which a tenant's total\n"
            "reaches x. Again, first: what bounds your solution now, and what would you\n"
            "change?\n"
        ),
        "unlocks_part": 3,
        "trigger": "on_part_passed",
        "coach_notes": (
            "Walking the prefix is O(n) per find. Binary search over the tree's prefix sums\n"
            "is O(log² n) (fine here); the model answer descends the Fenwick tree from its\n"
            "highest power of two in O(log n), which needs non-negative tokens (they are).\n"
            "Say what bounds it after the fix: with ~4·10^4 lines the Python I/O (input()\n"
            "and print() per line) is now a real share of the time: read all of stdin at\n"
            "once, write once. Wrong patterns the targeted tests catch: returning the\n"
            "first index *after* the total is reached, skipping over leading zeros wrong,\n"
            "off-by-one at a power-of-two n, find ignoring earlier re-billing.\n"
        ),
        "key_points": [
            *BOUND_POINTS,
            {
                "point": "Fenwick descent (or binary search on prefix sums) for find.",
                "patterns": {"en": ["descen", "binary search", "binary lifting", "log\\s*n"]},
                "dimension": "Data structures and complexity",
            },
        ],
    },
]


def spec() -> QuestionSpec:
    return QuestionSpec(
        slug="usage-ledger",
        name="usage_ledger",
        title="Performance rounds: a token usage ledger",
        difficulty="medium",
        tags=["performance", "optimisation", "fenwick-tree", "prefix-sums", "practice"],
        prompt=PROMPT,
        parts=[
            PartSpec(
                "Round 1: sums",
                "Only `sum` operations.\n",
                [
                    Case("5 3\n3 0 4 1 5\nsum 1 3\nsum 2 2\nsum 1 5\n", expect="7\n0\n13\n"),
                    Case("1 1\n42\nsum 1 1\n", expect="42\n"),
                    Case("4 2\n0 0 0 0\nsum 1 4\nsum 2 3\n", expect="0\n0\n"),
                ],
                [*_part(2031, ["sum"], PART1_TARGETED), _large(2032, ["sum"])],
            ),
            PartSpec(
                "Round 2: re-billing",
                "`sum` and `set` operations. Say what bounds your round-1 code first.\n",
                [
                    Case(
                        "5 5\n3 0 4 1 5\nsum 1 3\nsum 2 2\nset 2 10\nsum 1 3\nsum 2 5\n",
                        expect="7\n0\n17\n20\n",
                    ),
                    Case("2 3\n1 1\nset 1 0\nset 2 0\nsum 1 2\n", expect="0\n"),
                    Case("3 2\n5 5 5\nset 3 1\nsum 3 3\n", expect="1\n"),
                ],
                [*_part(2033, ["sum", "set"], PART2_TARGETED), _large(2034, ["sum", "set"])],
            ),
            PartSpec(
                "Round 3: first request over a budget",
                "All three operations. Say what bounds your round-2 code first.\n",
                [
                    Case(EXAMPLE, expect="7\n0\n17\n3\n-1\n"),
                    Case("3 2\n0 0 5\nfind 1\nfind 5\n", expect="3\n3\n"),
                    Case("2 3\n4 4\nfind 4\nset 1 0\nfind 4\n", expect="1\n2\n"),
                ],
                [
                    *_part(2035, ["sum", "set", "find"], PART3_TARGETED),
                    _large(2036, ["sum", "set", "find"]),
                ],
            ),
        ],
        starter={"python": STARTER_PY, "javascript": STARTER_JS, "cpp": STARTER_CPP},
        follow_ups=FOLLOW_UPS,
    )
