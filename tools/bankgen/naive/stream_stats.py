# Naive: one pass over the whole log per request, and every window checked by a full scan.
import sys

raw = sys.stdin.read().split("\n")
n, W = map(int, raw[0].split())
log = [raw[i].split() for i in range(1, n + 1)]
log = [e for e in log if e[2] in ("START", "CHUNK", "END", "ERROR", "CANCEL")]
n = len(log)
order = sorted(range(n), key=lambda i: (int(log[i][0]), i))
ids = []
for i in order:
    if log[i][1] not in ids:
        ids.append(log[i][1])

report = {}
chunks = []
for rid in ids:
    mine = [log[i] for i in order if log[i][1] == rid]
    begin = None
    status = None
    seqs = []
    got = []  # (time, tokens)
    for e in mine:
        if begin is None:
            if e[2] == "START":
                begin = int(e[0])
                status = "incomplete"
            continue
        if status != "incomplete":
            continue
        if e[2] == "END":
            status = "ok"
        elif e[2] == "ERROR":
            status = "error:" + e[3]
        elif e[2] == "CANCEL":
            status = "cancelled"
        elif e[2] == "CHUNK" and int(e[3]) not in seqs:
            seqs.append(int(e[3]))
            if int(e[4]) > 0:
                got.append((int(e[0]), int(e[4])))
    if begin is None:
        continue
    total = sum(k for _, k in got)
    chunks += got
    report[rid] = (status, total, begin, got, (max(seqs) if seqs else 0) - len(seqs))

lines = []
ok_ttft = []
ok_tpot = []
for rid in sorted(report):
    status, total, begin, got, lost = report[rid]
    ttft = tpot = "-"
    if got:
        ttft = str(got[0][0] - begin)
        if status == "ok":
            ok_ttft.append(got[0][0] - begin)
    if total > 1:
        v = (got[-1][0] - got[0][0]) / (total - 1)
        tpot = f"{v:.6f}"
        if status == "ok":
            ok_tpot.append(v)
    lines.append("%s %s %d %s %s %d" % (rid, status, total, ttft, tpot, lost))


def rank(values, q):
    values = sorted(values)
    k = 1
    while k * 100 < q * len(values):
        k += 1
    return values[k - 1]


lines.append("ttft_p50 %s" % (rank(ok_ttft, 50) if ok_ttft else "-"))
lines.append("ttft_p99 %s" % (rank(ok_ttft, 99) if ok_ttft else "-"))
lines.append("tpot_mean %s" % ("%.6f" % (sum(ok_tpot) / len(ok_tpot)) if ok_tpot else "-"))
peak = 0
for t0, _ in chunks:
    peak = max(peak, sum(k for t, k in chunks if t0 <= t < t0 + W))
lines.append("peak_window %d" % peak)
lines.append("orphans %d" % (len(ids) - len(report)))
print("\n".join(lines))
