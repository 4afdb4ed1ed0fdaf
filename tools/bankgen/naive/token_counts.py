# Naive: keeps the whole stream and recounts the window for every query.
import re
import sys
from collections import Counter

lines = sys.stdin.read().split("\n")
W, K, Q = [int(x) for x in lines[0].split()]
stream = []
result = []


def norm(w):
    w = "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in w)
    return re.sub(r"^[.,;:!?\"'()\[\]]+|[.,;:!?\"'()\[\]]+$", "", w)


for line in lines[1 : 1 + Q]:
    parts = line.split(" ", 1)
    cmd = parts[0]
    arg = parts[1] if len(parts) > 1 else ""
    window = Counter(stream[-W:]) if stream else Counter()
    if cmd == "push":
        stream += [t for t in (norm(w) for w in arg.split()) if t]
    elif cmd == "top":
        ranked = sorted(window.items(), key=lambda kv: (-kv[1], kv[0]))[:K]
        result.append(" ".join("%s=%d" % kv for kv in ranked) or "-")
    elif cmd == "distinct":
        result.append(str(len(window)))
    elif cmd == "count":
        t = norm(arg.strip())
        result.append(str(window[t] if t else 0))
    elif cmd == "reset":
        stream = []
print("\n".join(result))
