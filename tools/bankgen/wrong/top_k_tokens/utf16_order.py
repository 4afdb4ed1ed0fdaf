"""Wrong: ties are ordered by UTF-16 code units (JavaScript's default string comparison),
which differs from code-point order for characters outside the BMP (emoji)."""

from collections import Counter


def top_k(tokens, k):
    counts = Counter(tokens)
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0].encode("utf-16-be")))
    return [[token, count] for token, count in ranked[:k]]
