"""stream-detokenizer: a UTF-8-safe streaming detokenizer (what a token-streaming API does
before it sends text): token bytes arrive step by step, only complete characters go out,
ill-formed bytes become U+FFFD by maximal subparts, flush rules."""

import random

from ..common import Case, PartSpec, QuestionSpec

PROMPT = """\
A byte-level BPE model's tokens are **bytes**, not characters: one emoji can be split
over several tokens, and a token can end in the middle of a character. The streaming
API must send text as the tokens arrive, but never half a character. Implement the
detokenizer.

Implement `run(vocab, steps)`. `vocab[i]` is the byte string of token `i`, written in
lower-case hex (`"e4b8"` is the two bytes `0xE4 0xB8`). `steps` is the stream, in order;
each step is either a list of token ids (the tokens that arrived in one decode step,
possibly none) or the string `"flush"`. The detokenizer keeps a buffer of *pending*
bytes, empty at the start.

**Well-formed UTF-8** is exactly this table (Unicode, Table 3-7): a character is one
row's bytes in order.

| first byte | second | third | fourth |
|---|---|---|---|
| `00..7F` | | | |
| `C2..DF` | `80..BF` | | |
| `E0` | `A0..BF` | `80..BF` | |
| `E1..EC`, `EE..EF` | `80..BF` | `80..BF` | |
| `ED` | `80..9F` | `80..BF` | |
| `F0` | `90..BF` | `80..BF` | `80..BF` |
| `F1..F3` | `80..BF` | `80..BF` | `80..BF` |
| `F4` | `80..8F` | `80..BF` | `80..BF` |

**Rules.**

1. **A token step** appends the bytes of its tokens, in order, to the pending bytes,
   then emits as much text as is already certain, reading the pending bytes from the
   front:
   - a complete well-formed character is emitted as that character;
   - a byte that cannot start a row (`80..BF`, `C0`, `C1`, `F5..FF`) is emitted as one
     `U+FFFD` (`"\\ufffd"`), and reading goes on at the next byte;
   - a byte that starts a row but is followed by a byte that does not fit the row: the
     bytes of the row read so far are emitted as **one** `U+FFFD`, and reading goes on
     at the byte that did not fit;
   - a row that is correct so far but runs out of pending bytes stays pending (it may
     complete in a later step): reading stops.
2. **A flush** (the stream's sequence ended, e.g. on a stop token) emits the pending
   bytes' text as in rule 1, except that a row left incomplete at the end is emitted as
   **one** `U+FFFD`; the pending buffer is then empty. After the last step the stream
   ends with one more flush.
3. Nothing else is ever held back: the text a step emits is everything rule 1 makes
   certain.

Return a list of strings: the text emitted by each step, in order, then the text of
the final flush (so `len(steps) + 1` strings; a step that emits nothing gives `""`).
These rules are Unicode's "substitution of maximal subparts", the behaviour of
WHATWG's streaming `TextDecoder`; Python's `bytes.decode(errors="replace")` agrees on a
complete buffer, but its incremental decoder keeps `ED A0..BF` pending, which rule 3
does not allow.

Up to `5000` tokens in `vocab`, each of `1 ≤ bytes ≤ 16`; up to `2·10^4` steps holding
at most `5·10^4` token ids in total.

### Example

```
run(["48", "c3", "a9", "e4b8", "96", "f09f", "9982", "21"],
    [[0, 1], [2], [3], [4, 5], [6, 7]])
```

```
["H", "é", "", "世", "🙂!", ""]
```

`é` is `C3 A9`, `世` is `E4 B8 96` and `🙂` is `F0 9F 99 82`: each is sent in the step
that completes it.

**Limits.** 2 s CPU per test. Decoding the whole stream again after every step is too
slow for the largest tests.
"""

FFFD = "\ufffd"

SAMPLES = [
    Case(
        [
            ["48", "c3", "a9", "e4b8", "96", "f09f", "9982", "21"],
            [[0, 1], [2], [3], [4, 5], [6, 7]],
        ],
        expect=["H", "é", "", "世", "🙂!", ""],
    ),
    # ill-formed bytes: a bad first byte, a row broken by a byte that does not fit it
    Case(
        [["41", "ff", "e080", "ed", "a080", "c0af"], [[0, 1], [2], [3], [4], [5]]],
        expect=["A" + FFFD, FFFD * 2, "", FFFD * 3, FFFD * 2, ""],
    ),
    # a flush ends a pending row as one U+FFFD; so does the end of the stream
    Case(
        [["e4", "b8", "96", "f0", "9f", "41"], [[0, 1], "flush", [2], [3, 4], [5], [3]]],
        expect=["", FFFD, FFFD, "", FFFD + "A", "", FFFD],
    ),
]

TEXT = (
    list("abcdefghij klmnop,.")
    + list("éßñ世界の語")
    + ["🙂", "🚀", "\U00010000", "\U0010ffff", "\u0800", "\uffff", "\u07ff"]
)
BAD = [
    "ff",
    "fe",
    "c0",
    "c1af",
    "eda080",
    "e080",
    "f490",
    "f08080",
    "80",
    "bf",
    "f5",
    "e1",
    "f1",
    "f4",
    "c2",
]


def _stream(rng, n_tokens, *, bad=0.03, flush=0.02, per_step=(0, 4), cap=5000):
    """Token ids and their vocabulary: text encoded, cut into 1–4-byte (sometimes 16) pieces at random
    places (mostly inside characters), with ill-formed pieces and flushes mixed in."""
    vocab = {bytes([b]).hex(): b for b in range(256)}
    ids = []
    while len(ids) < n_tokens:
        if rng.random() < bad:
            ids.append(vocab.setdefault(rng.choice(BAD), len(vocab)))
            continue
        data = "".join(rng.choice(TEXT) for _ in range(rng.randint(1, 6))).encode()
        i = 0
        while i < len(data) and len(ids) < n_tokens:
            size = 16 if rng.random() < 0.02 else rng.randint(1, 4)
            piece = data[i : i + size].hex()
            if piece not in vocab and len(vocab) >= cap:
                piece = data[i : i + 1].hex()
            ids.append(vocab.setdefault(piece, len(vocab)))
            i += len(piece) // 2
    steps = []
    i = 0
    while i < len(ids):
        if rng.random() < flush:
            steps.append("flush")
            continue
        take = rng.randint(*per_step)
        steps.append(ids[i : i + take])
        i += take
    return [list(vocab), steps]


def _hidden():
    rng = random.Random(1931)
    single = [f"{b:02x}" for b in range(256)]
    cases = [
        # a 4-byte character one byte per step
        Case([["f0", "9f", "99", "82"], [[0], [1], [2], [3]]], expect=["", "", "", "🙂", ""]),
        # three bytes of four, then the end of the stream: one U+FFFD, not three
        Case([["f0", "9f", "99"], [[0, 1], [2]]], expect=["", "", FFFD]),
        # a row broken at its second byte is certain at once: nothing is held back
        Case([single, [[0xE0], [0x80], [0x41]]], expect=["", FFFD * 2, "A", ""]),
        Case([single, [[0xED], [0xA0], [0x80]]], expect=["", FFFD * 2, FFFD, ""]),
        Case([single, [[0xF4], [0x90, 0x80], [0x80]]], expect=["", FFFD * 3, FFFD, ""]),
        Case([single, [[0x41, 0xED, 0xBF], [0x42]]], expect=["A" + FFFD * 2, "B", ""]),
        Case(
            [single, [[0xF0, 0x80, 0x80, 0x80], [0xF5], [0xC1, 0xBF]]],
            expect=[FFFD * 4, FFFD, FFFD * 2, ""],
        ),
        # a row broken at its third or fourth byte: one U+FFFD for the bytes read
        Case(
            [single, [[0xE4, 0xB8], [0x41], [0xF0, 0x9F, 0x99], [0xE4]]],
            expect=["", FFFD + "A", "", FFFD, FFFD],
        ),
        # stray continuation bytes, each in its own step
        Case([single, [[0x80], [0xBF], [0x80, 0x80]]], expect=[FFFD, FFFD, FFFD * 2, ""]),
        # complete characters and the start of the next in one token
        Case([["61c3a9e4", "b896e4b8", "9621"], [[0], [1], [2]]], expect=["aé", "世", "世!", ""]),
        # an empty step, a flush with nothing pending, an empty stream
        Case([["41"], [[], "flush", [0], "flush", []]], expect=["", "", "A", "", "", ""]),
        Case([["41"], []], expect=[""]),
        # a flush forgets the pending bytes: what follows does not complete them
        Case(
            [single, [[0xE4], "flush", [0xB8, 0x96], "flush"]], expect=["", FFFD, FFFD * 2, "", ""]
        ),
        Case(
            [single, [[0xF0, 0x9F, 0x99], "flush", "flush", [0x82]]],
            expect=["", FFFD, "", FFFD, ""],
        ),
        Case([single, [[0xC3], "flush", [0xC3, 0xA9]]], expect=["", FFFD, "é", ""]),
        # the largest code points, and the smallest of each length
        Case(
            [
                single,
                [
                    [0xF4, 0x8F, 0xBF],
                    [0xBF],
                    [0xF0, 0x90, 0x80, 0x80, 0xE0, 0xA0, 0x80, 0xC2, 0x80],
                ],
            ]
        ),
        Case(_stream(rng, 30)),
        Case(_stream(rng, 100, bad=0.1, flush=0.05)),
        Case(_stream(rng, 300, per_step=(1, 1))),
        Case(_stream(rng, 800, bad=0.2, per_step=(0, 6))),
        Case(_stream(rng, 2000, flush=0.0)),
        Case(_stream(rng, 3000, bad=0.0, flush=0.1, per_step=(1, 3))),
    ]
    big = random.Random(1932)
    vocab, steps = _stream(big, 5 * 10**4, bad=0.01, flush=0.0, per_step=(1, 3))
    excess = len(steps) - (2 * 10**4 - 1)  # merge neighbours down to the step bound
    steps = [steps[2 * i] + steps[2 * i + 1] for i in range(excess)] + steps[2 * excess :]
    steps.insert(len(steps) // 2, "flush")
    cases.append(Case([vocab, steps], large=True))
    return cases


STARTER_PY = """\
def run(vocab: list[str], steps: list) -> list[str]:
    pieces = [bytes.fromhex(token) for token in vocab]
    out = []
    for step in steps:
        if step == "flush":
            out.append("")
        else:
            out.append("")
    out.append("")  # the final flush
    return out
"""

STARTER_JS = """\
function run(vocab, steps) {
  const pieces = vocab.map((hex) => Buffer.from(hex, "hex"));
  const out = [];
  for (const step of steps) {
    if (step === "flush") {
      out.push("");
    } else {
      out.push("");
    }
  }
  out.push(""); // the final flush
  return out;
}

module.exports = { run };
"""

FOLLOW_UPS = [
    {
        "prompt": "How much can your detokenizer hold back at most, and why is that enough?",
        "trigger": "after_minutes",
        "after_minutes": 15,
        "coach_notes": (
            "Model answer: at most 3 bytes, the prefix of one 4-byte row; everything before\n"
            "it is certain. O(1) work per byte: a state machine over the table, JS\n"
            "TextDecoder with {stream: true}, or in Python: find the trailing incomplete row\n"
            "(the last first-byte within 3 of the end, checked against its row) and decode\n"
            "the rest with errors='replace'; Python's incremental decoder holds ED A0 back\n"
            "(a surrogate's prefix) and fails the rule 3 test. Wrong patterns\n"
            "the hidden tests target: decoding each token or each step on its own (splits\n"
            "characters into U+FFFD), holding back a tail that can never complete (E0 80,\n"
            "ED A0, F4 90: only the second byte's range tells), one U+FFFD per pending byte\n"
            "at a flush instead of one, carrying pending bytes across a flush, re-decoding\n"
            "the whole stream after every step (quadratic: times out on the largest test).\n"
        ),
    },
    {
        "prompt": (
            'Now the stream must also stop on a stop string such as "\\n\\nUser:" that\n'
            "can span several tokens. What do you hold back, and what do you send?\n"
        ),
        "trigger": "on_part_passed",
        "coach_notes": (
            "Hold back the longest suffix of the emitted text that is a prefix of some stop\n"
            "string (Aho-Corasick or KMP failure links for many stop strings), send the\n"
            "rest; on a match, drop the stop string and end the stream. Match on text, not\n"
            "token ids (the same string tokenizes differently); after the UTF-8 step, not\n"
            "before. Also: special tokens are skipped, not decoded; a byte-fallback\n"
            "tokenizer (<0xE4>) needs the same buffer; latency: holding back delays the\n"
            "first bytes by at most one step.\n"
        ),
    },
]


def spec() -> QuestionSpec:
    return QuestionSpec(
        slug="stream-detokenizer",
        name="stream_detokenizer",
        title="UTF-8-safe streaming detokenizer",
        difficulty="medium",
        tags=["serving", "streaming", "utf-8", "tokenizer", "challenge"],
        prompt=PROMPT,
        parts=[
            PartSpec(
                "Stream the text",
                "Arguments arrive as a JSON array `[vocab, steps]`; return the list of strings.\n",
                SAMPLES,
                _hidden(),
            )
        ],
        starter={"python": STARTER_PY, "javascript": STARTER_JS},
        follow_ups=FOLLOW_UPS,
        languages=["python", "javascript"],
        io="function",
        entrypoint="run",
    )
