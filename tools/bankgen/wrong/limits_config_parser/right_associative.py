"""Wrong: expr := term (('+' | '-') expr): minus groups to the right, 8 - 2 - 1 gives 7."""

import sys

NAME_START = set("abcdefghijklmnopqrstuvwxyz_")
NAME_CHARS = NAME_START | set("0123456789")
DIGITS = set("0123456789")
SYMBOLS = set("+-*/()=")


class ConfigError(Exception):
    def __init__(self, col, message):
        super().__init__(message)
        self.col = col
        self.message = message


def tokenize(text):
    """(kind, text, column) triples; the first character that starts no token is the
    line's error, wherever the syntax would have failed."""
    tokens = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in " \t":
            i += 1
        elif c in NAME_START or c in DIGITS:
            kind = "name" if c in NAME_START else "number"
            allowed = NAME_CHARS if kind == "name" else DIGITS
            j = i
            while j < n and text[j] in allowed:
                j += 1
            tokens.append((kind, text[i:j], i + 1))
            i = j
        elif c in SYMBOLS:
            tokens.append((c, c, i + 1))
            i += 1
        else:
            raise ConfigError(i + 1, f"unexpected character '{c}'")
    return tokens


class Parser:
    """Recursive descent to a tree; evaluation is a separate pass, so a syntax error
    anywhere in the line wins over an unknown name or a division by zero before it."""

    def __init__(self, tokens):
        self.tokens = tokens
        self.pos = 0
        last = tokens[-1]
        self.end_col = last[2] + len(last[1])

    def peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def fail(self, message_for_token, message_at_end):
        token = self.peek()
        if token is None:
            raise ConfigError(self.end_col, message_at_end)
        raise ConfigError(token[2], message_for_token(token))

    def expr(self):
        node = self.term()
        if (t := self.peek()) and t[0] in "+-":
            self.pos += 1
            node = (t[0], t[2], node, self.expr())
        return node

    def term(self):
        node = self.factor()
        while (t := self.peek()) and t[0] in "*/":
            self.pos += 1
            node = (t[0], t[2], node, self.factor())
        return node

    def factor(self):
        t = self.peek()
        if t is not None:
            if t[0] == "number":
                self.pos += 1
                return ("number", int(t[1]))
            if t[0] == "name":
                self.pos += 1
                return ("name", t[1], t[2])
            if t[0] == "-":
                self.pos += 1
                return ("neg", self.factor())
            if t[0] == "(":
                self.pos += 1
                node = self.expr()
                t = self.peek()
                if t is None or t[0] != ")":
                    self.fail(lambda _: "expected ')'", "expected ')'")
                self.pos += 1
                return node
        self.fail(lambda tok: f"unexpected token '{tok[1]}'", "unexpected end of line")


def evaluate(node, names):
    kind = node[0]
    if kind == "number":
        return node[1]
    if kind == "name":
        if node[1] not in names:
            raise ConfigError(node[2], f"unknown name '{node[1]}'")
        return names[node[1]]
    if kind == "neg":
        return -evaluate(node[1], names)
    a = evaluate(node[2], names)
    b = evaluate(node[3], names)
    if kind == "+":
        return a + b
    if kind == "-":
        return a - b
    if kind == "*":
        return a * b
    if b == 0:
        raise ConfigError(node[1], "division by zero")
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def line_value(text, names):
    tokens = tokenize(text)
    parser = Parser(tokens)
    first = tokens[0]
    if first[0] != "name":
        raise ConfigError(first[2], "expected a name")
    parser.pos = 1
    if parser.peek() is None or parser.peek()[0] != "=":
        parser.fail(lambda _: "expected '='", "expected '='")
    parser.pos = 2
    tree = parser.expr()
    if parser.peek() is not None:
        parser.fail(lambda tok: f"unexpected token '{tok[1]}'", "")
    return first[1], evaluate(tree, names)


def main():
    names = {}
    out = []
    for number, line in enumerate(sys.stdin.read().split("\n"), start=1):
        text = line.split("#", 1)[0]
        if not text.strip(" \t"):
            continue
        try:
            name, value = line_value(text, names)
        except ConfigError as error:
            out.append(f"line {number} col {error.col}: {error.message}")
            continue
        names[name] = value
        out.append(f"{name} = {value}")
    sys.stdout.write("".join(x + "\n" for x in out))


main()
