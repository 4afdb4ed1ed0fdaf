# Naive: recursive reachability for blocked tasks, and at every event a full scan of all
# tasks sorted by (ready time, position).
import sys

sys.setrecursionlimit(100000)
lines = sys.stdin.read().split("\n")
N, K, M, BASE, RETRIES, *REST = map(int, lines[0].split())
C = REST[0] if REST else 0
cap = {}
for line in lines[1 : 1 + M]:
    a, b = line.split()
    cap[a] = int(b)
tasks = []
for line in lines[1 + M : 1 + M + N]:
    f = line.split()
    tasks.append(
        dict(
            name=f[0],
            dur=int(f[1]),
            res=f[2],
            fails=int(f[3]),
            deps=[] if f[4] == "-" else f[4].split(","),
            state="wait",
            tries=0,
        )
    )
by_name = {t["name"]: t for t in tasks}
cancels = [line.split() for line in lines[1 + M + N : 1 + M + N + C]]
cancels = [(int(a), name) for a, name in cancels]

memo = {}


def is_blocked(t, path):
    if t["name"] in memo:
        return memo[t["name"]]
    if t["name"] in path:
        return True
    path.add(t["name"])
    result = False
    for d in t["deps"]:
        if d not in by_name or is_blocked(by_name[d], path):
            result = True
    path.discard(t["name"])
    if not path or not result:
        memo[t["name"]] = result
    return result


for t in tasks:
    memo.clear()
    t["blocked"] = is_blocked(t, set())
    if t["blocked"]:
        t["state"] = "blocked"

running = []  # [end, task]
now = 0
peak = 0
while True:
    # completions at now
    for r in [r for r in running if r[0] == now]:
        running.remove(r)
        t = r[1]
        if t["tries"] > t["fails"]:
            t["state"] = "ok"
            t["end"] = now
        elif t["tries"] > RETRIES:
            t["state"] = "failed"
            t["end"] = now
        else:
            t["state"] = "retry"
            t["ready"] = now + BASE * 2 ** (t["tries"] - 1)
    # cancellations at now, in input order
    for at, name in cancels:
        t = by_name.get(name)
        if at != now or t is None or t["state"] not in ("wait", "retry", "run"):
            continue
        running = [r for r in running if r[1] is not t]
        t["state"] = "cancelled"
        t["end"] = now
    # skip propagation
    changed = True
    while changed:
        changed = False
        for t in tasks:
            if t["state"] in ("wait",) and any(
                by_name[d]["state"] in ("failed", "skipped", "cancelled") for d in t["deps"]
            ):
                t["state"] = "skipped"
                changed = True
    # ready times
    for t in tasks:
        if t["state"] == "wait" and all(by_name[d]["state"] == "ok" for d in t["deps"]):
            t["state"] = "retry"
            t["ready"] = max([by_name[d]["end"] for d in t["deps"]] + [0])
    eligible = sorted(
        (t for t in tasks if t["state"] == "retry" and t["ready"] <= now),
        key=lambda t: (t["ready"], tasks.index(t)),
    )
    for t in eligible:
        if len(running) >= K:
            break
        if t["res"] != "-" and sum(1 for r in running if r[1]["res"] == t["res"]) >= cap[t["res"]]:
            continue
        if t["tries"] == 0:
            t["start"] = now
        t["tries"] += 1
        t["state"] = "run"
        running.append([now + t["dur"], t])
    peak = max(peak, len(running))
    future = [r[0] for r in running] + [
        t["ready"] for t in tasks if t["state"] == "retry" and t["ready"] > now
    ]
    if any(t["state"] in ("wait", "retry", "run") for t in tasks):
        future += [at for at, _ in cancels if at > now]
    if not future:
        break
    now = min(future)

out = []
mk = 0
for t in tasks:
    if t["state"] in ("ok", "failed"):
        out.append("%s %s %d %d %d" % (t["name"], t["state"], t["start"], t["end"], t["tries"]))
        mk = max(mk, t["end"])
    elif t["state"] == "cancelled":
        start = t["start"] if t["tries"] else "-"
        out.append("%s cancelled %s %d %d" % (t["name"], start, t["end"], t["tries"]))
    else:
        out.append("{} {}".format(t["name"], t["state"]))
out.append("makespan %d" % mk)
out.append("peak %d" % peak)
print("\n".join(out))
