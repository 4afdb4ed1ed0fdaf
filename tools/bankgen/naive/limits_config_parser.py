"""Naive: no tokens. Check the characters, then a character-level recursive descent that
checks the syntax, then a second one that computes the value; a name is looked up by
walking back through every earlier line's result."""

import sys

OK_CHARS = "abcdefghijklmnopqrstuvwxyz_0123456789 \t+-*/()="


class Fail(Exception):
    pass


def skip(s, i):
    while i < len(s) and s[i] in " \t":
        i += 1
    return i


def word_at(s, i):
    j = i
    if s[i].isdigit():
        while j < len(s) and s[j].isdigit():
            j += 1
    elif s[i].isalpha() or s[i] == "_":
        while j < len(s) and (s[j].isalnum() or s[j] == "_"):
            j += 1
    else:
        j = i + 1
    return s[i:j]


def end_col(s):
    j = len(s)
    while j > 0 and s[j - 1] in " \t":
        j -= 1
    return j + 1


def parse(s, i, level, ev):
    """level 0: sum, 1: product, 2: factor. Returns (value, next index)."""
    if level == 2:
        i = skip(s, i)
        if i >= len(s):
            raise Fail((end_col(s), "unexpected end of line"))
        c = s[i]
        if c == "-":
            v, i = parse(s, i + 1, 2, ev)
            return (-v if v is not None else None), i
        if c == "(":
            v, i = parse(s, i + 1, 0, ev)
            i = skip(s, i)
            if i >= len(s):
                raise Fail((end_col(s), "expected ')'"))
            if s[i] != ")":
                raise Fail((i + 1, "expected ')'"))
            return v, i + 1
        if c.isdigit() or c.isalpha() or c == "_":
            w = word_at(s, i)
            return ev(w, i + 1), i + len(w)
        raise Fail((i + 1, "unexpected token '%s'" % c))
    ops = "+-" if level == 0 else "*/"
    v, i = parse(s, i, level + 1, ev)
    while True:
        j = skip(s, i)
        if j < len(s) and s[j] in ops:
            op = s[j]
            w, i = parse(s, j + 1, level + 1, ev)
            if v is not None and w is not None:
                if op == "+":
                    v = v + w
                elif op == "-":
                    v = v - w
                elif op == "*":
                    v = v * w
                else:
                    if w == 0:
                        raise Fail((j + 1, "division by zero"))
                    q = abs(v) // abs(w)
                    v = q if (v >= 0) == (w > 0) or q == 0 else -q
        else:
            return v, i


results = []  # (name, value) or None per line
out = []
for number, line in enumerate(sys.stdin.read().split("\n"), start=1):
    s = line.split("#", 1)[0]
    if not s.strip(" \t"):
        continue
    bad = [k for k, c in enumerate(s) if c not in OK_CHARS]
    if bad:
        out.append("line %d col %d: unexpected character '%s'" % (number, bad[0] + 1, s[bad[0]]))
        results.append(None)
        continue
    try:
        i = skip(s, 0)
        if not (s[i].isalpha() or s[i] == "_"):
            raise Fail((i + 1, "expected a name"))
        name = word_at(s, i)
        i = skip(s, i + len(name))
        if i >= len(s):
            raise Fail((end_col(s), "expected '='"))
        if s[i] != "=":
            raise Fail((i + 1, "expected '='"))
        start = i + 1
        _, k = parse(s, start, 0, lambda w, col: None)
        k = skip(s, k)
        if k < len(s):
            raise Fail((k + 1, "unexpected token '%s'" % word_at(s, k)))

        def ev(w, col):
            if w[0].isdigit():
                return int(w)
            for r in reversed(results):
                if r is not None and r[0] == w:
                    return r[1]
            raise Fail((col, "unknown name '%s'" % w))

        value, _ = parse(s, start, 0, ev)
    except Fail as e:
        col, message = e.args[0]
        out.append("line %d col %d: %s" % (number, col, message))
        results.append(None)
        continue
    results.append((name, value))
    out.append("%s = %d" % (name, value))
print("\n".join(out))
