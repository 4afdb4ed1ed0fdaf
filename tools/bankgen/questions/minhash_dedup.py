"""minhash-dedup: the dedup stage of a pre-training data pipeline: exact duplicates, then
MinHash near-duplicates with a fixed hash family (so the answer is deterministic) and
leader clustering; part 2 is the same job on a skewed corpus (boilerplate templates)."""

import random

from ..common import Case, PartSpec, QuestionSpec

PROMPT = """\
Before a pre-training run, the data team removes duplicated documents: exact copies
first, then near-duplicates (the same page with a different date or a typo fixed). The
production job is a map-reduce over billions of documents; here you write its logic for
one shard. Documents arrive already tokenised.

Implement `run(n, m, docs)`: `docs[i]` is a list of token ids (`0 ≤ token < 2^20`, at
least 3 tokens each). Return `{"exact": [...], "near": [...]}`, two lists with one entry
per document.

**1. Exact duplicates.** `exact[i]` is the smallest index `j` such that `docs[j]` is the
same list as `docs[i]` (so `exact[i] = i` for the first copy).

**2. Signatures.** Only first copies (`exact[i] = i`) get one. The *shingles* of a
document are its windows of 3 consecutive tokens; a shingle `(t1, t2, t3)` has the value
`x = t1·2^40 + t2·2^20 + t3`. With `P = 2^61 − 1` and, for `h = 0 … n−1`,

```
a_h = 11400714819323198485^(h + 1) mod P      (11400714819323198485 = 0x9E3779B97F4A7C15)
b_h = 13787848793156543929^(h + 1) mod P      (13787848793156543929 = 0xBF58476D1CE4E5B9)
```

the signature's entry `h` is the minimum of `(a_h · x + b_h) mod P` over the document's
shingles. (All arithmetic is exact integer arithmetic; in JavaScript use `BigInt`.)

**3. Near-duplicates.** Two signatures *match* if they are equal in at least `m` of
their `n` positions. Go through the first copies in index order: a document whose
signature matches that of some earlier **leader** joins the **smallest-indexed** such
leader; otherwise it becomes a leader itself. `near[i]` is the leader of document `i`'s
group — for a copy, the leader of its first copy.

`1 ≤ m ≤ n ≤ 16`, `0 ≤ len(docs) ≤ 10^4`, at most `10^5` tokens in all.

### Example

```
run(4, 3, [[1, 2, 3, 4, 5, 6], [9, 9, 9], [1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 9], [1, 2, 3, 4, 5]])
→ {"exact": [0, 1, 0, 3, 4], "near": [0, 1, 0, 3, 0]}
```

Document 2 is a copy of 0. Document 3 shares three of its four shingles with 0, but
its signature agrees with 0's in only 2 of 4 positions: it leads its own group.
Document 4's signature agrees with 0's in 3 positions (and with 3's in 2).

**Limits.** 2 s CPU per test. Comparing every document with every leader is too slow
for the largest tests (thousands of leaders).
"""

PART2 = """\
The same job on a web crawl shard, where the corpus is **skewed**: most documents are
copies or near-copies of a handful of boilerplate templates (cookie banners, error
pages, mirrored licences), and the rest are distinct. The rules do not change; the
largest tests have 7600 documents, a quarter of them copies or edits of five templates, and
thousands of distinct leaders.
"""


def _corpus(rng, d, *, vocab, length, copies=0.2, edits=0.3, templates=None):
    docs = []
    pool = templates or []
    for _ in range(d):
        x = rng.random()
        base = pool or docs
        if base and x < copies:
            docs.append(list(rng.choice(base)))
        elif base and x < copies + edits:
            doc = list(rng.choice(base))
            for _ in range(rng.randint(1, 3)):
                doc[rng.randrange(len(doc))] = rng.randrange(vocab)
            docs.append(doc)
        else:
            docs.append([rng.randrange(vocab) for _ in range(rng.randint(3, length))])
    return docs


EXAMPLE = [
    4,
    3,
    [[1, 2, 3, 4, 5, 6], [9, 9, 9], [1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 9], [1, 2, 3, 4, 5]],
]

SAMPLES = [
    Case(EXAMPLE, expect={"exact": [0, 1, 0, 3, 4], "near": [0, 1, 0, 3, 0]}),
    Case([1, 1, [[5, 5, 5], [5, 5, 5, 5], [5, 5, 5]]]),
    Case([8, 8, [[1, 2, 3], [3, 2, 1], [1, 2, 3, 1, 2, 3]]]),
]


def _hidden_1():
    rng = random.Random(2021)
    return [
        # a copy of a non-leader follows its first copy's leader
        Case([4, 3, [[1, 2, 3, 4, 5], [7, 1, 2, 3, 4], [7, 1, 2, 3, 4], [1, 2, 3, 4, 5]]]),
        # the smallest matching leader wins, not the best-matching one
        Case([2, 1, [[1, 2, 3, 9], [1, 2, 3, 8], [1, 2, 3, 9, 8], [1, 2, 3, 8, 9]]]),
        # token order matters (the shingles differ) but repeated shingles count once
        Case([6, 6, [[4, 5, 6], [6, 5, 4], [4, 5, 6, 4, 5, 6], [4, 5, 6, 4]]]),
        # m = n: only equal signatures match; m = 1: any agreement
        Case([5, 5, [[1, 2, 3, 4], [1, 2, 3, 5], [2, 3, 4, 1], [1, 2, 3, 4]]]),
        Case([5, 1, [[1, 2, 3, 4], [1, 2, 3, 5], [2, 3, 4, 1], [9, 9, 9, 9]]]),
        # the largest token ids (the shingle value needs 60 bits, the products 122)
        Case([3, 2, [[2**20 - 1] * 3, [2**20 - 1, 2**20 - 1, 0], [2**20 - 1] * 4]]),
        # a document's leader is always a leader, never a member of another group
        Case([3, 2, [[1, 1, 2, 2, 3], [1, 1, 2, 2, 4], [1, 1, 2, 2, 4, 5], [1, 2, 2, 4, 5]]]),
        Case([4, 2, []]),
        Case([16, 9, [[3, 1, 4, 1, 5, 9, 2, 6]]]),
        Case([4, 3, _corpus(rng, 12, vocab=4, length=8)]),
        Case([6, 4, _corpus(rng, 30, vocab=10, length=12)]),
        Case([8, 5, _corpus(rng, 60, vocab=50, length=20, edits=0.5)]),
        Case([10, 8, _corpus(rng, 120, vocab=1000, length=30)]),
        Case([16, 12, _corpus(rng, 200, vocab=2**20, length=25, edits=0.6)]),
        Case([3, 1, _corpus(rng, 150, vocab=6, length=6)]),
    ]


def _large(seed, *, skew):
    big = random.Random(seed)
    if skew:
        templates = [[big.randrange(60000) for _ in range(big.randint(8, 14))] for _ in range(5)]
        docs = _corpus(
            big, 4600, vocab=60000, length=10, copies=0.25, edits=0.25, templates=templates
        )
        docs += _corpus(big, 3000, vocab=60000, length=5, copies=0.0, edits=0.0)
        big.shuffle(docs)
        return Case([8, 6, docs], large=True)
    return Case(
        [8, 6, _corpus(big, 3000, vocab=60000, length=24, copies=0.05, edits=0.1)], large=True
    )


def _hidden_2():
    rng = random.Random(2022)
    cases = []
    for n, m, d in [(4, 3, 20), (6, 4, 60), (8, 6, 150), (8, 5, 300), (12, 9, 500)]:
        templates = [[rng.randrange(30) for _ in range(rng.randint(5, 12))] for _ in range(3)]
        cases.append(
            Case(
                [
                    n,
                    m,
                    _corpus(
                        rng, d, vocab=30, length=10, copies=0.4, edits=0.4, templates=templates
                    ),
                ]
            )
        )
    # one template, all copies and edits of it
    template = [rng.randrange(100) for _ in range(10)]
    cases.append(
        Case(
            [
                6,
                5,
                _corpus(
                    rng, 200, vocab=100, length=10, copies=0.5, edits=0.5, templates=[template]
                ),
            ]
        )
    )
    cases += [
        # every document the same
        Case([4, 4, [[1, 2, 3, 4]] * 50]),
        # an edited template that does not match becomes a leader of its own
        Case(
            [4, 4, [[1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 7], [1, 2, 3, 4, 5, 7], [1, 2, 3, 4, 5, 6]]]
        ),
        Case([8, 7, _corpus(rng, 400, vocab=8, length=9, copies=0.3, edits=0.6)]),
        Case([2, 2, _corpus(rng, 100, vocab=3, length=5)]),
        Case([16, 16, _corpus(rng, 300, vocab=2**20, length=20, copies=0.3, edits=0.3)]),
        Case([5, 2, _corpus(rng, 250, vocab=20, length=15, edits=0.7)]),
        _large(2024, skew=True),
    ]
    return cases


STARTER_PY = """\
def run(n: int, m: int, docs: list) -> dict:
    P = (1 << 61) - 1
    exact, near = [], []
    # 1. exact duplicates  2. signatures of first copies  3. leaders
    return {"exact": exact, "near": near}
"""

STARTER_JS = """\
function run(n, m, docs) {
  const P = (1n << 61n) - 1n; // BigInt: the products need 122 bits
  const exact = [];
  const near = [];
  // 1. exact duplicates  2. signatures of first copies  3. leaders
  return { exact, near };
}

module.exports = { run };
"""

FOLLOW_UPS = [
    {
        "prompt": (
            "Comparing each document with every leader is quadratic. How do you find the\n"
            "candidate leaders without missing one?\n"
        ),
        "trigger": "after_minutes",
        "after_minutes": 20,
        "coach_notes": (
            "Model answer: LSH banding, made exact by pigeonhole: split the n positions into\n"
            "n - m + 1 bands; if at least m positions agree, at most n - m disagree, so at\n"
            "least one band agrees entirely. Index every leader under each band's value;\n"
            "a document's candidates are the leaders in its buckets; verify each (count\n"
            "agreements). Buckets list leaders in increasing order, so merge them and stop at\n"
            "the first match (the smallest leader). Exact duplicates first by hashing the\n"
            "token tuple, and no signature for copies. Wrong patterns the hidden tests\n"
            "target: joining the best-matching leader instead of the smallest, letting a\n"
            "document join a non-leader (transitive union-find), counting repeated shingles\n"
            "twice, copies of a non-leader attached to the wrong group, b = n bands of one\n"
            "position each treated as 'match' on any equal band (false positives).\n"
        ),
        "key_points": [
            {
                "point": "Banding with n - m + 1 bands finds every candidate (pigeonhole).",
                "patterns": {"en": ["band", "pigeonhole", "\\blsh\\b", "locality"]},
                "dimension": "Data structures and complexity",
            },
            {
                "point": "Candidates are verified by counting agreeing positions.",
                "patterns": {"en": ["verif", "false positive", "count(ing)? agree"]},
                "dimension": "Correctness and edge cases",
            },
        ],
    },
    {
        "prompt": (
            "In the real map-reduce job, the shuffle key is the band value. What does a\n"
            "boilerplate template do to the reducers, and what do you do about it?\n"
        ),
        "unlocks_part": 2,
        "trigger": "on_part_passed",
        "coach_notes": (
            "A hot key: every copy and near-copy of a cookie banner shares band values, so one\n"
            "reducer gets millions of records (stragglers, OOM) while the others idle. Fixes:\n"
            "exact-dedup first with a combiner (the map side collapses copies to one record\n"
            "with a count), salt hot keys and fan them in a second round, cap bucket sizes\n"
            "(treat a huge bucket as boilerplate and compare only against its first members),\n"
            "sample key frequencies before the job to pick split points. In one process:\n"
            "merge sorted bucket lists and stop at the first match so a hot bucket costs\n"
            "only up to its first hit. Trade-off: capping loses recall; salting costs a round.\n"
        ),
        "key_points": [
            {
                "point": "Hot keys overload one reducer; combine, salt or cap them.",
                "patterns": {"en": ["hot key", "salt", "combiner", "straggler", "skew"]},
                "dimension": "Performance reasoning",
            },
        ],
    },
]


def spec() -> QuestionSpec:
    return QuestionSpec(
        slug="minhash-dedup",
        name="minhash_dedup",
        title="Map-reduce dedup: exact and MinHash near-duplicates",
        difficulty="medium",
        tags=["map-reduce", "dedup", "minhash", "lsh", "skew", "practice"],
        prompt=PROMPT,
        parts=[
            PartSpec(
                "Exact and near-duplicates",
                "Arguments arrive as a JSON array `[n, m, docs]`; return the object.\n",
                SAMPLES,
                [*_hidden_1(), _large(2023, skew=False)],
            ),
            PartSpec(
                "A skewed corpus",
                PART2,
                [
                    Case([4, 3, [[1, 2, 3, 4]] * 3 + [[1, 2, 3, 5]] * 2]),
                    Case(
                        [
                            6,
                            5,
                            _corpus(
                                random.Random(7),
                                30,
                                vocab=12,
                                length=8,
                                copies=0.4,
                                edits=0.4,
                                templates=[[1, 2, 3, 4, 5, 6, 7, 8]],
                            ),
                        ]
                    ),
                    Case(
                        [4, 2, [[5, 6, 7, 8, 9], [5, 6, 7, 8, 1], [5, 6, 7, 8, 9], [2, 6, 7, 8, 9]]]
                    ),
                ],
                _hidden_2(),
            ),
        ],
        starter={"python": STARTER_PY, "javascript": STARTER_JS},
        follow_ups=FOLLOW_UPS,
        languages=["python", "javascript"],
        io="function",
        entrypoint="run",
    )
