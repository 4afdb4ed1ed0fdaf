# Naive: scans every waiting request at every scheduling decision; percentiles by the
# definition (smallest value with at least 99% of the values at or below it).
import math
import sys

tokens = sys.stdin.read().split()
n, A, C, S = map(int, tokens[:4])
reqs = []
for k in range(n):
    rid, a, p, c = tokens[4 + 4 * k : 8 + 4 * k]
    reqs.append({"id": rid, "arr": int(a), "p": int(p), "left": int(c), "enq": int(a), "i": k})
pending = sorted(reqs, key=lambda r: (r["arr"], r["i"]))
queue = []
clock = 0
while pending or queue:
    if not queue and pending[0]["arr"] > clock:
        clock = pending[0]["arr"]
    while pending and pending[0]["arr"] <= clock:
        queue.append(pending.pop(0))
    chosen = min(
        queue, key=lambda r: (r["p"] - math.floor((clock - r["enq"]) / A), r["enq"], r["i"])
    )
    queue.remove(chosen)
    step = chosen["left"] if chosen["left"] < C else C
    clock += step
    chosen["left"] -= step
    if chosen["left"]:
        chosen["enq"] = clock
        queue.append(chosen)
    else:
        chosen["fin"] = clock


def pct(values, q):
    values = sorted(values)
    for v in values:
        if sum(1 for x in values if x <= v) * 100 >= q * len(values):
            return v


lines = ["%s %d %d" % (r["id"], r["fin"], r["fin"] - r["arr"]) for r in reqs]
for p in sorted({r["p"] for r in reqs}):
    lat = [r["fin"] - r["arr"] for r in reqs if r["p"] == p]
    lines.append("class %d %d %d %d" % (p, len(lat), pct(lat, 50), pct(lat, 99)))
zero = [r["fin"] - r["arr"] for r in reqs if r["p"] == 0]
ok = (not zero) or pct(zero, 99) <= S
lines.append("slo %s %d" % ("ok" if ok else "violated", sum(1 for x in zero if x > S)))
print("\n".join(lines))
