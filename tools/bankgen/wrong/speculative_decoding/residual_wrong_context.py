"""Wrong: takes the residual from the row of the rejected token instead of its context."""

from bisect import bisect_right

M = 2**31 - 1


def run(d, draft, target, start, k, n, seed):
    vocab = len(draft)

    def cumulative(row):
        out, total = [], 0
        for w in row:
            total += w
            out.append(total)
        return out

    q_cum = [cumulative(row) for row in draft]
    p_cum = [cumulative(row) for row in target]
    # the residual max(0, p - q) depends only on the context token: one table per row
    r_cum = [
        cumulative([max(0, p - q) for p, q in zip(target[a], draft[a], strict=True)])
        for a in range(vocab)
    ]
    state = seed
    tokens = []
    rounds = 0
    accepted = [0] * (k + 1)

    while len(tokens) < n:
        rounds += 1
        prev = tokens[-1] if tokens else start
        proposal, contexts = [], []
        for _ in range(k):
            state = state * 48271 % M
            x = bisect_right(q_cum[prev], state * d // M)
            contexts.append(prev)
            proposal.append(x)
            prev = x
        emitted = []
        for x, ctx in zip(proposal, contexts, strict=True):
            state = state * 48271 % M
            if state * draft[ctx][x] < target[ctx][x] * M:
                emitted.append(x)
                continue
            state = state * 48271 % M
            row = r_cum[x]
            emitted.append(bisect_right(row, state * row[-1] // M))
            break
        else:
            state = state * 48271 % M
            emitted.append(bisect_right(p_cum[prev], state * d // M))
        accepted[len(emitted) - 1] += 1
        tokens.extend(emitted)

    del tokens[n:]
    checksum = sum((i + 1) * t for i, t in enumerate(tokens)) % 1_000_000_007
    return {"rounds": rounds, "accepted": accepted, "tail": tokens[-32:], "checksum": checksum}
