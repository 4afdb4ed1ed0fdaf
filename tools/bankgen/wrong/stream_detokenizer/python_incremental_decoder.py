"""Wrong: Python's incremental decoder keeps ED A0..BF pending instead of replacing it."""

import codecs


def run(vocab, steps):
    pieces = [bytes.fromhex(token) for token in vocab]
    make = codecs.getincrementaldecoder("utf-8")
    decoder = make(errors="replace")  # Unicode's "maximal subparts" replacement, as TextDecoder
    out = []
    for step in steps:
        if step == "flush":
            out.append(decoder.decode(b"", final=True))
            decoder = make(errors="replace")
        else:
            out.append(decoder.decode(b"".join(pieces[t] for t in step)))
    out.append(decoder.decode(b"", final=True))
    return out
