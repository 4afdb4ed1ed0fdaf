# Naive (the buggy code with its correctness bugs fixed, still quadratic). Part 2: the
# bucket's level is recomputed from the tenant's whole history on every request.
import sys

data = sys.stdin.read().split("\n")
head = data[0].split()
bucket = head[0] == "bucket"
if bucket:
    head = head[1:]
T, N = map(int, head)
limits = {}
for line in data[1 : 1 + T]:
    name, lim, win = line.split()
    if name not in limits:
        limits[name] = (int(lim), int(win))
history = {}
accepted = {}
rejected = {}
tokens = {}
res = []


def bucket_allows(past, now, cost, capacity, rate):
    level, last = capacity, None
    for t, c, took in past:
        if last is not None:
            level = min(capacity, level + rate * (t - last))
        last = t
        if took:
            level -= c
    if last is not None:
        level = min(capacity, level + rate * (now - last))
    return cost <= level


for line in data[1 + T : 1 + T + N]:
    a, tenant, c = line.split()
    now, cost = int(a), int(c)
    conf = limits.get(tenant) or limits.get("*")
    ok = False
    if conf and bucket:
        ok = bucket_allows(history.get(tenant, []), now, cost, *conf)
        history.setdefault(tenant, []).append((now, cost, ok))
    elif conf:
        lim, win = conf
        used = sum(x for (t, x) in history.get(tenant, []) if t > now - win)
        ok = used + cost <= lim
        if ok:
            history.setdefault(tenant, []).append((now, cost))
    accepted[tenant] = accepted.get(tenant, 0) + (1 if ok else 0)
    rejected[tenant] = rejected.get(tenant, 0) + (0 if ok else 1)
    tokens[tenant] = tokens.get(tenant, 0) + (cost if ok else 0)
    res.append("ok" if ok else "reject")
for tenant in sorted(accepted):
    res.append("%s %d %d %d" % (tenant, accepted[tenant], rejected[tenant], tokens[tenant]))
print("\n".join(res))
