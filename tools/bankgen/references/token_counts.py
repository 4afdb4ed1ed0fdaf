import heapq
import sys
from collections import deque

STRIP = ".,;:!?\"'()[]"
LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def normalise(word):
    return word.translate(LOWER).strip(STRIP)


def main():
    lines = sys.stdin.read().split("\n")
    window_size, k, q = (int(x) for x in lines[0].split())
    window = deque()
    counts = {}
    heap = []  # lazy entries (-count, token)
    out = []

    def change(token, delta):
        c = counts.get(token, 0) + delta
        if c:
            counts[token] = c
            heapq.heappush(heap, (-c, token))
        else:
            del counts[token]

    for line in lines[1 : 1 + q]:
        command, _, rest = line.partition(" ")
        if command == "push":
            for word in rest.split():
                token = normalise(word)
                if not token:
                    continue
                window.append(token)
                change(token, 1)
                if len(window) > window_size:
                    change(window.popleft(), -1)
        elif command == "top":
            best = []
            taken = set()
            while heap and len(best) < k:
                neg, token = heapq.heappop(heap)
                if counts.get(token) == -neg and token not in taken:
                    taken.add(token)
                    best.append((neg, token))
            for item in best:
                heapq.heappush(heap, item)
            out.append(" ".join(f"{t}={-n}" for n, t in best) if best else "-")
        elif command == "distinct":
            out.append(str(len(counts)))
        elif command == "count":
            token = normalise(rest.strip())
            out.append(str(counts.get(token, 0) if token else 0))
        elif command == "reset":
            window.clear()
            counts.clear()
            heap.clear()
    sys.stdout.write("".join(line + "\n" for line in out))


main()
