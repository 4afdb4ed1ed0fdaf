"""Wrong: at equal times every START is processed before the other events (the tie is the
input order, so a CHUNK logged just before its START at the same millisecond is ignored)."""

import sys

KINDS = {"START", "CHUNK", "END", "ERROR", "CANCEL"}


def nearest_rank(sorted_values, q):
    return sorted_values[(q * len(sorted_values) + 99) // 100 - 1]


def main():
    lines = sys.stdin.read().split("\n")
    n, window = (int(x) for x in lines[0].split())
    events = []
    for pos in range(1, n + 1):
        f = lines[pos].split()
        events.append((int(f[0]), f[2] != "START", pos, f))
    events.sort()

    started = {}  # id -> state
    seen = set()
    counted = []  # (time, tokens) of counted token-carrying chunks
    for time, _, _, f in events:
        rid, kind = f[1], f[2]
        if kind not in KINDS:
            continue
        seen.add(rid)
        st = started.get(rid)
        if kind == "START":
            if st is None:
                started[rid] = {
                    "start": time,
                    "status": "incomplete",
                    "tokens": 0,
                    "first": None,
                    "last": None,
                    "seqs": set(),
                    "max_seq": 0,
                }
            continue
        if st is None or st["status"] != "incomplete":
            continue
        if kind == "CHUNK":
            seq, tokens = int(f[3]), int(f[4])
            if seq in st["seqs"]:
                continue
            st["seqs"].add(seq)
            st["max_seq"] = max(st["max_seq"], seq)
            if tokens > 0:
                st["tokens"] += tokens
                if st["first"] is None:
                    st["first"] = time
                st["last"] = time
                counted.append((time, tokens))
        elif kind == "END":
            st["status"] = "ok"
        elif kind == "ERROR":
            st["status"] = "error:" + f[3]
        elif kind == "CANCEL":
            st["status"] = "cancelled"

    out = []
    ttfts = []
    tpots = []
    for rid in sorted(started):
        st = started[rid]
        ttft = tpot = "-"
        if st["first"] is not None:
            ttft_value = st["first"] - st["start"]
            ttft = str(ttft_value)
            if st["status"] == "ok":
                ttfts.append(ttft_value)
        if st["tokens"] >= 2:
            tpot_value = (st["last"] - st["first"]) / (st["tokens"] - 1)
            tpot = f"{tpot_value:.6f}"
            if st["status"] == "ok":
                tpots.append(tpot_value)
        lost = st["max_seq"] - len(st["seqs"])
        out.append(f"{rid} {st['status']} {st['tokens']} {ttft} {tpot} {lost}")

    ttfts.sort()
    out.append(f"ttft_p50 {nearest_rank(ttfts, 50) if ttfts else '-'}")
    out.append(f"ttft_p99 {nearest_rank(ttfts, 99) if ttfts else '-'}")
    out.append(f"tpot_mean {sum(tpots) / len(tpots):.6f}" if tpots else "tpot_mean -")

    counted.sort()
    best = running = 0
    lo = 0
    for time, tokens in counted:
        running += tokens
        while counted[lo][0] <= time - window:
            running -= counted[lo][1]
            lo += 1
        best = max(best, running)
    out.append(f"peak_window {best}")
    out.append(f"orphans {len(seen - set(started))}")
    sys.stdout.write("\n".join(out) + "\n")


main()
