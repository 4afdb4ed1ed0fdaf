"""Too slow: keeps the window's counts up to date, but sorts every distinct token of the
window on each `top` (O(D log D) per query instead of O(K log n))."""

import sys
from collections import deque

STRIP = ".,;:!?\"'()[]"
LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def main():
    lines = sys.stdin.read().split("\n")
    window_size, k, q = (int(x) for x in lines[0].split())
    window = deque()
    counts = {}
    out = []
    for line in lines[1 : 1 + q]:
        command, _, rest = line.partition(" ")
        if command == "push":
            for word in rest.split():
                token = word.translate(LOWER).strip(STRIP)
                if not token:
                    continue
                window.append(token)
                counts[token] = counts.get(token, 0) + 1
                if len(window) > window_size:
                    old = window.popleft()
                    counts[old] -= 1
                    if not counts[old]:
                        del counts[old]
        elif command == "top":
            ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:k]
            out.append(" ".join(f"{t}={c}" for t, c in ranked) if ranked else "-")
        elif command == "distinct":
            out.append(str(len(counts)))
        elif command == "count":
            token = rest.strip().translate(LOWER).strip(STRIP)
            out.append(str(counts.get(token, 0) if token else 0))
        elif command == "reset":
            window.clear()
            counts.clear()
    sys.stdout.write("".join(line + "\n" for line in out))


main()
