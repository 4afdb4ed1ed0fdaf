# Naive: advances the clock one unit at a time and scans every list at every step.
import sys

rows = [line.split() for line in sys.stdin.read().split("\n") if line.strip()]
head = [int(x) for x in rows[0]]
N = head[0]
K = head[1] if len(head) > 1 else 1
R = head[2] if len(head) > 2 else None
H = head[3] if len(head) > 3 else None
reqs = []
for pos, r in enumerate(rows[1 : 1 + N]):
    reqs.append(
        dict(
            id=r[0],
            arr=int(r[1]),
            p=int(r[2]),
            prompt=int(r[3]),
            work=int(r[4]),
            pos=pos,
            done=0,
            stored=0,
            segs=0,
            start=None,
            end=None,
            pre=0,
        )
    )
slots = [None] * K  # None | ("run", req, restore_left) | ("save", req, left)
queue = []
stats = {"save": 0, "restore": 0, "pre": 0}


def up(a, b):
    return (a + b - 1) // b


t = 0
while any(r["end"] is None for r in reqs):
    # completions at t
    for s in range(K):
        slot = slots[s]
        if slot and slot[0] == "run" and slot[1]["done"] == slot[1]["work"] and slot[2] == 0:
            slot[1]["end"] = t
            slots[s] = None
        elif slot and slot[0] == "save" and slot[2] == 0:
            queue.append(slot[1])
            slots[s] = None
    for r in reqs:
        if r["arr"] == t:
            queue.append(r)
    while queue:
        queue.sort(key=lambda r: (r["p"], r["arr"], r["pos"]))
        if None in slots:
            r = queue.pop(0)
            s = slots.index(None)
            restore = 0
            if r["stored"]:
                restore = up(r["stored"], R) + (H * r["segs"] if H is not None else 0)
            if r["start"] is None:
                r["start"] = t
            r["since"] = t
            slots[s] = ["run", r, restore]
            continue
        if R is None or any(x[0] == "save" for x in slots):
            break
        worst = max(
            range(K), key=lambda s: (slots[s][1]["p"], slots[s][1]["since"], slots[s][1]["pos"])
        )
        victim = slots[worst][1]
        if queue[0]["p"] >= victim["p"]:
            break
        victim["pre"] += 1
        stats["pre"] += 1
        if slots[worst][2] > 0:  # still restoring
            slots[worst] = None
            queue.append(victim)
            continue
        kv = victim["prompt"] + victim["done"]
        if H is None:
            cost = up(kv, R)
        else:
            cost = H + up(kv - victim["stored"], R)
            victim["segs"] += 1
        victim["stored"] = kv
        stats["save"] += cost
        slots[worst] = ["save", victim, cost]
    # one unit of time passes
    for s in range(K):
        slot = slots[s]
        if slot is None:
            continue
        if slot[0] == "save":
            slot[2] -= 1
        elif slot[2] > 0:
            slot[2] -= 1
            stats["restore"] += 1
        else:
            slot[1]["done"] += 1
    t += 1

lines = []
for r in reqs:
    line = "%s %d %d" % (r["id"], r["start"], r["end"])
    lines.append(line if R is None else line + " %d" % r["pre"])
if R is not None:
    lines.append(
        "preemptions %d save_time %d restore_time %d"
        % (stats["pre"], stats["save"], stats["restore"])
    )
print("\n".join(lines))
