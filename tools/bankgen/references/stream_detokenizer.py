# The first byte of each multi-byte row of the well-formed table: (length, range of the
# second byte). Later bytes are always 80..BF.
ROWS = {}
for b in range(0xC2, 0xF5):
    ROWS[b] = (2 if b < 0xE0 else 3 if b < 0xF0 else 4, 0x80, 0xBF)
ROWS[0xE0] = (3, 0xA0, 0xBF)
ROWS[0xED] = (3, 0x80, 0x9F)
ROWS[0xF0] = (4, 0x90, 0xBF)
ROWS[0xF4] = (4, 0x80, 0x8F)


def certain(data):
    """How many leading bytes of `data` are certain: all but a trailing row that is
    correct so far and incomplete (at most 3 bytes). A first byte of a row is never a
    continuation byte, so reading always restarts at the last one."""
    n = len(data)
    for i in range(n - 1, max(n - 4, -1), -1):
        b = data[i]
        if 0x80 <= b <= 0xBF:
            continue
        if b not in ROWS:
            return n
        size, lo, hi = ROWS[b]
        tail = data[i + 1 :]
        if len(tail) >= size - 1:
            return n
        if tail and not lo <= tail[0] <= hi:
            return n
        if any(not 0x80 <= c <= 0xBF for c in tail[1:]):
            return n
        return i
    return n


def run(vocab, steps):
    pieces = [bytes.fromhex(token) for token in vocab]
    pending = b""
    out = []
    for step in steps:
        if step == "flush":
            # a complete buffer: Python's replacement is Unicode's maximal subparts
            out.append(pending.decode("utf-8", "replace"))
            pending = b""
            continue
        data = pending + b"".join(pieces[t] for t in step)
        cut = certain(data)
        out.append(data[:cut].decode("utf-8", "replace"))
        pending = data[cut:]
    out.append(pending.decode("utf-8", "replace"))
    return out
