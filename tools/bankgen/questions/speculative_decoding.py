"""speculative-decoding: a speculative-decoding acceptance simulator (Leviathan et al.,
2023): a draft model proposes k tokens, the target accepts each with min(1, p/q),
resamples a rejection from the residual max(0, p - q), adds a bonus token when all pass;
deterministic through a stated random-number generator and integer arithmetic."""

import random

from ..common import Case, PartSpec, QuestionSpec

PROMPT = """\
Speculative decoding makes a large *target* model generate faster: a small *draft*
model proposes `k` tokens, the target checks them all in one forward pass, and a
rejection-sampling rule keeps the output distributed exactly as the target's. Simulate
it, deterministically.

Implement `run(d, draft, target, start, k, n, seed)`. Both models are bigram tables over
the tokens `0 … V − 1`: `draft[a][x]` and `target[a][x]` are the integer weights of
token `x` following token `a`; every row of both tables sums to exactly `d`. `start` is
the token before the output (the prompt's last token). Generate `n` output tokens.

**Random numbers.** `r_0 = seed`, `r_{j+1} = r_j · 48271 mod (2^31 − 1)`; each *draw*
takes the next one (`r_1` first), so every draw `u` satisfies `1 ≤ u < M` with
`M = 2^31 − 1`. Sampling token `y` from integer weights `w` with total `W > 0` with the
draw `u` picks the **smallest** `y` with `(w[0] + … + w[y]) · M > u · W`. Use exact
integer arithmetic (every product here stays below `2^53`).

**One round**, with `a` the last output token (or `start`):

1. **Draft.** Sample `x_1` from `draft[a]`, then `x_2` from `draft[x_1]`, …, `x_k` from
   `draft[x_{k−1}]`: `k` draws, all taken before any check. Call `c_i` the token
   before `x_i` (`c_1 = a`, `c_i = x_{i−1}`).
2. **Verify** `i = 1 … k` in order, one draw `u` each: accept `x_i` if
   `u · draft[c_i][x_i] < target[c_i][x_i] · M` (that is, with probability
   `min(1, p/q)`). At the first rejected `x_i`, take one more draw and sample the
   replacement from the residual weights `max(0, target[c_i][y] − draft[c_i][y])`; the
   round emits `x_1 … x_{i−1}` and the replacement, and ends.
3. **Bonus.** If all `k` were accepted, take one more draw and sample a bonus token from
   `target[x_k]` (`target[a]` when `k = 0`); the round emits `x_1 … x_k` and the bonus.

Rounds run until at least `n` tokens are out; tokens past the `n`-th are dropped (the
last round still counts in full). Return
`{"rounds": R, "accepted": [h_0, …, h_k], "tail": [...], "checksum": c}`: the number of
rounds, `h_j` the number of rounds that accepted exactly `j` draft tokens, the last
`min(n, 32)` output tokens, and `c = Σ (i + 1) · t_i mod (10^9 + 7)` over the output
tokens `t_0 … t_{n−1}`.

`1 ≤ V ≤ 128`, `1 ≤ d ≤ 10^4`, `0 ≤ k ≤ 16`, `1 ≤ n ≤ 2·10^5`,
`1 ≤ seed < 2^31 − 1`.

### Example

```
run(4, [[4, 0], [2, 2]], [[2, 2], [0, 4]], 0, 2, 5, 7)
```

```
{"rounds": 3, "accepted": [2, 0, 1], "tail": [0, 0, 1, 1, 1], "checksum": 12}
```

After `0` the draft always proposes `0`, which the target accepts with probability
1/2. Round 1 accepts both draft tokens `0, 0` and adds the bonus `1`; rounds 2 and 3
each reject their first draft token and replace it from the residual (`[0, 2]` in both
rows), so by `1`. Checksum: `1·0 + 2·0 + 3·1 + 4·1 + 5·1 = 12`.

**Limits.** 2 s CPU per test. Walking a whole distribution for every sample, or
rebuilding the residual on every rejection, is too slow for the largest tests.
"""

EXAMPLE = [4, [[4, 0], [2, 2]], [[2, 2], [0, 4]], 0, 2, 5, 7]


def _table(rng, v, d, *, peaked=0.5, zeros=0.3, high=False):
    """Rows of integer weights summing to d: some mass on one favourite, the rest spread
    (with some zero weights), biased toward high token ids; `high`: the favourite is
    among the top quarter (a linear walk over the row is long)."""
    rows = []
    for _ in range(v):
        raw = [0 if rng.random() < zeros else rng.random() * (1 + y / v) for y in range(v)]
        raw[v - 1 - rng.randrange(max(1, v // 4)) if high else rng.randrange(v)] += peaked * v
        total = sum(raw)
        row = [int(w / total * d) for w in raw]
        row[max(range(v), key=lambda y: raw[y])] += d - sum(row)
        rows.append(row)
    return rows


def _pair(rng, v, d, *, closeness, high=False):
    """A target table and a draft that agrees with it to `closeness` (0..1)."""
    target = _table(rng, v, d, high=high)
    noise = _table(rng, v, d, peaked=0.2, high=high)
    draft = []
    for t_row, n_row in zip(target, noise, strict=True):
        row = [int(closeness * t + (1 - closeness) * x) for t, x in zip(t_row, n_row, strict=True)]
        row[max(range(v), key=lambda y: row[y])] += d - sum(row)
        draft.append(row)
    return draft, target


def _case(rng, v, d, k, n, closeness=0.7, high=False):
    draft, target = _pair(rng, v, d, closeness=closeness, high=high)
    return [d, draft, target, rng.randrange(v), k, n, rng.randrange(1, 2**31 - 1)]


def _hidden():
    rng = random.Random(1971)
    same = _table(rng, 3, 10)
    cases = [
        # k = 0 is plain sampling from the target: one token a round
        Case([10, same, _table(rng, 3, 10), 0, 0, 6, 99]),
        # a perfect draft: every round accepts all k and adds the bonus token
        Case([10, same, same, 1, 3, 10, 12345]),
        Case([10, same, same, 2, 4, 1, 5]),
        # a rejection is replaced from the residual, never by the rejected token
        Case([4, [[4, 0, 0]] * 3, [[2, 1, 1]] * 3, 0, 1, 40, 2024]),
        Case([4, [[4, 0, 0]] * 3, [[2, 1, 1]] * 3, 0, 3, 40, 77]),
        # after 1 the target never picks the draft's 1: always rejected there
        Case([6, [[0, 6], [0, 6]], [[3, 3], [6, 0]], 1, 2, 12, 31337]),
        # the target prefers what the draft rarely proposes (accept always when p >= q)
        Case([8, [[6, 2], [6, 2]], [[1, 7], [2, 6]], 0, 2, 30, 8]),
        # contexts differ per position: c_i is the previous draft token
        Case(
            [
                6,
                [[0, 6, 0], [0, 0, 6], [6, 0, 0]],
                [[0, 3, 3], [2, 2, 2], [3, 0, 3]],
                0,
                3,
                30,
                4242,
            ]
        ),
        Case([1, [[1]], [[1]], 0, 16, 50, 1]),
        Case(_case(rng, 4, 20, 2, 60)),
        Case(_case(rng, 5, 100, 4, 200, closeness=0.9)),
        Case(_case(rng, 8, 1000, 3, 500, closeness=0.3)),
        Case(_case(rng, 20, 10**4, 16, 2000, closeness=0.95)),
        Case(_case(rng, 64, 997, 6, 3000)),
        Case(_case(rng, 96, 10**4, 1, 1000, closeness=0.5)),
    ]
    big = random.Random(1972)
    cases.append(Case(_case(big, 128, 10**4, 16, 2 * 10**5, closeness=0.5, high=True), large=True))
    return cases


STARTER_PY = """\
M = 2**31 - 1


def run(d: int, draft: list, target: list, start: int, k: int, n: int, seed: int) -> dict:
    tokens = []
    rounds = 0
    accepted = [0] * (k + 1)
    # simulate the rounds
    checksum = sum((i + 1) * t for i, t in enumerate(tokens)) % 1_000_000_007
    return {"rounds": rounds, "accepted": accepted, "tail": tokens[-32:], "checksum": checksum}
"""

STARTER_JS = """\
const M = 2147483647;

function run(d, draft, target, start, k, n, seed) {
  const tokens = [];
  let rounds = 0;
  const accepted = new Array(k + 1).fill(0);
  // simulate the rounds (every product stays below 2^53: plain numbers are exact)
  let checksum = 0;
  tokens.forEach((t, i) => { checksum = (checksum + (i + 1) * t) % 1000000007; });
  return { rounds, accepted, tail: tokens.slice(-32), checksum };
}

module.exports = { run };
"""

FOLLOW_UPS = [
    {
        "prompt": "Why does this rule keep the output distributed exactly as the target's?",
        "trigger": "after_minutes",
        "after_minutes": 20,
        "coach_notes": (
            "Model answer: P(emit y) = q(y)·min(1, p(y)/q(y)) + P(reject)·r(y), with\n"
            "P(reject) = Σ max(0, q − p) = Σ max(0, p − q) and r = max(0, p − q)/that sum;\n"
            "the two terms add to min(p, q) + max(0, p − q) = p(y). Cost: O(log V) per\n"
            "sample with prefix sums and binary search, the residual precomputed per context\n"
            "row. Wrong patterns the hidden tests target: resampling a rejection from p\n"
            "instead of the residual (biased toward the rejected token), no bonus token\n"
            "after k acceptances, the ratio inverted, drawing the draft tokens lazily\n"
            "between checks (the draws shift), the residual from the wrong context row.\n"
        ),
    },
    {
        "prompt": (
            "Your acceptance rate is 0.7 per token and a draft token costs 5% of a target\n"
            "pass. Which k do you choose, and what changes at batch size 64?\n"
        ),
        "trigger": "on_part_passed",
        "coach_notes": (
            "Expected tokens per round (1 − α^(k+1))/(1 − α); cost per round k·c + 1 target\n"
            "passes; pick k maximising the ratio (about 4–5 here, ≈2.6–2.9x). Decode is\n"
            "memory-bound at batch 1, so verifying k tokens costs about one pass; at large\n"
            "batch sizes the GPU becomes compute-bound and the extra verification FLOPs eat\n"
            "the gain: smaller k or none. Alternatives: Medusa heads, EAGLE, n-gram / prompt\n"
            "lookup drafts; tree attention verifies several candidates at once.\n"
        ),
    },
]


def spec() -> QuestionSpec:
    return QuestionSpec(
        slug="speculative-decoding",
        name="speculative_decoding",
        title="Speculative-decoding acceptance simulator",
        difficulty="medium",
        tags=["serving", "speculative-decoding", "sampling", "simulation", "challenge"],
        prompt=PROMPT,
        parts=[
            PartSpec(
                "Simulate the rounds",
                "Arguments arrive as a JSON array `[d, draft, target, start, k, n, seed]`; return the object.\n",
                [
                    Case(
                        EXAMPLE,
                        expect={
                            "rounds": 3,
                            "accepted": [2, 0, 1],
                            "tail": [0, 0, 1, 1, 1],
                            "checksum": 12,
                        },
                    ),
                    Case([2, [[1, 1], [1, 1]], [[1, 1], [1, 1]], 0, 1, 4, 1]),
                    Case(
                        [3, [[3, 0, 0], [0, 3, 0], [0, 0, 3]], [[1, 1, 1]] * 3, 2, 2, 8, 2**31 - 2]
                    ),
                ],
                _hidden(),
            )
        ],
        starter={"python": STARTER_PY, "javascript": STARTER_JS},
        follow_ups=FOLLOW_UPS,
        languages=["python", "javascript"],
        io="function",
        entrypoint="run",
    )
