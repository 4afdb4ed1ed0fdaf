from collections import Counter


def top_k(tokens, k):
    counts = Counter(tokens)
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return [[token, count] for token, count in ranked[:k]]
