"""Wrong: set adds v to the request's tokens instead of replacing them."""

import sys


def main():
    """A Fenwick tree over the requests: O(log n) per sum, update and find. Reading the
    whole input at once and writing once keeps the I/O out of the way: with 10^5 short
    lines, line-by-line input() and print() cost more than the tree."""
    data = sys.stdin.buffer.read().split()
    n, q = int(data[0]), int(data[1])
    tokens = [0] + [int(x) for x in data[2 : 2 + n]]
    tree = tokens[:]
    for i in range(1, n + 1):
        j = i + (i & -i)
        if j <= n:
            tree[j] += tree[i]
    top = 1
    while top * 2 <= n:
        top *= 2

    def prefix(i):
        s = 0
        while i > 0:
            s += tree[i]
            i -= i & -i
        return s

    out = []
    pos = 2 + n
    for _ in range(q):
        op = data[pos]
        a = int(data[pos + 1])
        if op == b"find":
            pos += 2
            i, step, remaining = 0, top, a
            while step:
                j = i + step
                if j <= n and tree[j] < remaining:
                    i = j
                    remaining -= tree[j]
                step >>= 1
            out.append(str(i + 1) if i < n else "-1")
            continue
        b = int(data[pos + 2])
        pos += 3
        if op == b"sum":
            out.append(str(prefix(b) - prefix(a - 1)))
        else:
            delta = b
            tokens[a] += b
            while a <= n:
                tree[a] += delta
                a += a & -a
    sys.stdout.write("\n".join(out) + ("\n" if out else ""))


main()
