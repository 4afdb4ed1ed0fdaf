"""JSON from clients, parsed with bounded nesting.

`json.loads` recurses once per level: a body of `[` × 200 000 raises RecursionError (a
500, or a dropped socket), and a few thousand levels that do parse make every later walk
of the value (serializers, `json.dumps` into a JSONField, the event log) recurse as deep.
No client message of ours nests anywhere near `MAX_DEPTH`; deeper is refused as bad input.
"""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 64


class JsonTooDeep(ValueError):
    """The document nests deeper than allowed (or than the parser can follow)."""

    def __init__(self, max_depth: int) -> None:
        super().__init__(f"JSON nested deeper than {max_depth} levels")


def json_depth_exceeds(value: Any, max_depth: int) -> bool:
    """Whether `value` nests containers more than `max_depth` deep; iterative, so any
    depth is measured without recursing."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > max_depth:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def json_loads_bounded(text: str | bytes, *, max_depth: int = MAX_DEPTH, **kwargs: Any) -> Any:
    """`json.loads`, raising JsonTooDeep instead of RecursionError or a too-deep value
    (other malformed JSON raises ValueError, as json.loads does)."""
    try:
        value = json.loads(text, **kwargs)
    except RecursionError as exc:
        raise JsonTooDeep(max_depth) from exc
    if json_depth_exceeds(value, max_depth):
        raise JsonTooDeep(max_depth)
    return value
