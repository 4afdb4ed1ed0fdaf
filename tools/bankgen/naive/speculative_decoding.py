# Naive: every sample walks its distribution from token 0 (and the residual is rebuilt for
# every rejection); the random numbers come from a generator function.
def run(d, draft, target, start, k, n, seed):
    modulus = 2147483647

    def numbers():
        x = seed
        while True:
            x = (x * 48271) % modulus
            yield x

    rand = numbers()

    def pick(weights, total, u):
        running = 0
        for token in range(len(weights)):
            running += weights[token]
            if running * modulus > u * total:
                return token
        raise AssertionError("no token")

    out = []
    rounds = 0
    hist = [0 for _ in range(k + 1)]
    while len(out) < n:
        rounds += 1
        last = out[-1] if out else start
        guesses = []
        ctx = last
        for _ in range(k):
            g = pick(draft[ctx], d, next(rand))
            guesses.append((ctx, g))
            ctx = g
        got = 0
        new = []
        rejected = False
        for ctx, g in guesses:
            u = next(rand)
            if u * draft[ctx][g] < target[ctx][g] * modulus:
                new.append(g)
                got += 1
            else:
                residual = [max(0, target[ctx][y] - draft[ctx][y]) for y in range(len(draft))]
                new.append(pick(residual, sum(residual), next(rand)))
                rejected = True
                break
        if not rejected:
            new.append(pick(target[guesses[-1][1]] if guesses else target[last], d, next(rand)))
        hist[got] += 1
        out += new
    out = out[:n]
    total = 0
    for i in range(len(out)):
        total = (total + (i + 1) * out[i]) % 1000000007
    return {
        "rounds": rounds,
        "accepted": hist,
        "tail": out[max(0, len(out) - 32) :],
        "checksum": total,
    }
