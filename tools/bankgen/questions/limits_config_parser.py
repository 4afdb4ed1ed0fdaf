"""limits-config-parser: parse and evaluate a rate-limits config file (names,
integer expressions, comments) with precise error reporting: the first error of each
line, by a stated precedence, at an exact column."""

import random

from ..common import Case, PartSpec, QuestionSpec

PROMPT = """\
The gateway's rate limits live in a small config file that people edit by hand:

```
base = 600            # requests per minute for the free tier
pro = base * 10
burst = (pro + base) / 4
```

A typo must be reported precisely — line, column, what is wrong — instead of "invalid
config". Write the loader: read the file on stdin, and for every line that holds a
definition print its value or its first error.

### The language

- Everything from `#` to the end of a line is a comment. A line that is then empty or
  only spaces and tabs is skipped (no output).
- **Tokens**: a *name* `[a-z_][a-z0-9_]*`, a *number* `[0-9]+` (a non-negative integer,
  leading zeros allowed), and the symbols `+ - * / ( ) =`. Spaces and tabs separate
  tokens and are otherwise ignored. Tokens are read longest-first (`12ab` is the number
  `12`, then the name `ab`).
- **A line** is `name = expr`, with

  ```
  expr   := term   (("+" | "-") term)*
  term   := factor (("*" | "/") factor)*
  factor := number | name | "-" factor | "(" expr ")"
  ```

  so `*` and `/` bind tighter than `+` and `-`, and all four group to the left.
- **Values** are integers. `/` truncates toward zero (`-7 / 2 = -3`). A name's value is
  the one its last **successful** definition on an earlier line gave it (a line with an
  error defines nothing; redefining a name is allowed).

### Output

One line per definition line, in order: `name = value`, or
`line L col C: message` (`L` counts every line of the input from 1; `C` counts
characters of the line from 1, a tab is one character). Each line reports only its
**first** error, checked in this order:

1. **Characters**: the leftmost character that starts no token (and is not a space,
   a tab or in a comment): `unexpected character 'c'`.
2. **Syntax**, reading the tokens from the left; the first rule that fails:
   - the first token is not a name: `expected a name`;
   - the second is not `=`: `expected '='`;
   - a factor is expected but the token is something else: `unexpected token 't'`
     (`t`: the token's text), or the line ended: `unexpected end of line`;
   - a `)` is expected but something else (or the end) comes: `expected ')'`;
   - a complete expression is followed by another token: `unexpected token 't'`.
3. **Evaluation**, computing the value with operands before their operator and the
   left operand before the right: a name not defined: `unknown name 'x'` (at the
   name), a division by zero: `division by zero` (at the `/`).

An error at a token is reported at the token's first character; "the end of the line"
is the column just after the line's last token.

Up to `10^4` lines of at most 200 characters, parentheses nested at most 50 deep; every
value and intermediate result stays within `±10^15`.

### Example

```
base = 600  # free tier
pro = base * 10
burst = (pro + base) / 4
team = pro * 2 +
Pro = 1
floor = (base - 601) / 2
spare = burst / (base - 600)
x = ghost + 1 2
```

```
base = 600
pro = 6000
burst = 1650
line 4 col 17: unexpected end of line
line 5 col 1: unexpected character 'P'
floor = 0
line 7 col 15: division by zero
line 8 col 15: unexpected token '2'
```

On line 8, the syntax error wins over the unknown name before it.

**Limits.** 2 s CPU per test; the largest tests have `10^4` lines that use earlier names.
"""

EXAMPLE = (
    "base = 600  # free tier\npro = base * 10\nburst = (pro + base) / 4\nteam = pro * 2 +\n"
    "Pro = 1\nfloor = (base - 601) / 2\nspare = burst / (base - 600)\nx = ghost + 1 2\n"
)

ATOMS = ["1", "2", "0", "7", "10", "007", "a", "b", "zz", "x_1"]
NOISE = ["", "(", ")", "+", "*", "/", "-", "=", "$", "A", "12ab", "#c", "\t", "é"]


def _expr(rng, depth):
    if depth <= 0 or rng.random() < 0.3:
        atom = rng.choice(ATOMS)
        return "-" + atom if rng.random() < 0.15 else atom
    if rng.random() < 0.25:
        return "(" + _expr(rng, depth - 1) + ")"
    op = rng.choice(["+", "-", "*", "/", " + ", " / ", " * "])
    return _expr(rng, depth - 1) + op + _expr(rng, depth - 1)


def _random_config(rng, lines, *, noise=0.3):
    out = []
    for _ in range(lines):
        name = rng.choice(["a", "b", "zz", "x_1", "q"])
        line = f"{name} = {_expr(rng, 3)}"
        if rng.random() < noise:
            k = rng.randint(0, len(line))
            line = line[:k] + rng.choice(NOISE) + line[k:]
        if rng.random() < 0.1:
            line += "  # note"
        if rng.random() < 0.05:
            line = ""
        out.append(line)
    return "\n".join(out) + "\n"


def _large(seed):
    rng = random.Random(seed)
    lines = ["v0 = 1000", "v1 = 7"]
    for i in range(2, 10**4):
        a, b, c = (rng.randrange(0, min(i, 40)) for _ in range(3))
        k = rng.randint(1, 9)
        if rng.random() < 0.02:
            lines.append(f"v{i} = (v{a} + ) * {k}")
        else:
            lines.append(f"v{i} = (v{a} * {k} + v{b}) / {k + 1} - v{c} / 3")
    return Case("\n".join(lines) + "\n", large=True)


SAMPLES = [
    Case(
        EXAMPLE,
        expect=(
            "base = 600\npro = 6000\nburst = 1650\nline 4 col 17: unexpected end of line\n"
            "line 5 col 1: unexpected character 'P'\nfloor = 0\nline 7 col 15: division by zero\n"
            "line 8 col 15: unexpected token '2'\n"
        ),
    ),
    Case("# header\n\n  \nrate = 2 * (3 + 4)\n", expect="rate = 14\n"),
    Case("a = 1\na = a + 1\nb = -a * -a\n", expect="a = 1\na = 2\nb = 4\n"),
]


def _hidden():
    rng = random.Random(2041)
    cases = [
        # truncation toward zero, not floor
        Case(
            "a = -7 / 2\nb = 7 / -2\nc = -7 / -2\nd = -1 / 3\n",
            expect="a = -3\nb = -3\nc = 3\nd = 0\n",
        ),
        # left to right: 8 - 2 - 1 and 16 / 4 / 2
        Case("a = 8 - 2 - 1\nb = 16 / 4 / 2\nc = 2 + 3 * 4\n", expect="a = 5\nb = 2\nc = 14\n"),
        # a failed line defines nothing; a redefinition counts
        Case(
            "a = 1\na = 1 +\nb = a\nc = 2 / 0\nd = c\n",
            expect="a = 1\nline 2 col 8: unexpected end of line\nb = 1\nline 4 col 7: division by zero\nline 5 col 5: unknown name 'c'\n",
        ),
        # a name cannot use itself before it is defined
        Case("n = n + 1\n", expect="line 1 col 5: unknown name 'n'\n"),
        # characters before syntax, syntax before evaluation, even when later in the line
        Case(
            "a = nope / 0 ) $\nb = nope / 0 )\nc = nope / 0\nd = 1 / 0 + nope\n",
            expect="line 1 col 16: unexpected character '$'\nline 2 col 14: unexpected token ')'\nline 3 col 5: unknown name 'nope'\nline 4 col 7: division by zero\n",
        ),
        # the left operand is evaluated first
        Case(
            "a = ghost / 0\nb = (1 / 0) * ghost\n",
            expect="line 1 col 5: unknown name 'ghost'\nline 2 col 8: division by zero\n",
        ),
        # columns: tabs are one character, comments are ignored, the end is after the last token
        Case(
            "\ta\t=\t1\t+\t# c\nb = (1   \nc = 3 ) # (\n",
            expect="line 1 col 9: unexpected end of line\nline 2 col 7: expected ')'\nline 3 col 7: unexpected token ')'\n",
        ),
        # the first two tokens
        Case(
            "= 1\n1 = 2\nx 2\nx\n(x) = 1\nx == 1\n",
            expect="line 1 col 1: expected a name\nline 2 col 1: expected a name\nline 3 col 3: expected '='\nline 4 col 2: expected '='\nline 5 col 1: expected a name\nline 6 col 4: unexpected token '='\n",
        ),
        # longest tokens: 12ab is a number then a name; leading zeros
        Case(
            "a = 12ab\nb = 007 + 0\nc = (12ab)\n",
            expect="line 1 col 7: unexpected token 'ab'\nb = 7\nline 3 col 8: expected ')'\n",
        ),
        # uppercase, other characters, non-ASCII in a comment and outside
        Case(
            "a = 1 # ça va\nB = 2\nc = 1 é\nd = 2 % 3\n",
            expect="a = 1\nline 2 col 1: unexpected character 'B'\nline 3 col 7: unexpected character 'é'\nline 4 col 7: unexpected character '%'\n",
        ),
        # unary minus
        Case(
            "a = --3\nb = 2 * -3\nc = -(2 - 5)\nd = 1 - -1\ne = -\n",
            expect="a = 3\nb = -6\nc = 3\nd = 2\nline 5 col 6: unexpected end of line\n",
        ),
        # empty parentheses, a missing operand, a missing ')'
        Case(
            "a = ()\nb = 1 + * 2\nc = ((1)\nd = (1))\n",
            expect="line 1 col 6: unexpected token ')'\nline 2 col 9: unexpected token '*'\nline 3 col 9: expected ')'\nline 4 col 8: unexpected token ')'\n",
        ),
        Case(
            "big = 1000000000 * 1000000\nneg = 0 - big\n",
            expect="big = 1000000000000000\nneg = -1000000000000000\n",
        ),
        Case(_random_config(rng, 10, noise=0.5)),
        Case(_random_config(rng, 40, noise=0.3)),
        Case(_random_config(rng, 100, noise=0.2)),
        Case(_random_config(rng, 200, noise=0.6)),
    ]
    deep = "d = " + "(" * 50 + "1" + ")" * 50 + "\ne = " + "-(" * 25 + "2" + ")" * 25 + "\n"
    cases.append(Case(deep))
    cases.append(_large(2042))
    return cases


STARTER_PY = """\
import sys


def main():
    values = {}
    for number, line in enumerate(sys.stdin.read().split("\\n"), start=1):
        text = line.split("#", 1)[0]
        if not text.strip():
            continue
        name, expr = text.split("=", 1)
        # tokens, a parser, errors with their columns, then the value
        print(f"{name.strip()} = {expr.strip()}")


main()
"""

STARTER_JS = """\
const lines = require("fs").readFileSync(0, "utf8").split("\\n");
const out = [];
lines.forEach((line, index) => {
  const text = line.split("#")[0];
  if (!text.trim()) return;
  // tokens, a parser, errors with their columns (line index + 1), then the value
  out.push(text.trim());
});
console.log(out.join("\\n"));
"""

STARTER_CPP = """\
#include <bits/stdc++.h>
using namespace std;

int main() {
    string line;
    int number = 0;
    while (getline(cin, line)) {
        number++;
        string text = line.substr(0, line.find('#'));
        if (text.find_first_not_of(" \\t") == string::npos) continue;
        // tokens, a parser, errors with their columns, then the value
        cout << text << "\\n";
    }
}
"""

FOLLOW_UPS = [
    {
        "prompt": "Walk me through how your parser decides which error a line reports.",
        "trigger": "after_minutes",
        "after_minutes": 20,
        "coach_notes": (
            "Model answer: a tokenizer over the whole line first (so a stray character\n"
            "anywhere wins), a recursive-descent parser with one function per grammar rule\n"
            "that builds a tree and raises at the first token that fits no rule, then a\n"
            "separate evaluation pass over the tree (so a syntax error later in the line\n"
            "wins over an unknown name earlier). Errors carry the token's column; the end\n"
            "column is after the last token, not after trailing spaces. Wrong patterns the\n"
            "targeted tests catch: evaluating while parsing (unknown name reported before a\n"
            "later syntax error), floor division (-7 / 2 = -4), right-associative minus\n"
            "(8 - 2 - 1 = 7), a failed line still defining its name, the end column after\n"
            "trailing spaces or the comment, 12ab read as one bad token.\n"
        ),
        "key_points": [
            {
                "point": "Separate phases (tokens, syntax tree, evaluation) give the stated error precedence.",
                "patterns": {
                    "en": [
                        "token",
                        "recursive descent",
                        "syntax tree",
                        "\\bast\\b",
                        "separate pass",
                    ]
                },
                "dimension": "Correctness and edge cases",
            },
        ],
    },
    {
        "prompt": (
            "Operators want to know every error in the file at once, not just the first per\n"
            "line, and the file is generated by another tool. What changes?\n"
        ),
        "trigger": "on_part_passed",
        "coach_notes": (
            "Error recovery: synchronise at the end of the line (panic mode) or at the next\n"
            "operator; keep going after an unknown name with a poisoned value so one typo\n"
            "does not cascade into every dependent line (report the root cause once).\n"
            "For generated files: a real grammar (Lark, ANTLR, tree-sitter) or a standard\n"
            "format (TOML/YAML with a JSON Schema) beats a hand-rolled one; validate in CI\n"
            "before deploy and keep the last good config on a load failure. Recursion\n"
            "depth: a recursive-descent parser on deeply nested input needs an explicit\n"
            "stack or a depth limit (Python's default is 1000 frames).\n"
        ),
        "key_points": [
            {
                "point": "Error recovery (synchronise, poison values) to report all root causes once.",
                "patterns": {"en": ["recover", "synchroni", "panic mode", "cascad", "poison"]},
                "dimension": "Adapting to follow-ups",
            },
        ],
    },
]


def spec() -> QuestionSpec:
    return QuestionSpec(
        slug="limits-config-parser",
        name="limits_config_parser",
        title="Rate-limits config parser with precise errors",
        difficulty="medium",
        tags=["parsing", "recursive-descent", "error-reporting", "config", "practice"],
        prompt=PROMPT,
        parts=[
            PartSpec(
                "Load the config",
                "The file arrives on stdin; print one line per definition line.\n",
                SAMPLES,
                _hidden(),
            )
        ],
        starter={"python": STARTER_PY, "javascript": STARTER_JS, "cpp": STARTER_CPP},
        follow_ups=FOLLOW_UPS,
    )
