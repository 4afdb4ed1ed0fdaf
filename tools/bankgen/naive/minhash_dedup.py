"""Naive: every signature from scratch, every document (copies included) compared with
every earlier leader in order."""

P = 2**61 - 1


def run(n, m, docs):
    a = []
    b = []
    x, y = 1, 1
    for _ in range(n):
        x = x * 11400714819323198485 % P
        y = y * 13787848793156543929 % P
        a.append(x)
        b.append(y)
    exact = []
    for doc in docs:
        j = 0
        while docs[j] != doc:
            j += 1
        exact.append(j)
    sigs = []
    for doc in docs:
        sig = []
        for h in range(n):
            best = None
            for j in range(len(doc) - 2):
                x = doc[j] * 2**40 + doc[j + 1] * 2**20 + doc[j + 2]
                v = (a[h] * x + b[h]) % P
                if best is None or v < best:
                    best = v
            sig.append(best)
        sigs.append(sig)
    leaders = []
    near = []
    for i in range(len(docs)):
        if exact[i] != i:
            near.append(near[exact[i]])
            continue
        found = None
        for lead in leaders:
            agree = 0
            for h in range(n):
                if sigs[i][h] == sigs[lead][h]:
                    agree += 1
            if agree >= m:
                found = lead
                break
        if found is None:
            leaders.append(i)
            found = i
        near.append(found)
    return {"exact": exact, "near": near}
