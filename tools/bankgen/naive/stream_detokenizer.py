# Naive: decodes the whole stream since the last flush again after every step, byte by
# byte in Python straight from the well-formed table, and emits what is new.
FIRST = {}
for b in range(0xC2, 0xE0):
    FIRST[b] = (2, 0x80, 0xBF)
for b in range(0xE0, 0xF0):
    FIRST[b] = (3, 0x80, 0xBF)
FIRST[0xE0] = (3, 0xA0, 0xBF)
FIRST[0xED] = (3, 0x80, 0x9F)
for b in range(0xF0, 0xF5):
    FIRST[b] = (4, 0x80, 0xBF)
FIRST[0xF0] = (4, 0x90, 0xBF)
FIRST[0xF4] = (4, 0x80, 0x8F)


def decode(data, final):
    text = []
    i = 0
    n = len(data)
    while i < n:
        b = data[i]
        if b < 0x80:
            text.append(chr(b))
            i += 1
            continue
        if b not in FIRST:
            text.append("\ufffd")
            i += 1
            continue
        size, lo, hi = FIRST[b]
        j = i + 1
        ok = True
        while j < i + size:
            if j >= n:
                ok = None  # ran out of bytes: maybe it completes later
                break
            low, high = (lo, hi) if j == i + 1 else (0x80, 0xBF)
            if not (low <= data[j] <= high):
                ok = False
                break
            j += 1
        if ok is None:
            if final:
                text.append("\ufffd")
            break
        if ok is False:
            text.append("\ufffd")
            i = j
            continue
        value = b & (0xFF >> (size + 1))
        for k in range(i + 1, i + size):
            value = value * 64 + (data[k] & 0x3F)
        text.append(chr(value))
        i += size
    return "".join(text)


def run(vocab, steps):
    table = [bytes.fromhex(v) for v in vocab]
    history = b""
    shown = ""
    out = []
    for step in steps:
        if step == "flush":
            full = decode(history, True)
            out.append(full[len(shown) :])
            history = b""
            shown = ""
            continue
        for t in step:
            history += table[t]
        full = decode(history, False)
        out.append(full[len(shown) :])
        shown = full
    out.append(decode(history, True)[len(shown) :])
    return out
