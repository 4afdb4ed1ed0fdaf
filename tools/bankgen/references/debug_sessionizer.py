import sys


def main():
    """Group by user in a dict, drop repeated (user, time) pairs, sort each user's times
    once: O(n log n) overall, whatever the input order."""
    data = sys.stdin.buffer.read().split()
    n, gap = int(data[0]), int(data[1])
    times = {}
    for k in range(n):
        t = int(data[2 + 2 * k])
        user = data[3 + 2 * k].decode()
        times.setdefault(user, set()).add(t)
    out = []
    for user in sorted(times, key=lambda u: u.encode()):
        ts = sorted(times[user])
        sessions = 0
        best_start, best_len = 0, -1
        start = prev = None
        for t in ts + [None]:
            if t is None or (prev is not None and t - prev > gap):
                sessions += 1
                if prev - start > best_len:
                    best_start, best_len = start, prev - start
                start = t
            elif start is None:
                start = t
            prev = t
        out.append(f"{user} {sessions} {len(ts)} {best_start} {best_len}")
    sys.stdout.write("".join(line + "\n" for line in out))


main()
