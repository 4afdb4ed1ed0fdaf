"""Moving a review document's line ranges (planted flaws) through an edit of the document.

The old and new documents are diffed line by line (difflib); a range moves with the lines
it covers. When the text a range covers is no longer the same (lines inside it were
edited, inserted or deleted), the move is only a proposal: the editor asks."""

from __future__ import annotations

import difflib
from dataclasses import dataclass


def range_text(document: str, lines: tuple[int, int] | list[int]) -> str:
    """The text of lines `[first, last]` (1-based, inclusive) of the document."""
    first, last = lines
    return "\n".join(document.splitlines()[first - 1 : last])


@dataclass(frozen=True)
class Reanchored:
    """Where a range lands in the new document, and whether its text is still the same."""

    lines_before: tuple[int, int]
    lines_after: tuple[int, int]
    text_before: str
    text_after: str
    #: The whole range was deleted: `lines_after` is only the nearest line.
    deleted: bool = False

    @property
    def text_changed(self) -> bool:
        return self.deleted or self.text_before != self.text_after


def reanchor(
    old_document: str, new_document: str, lines: tuple[int, int], *, anchor_text: str | None = None
) -> Reanchored:
    """Move `lines` of `old_document` to `new_document`. `anchor_text` (what the range
    was planted on) is compared instead of the old document's text when given, so a range
    that had already drifted is caught too."""
    old_lines = old_document.splitlines()
    new_lines = new_document.splitlines()
    first, last = lines[0] - 1, lines[1] - 1  # 0-based, inclusive
    matcher = difflib.SequenceMatcher(a=old_lines, b=new_lines, autojunk=False)
    start = end = None
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if i1 <= first < i2:
            if tag == "equal":
                start = j1 + (first - i1)
            elif tag in ("replace", "delete"):
                start = j1
        if i1 <= last < i2:
            if tag == "equal":
                end = j1 + (last - i1)
            elif tag == "replace":
                end = j2 - 1
            elif tag == "delete":
                end = j1 - 1
    text_before = anchor_text if anchor_text is not None else range_text(old_document, lines)
    count = max(len(new_lines), 1)
    if start is None or end is None or end < start:
        nearest = min(max(start if start is not None else (end or 0), 0), count - 1) + 1
        return Reanchored(tuple(lines), (nearest, nearest), text_before, "", deleted=True)
    moved = (start + 1, end + 1)
    return Reanchored(tuple(lines), moved, text_before, range_text(new_document, moved))
