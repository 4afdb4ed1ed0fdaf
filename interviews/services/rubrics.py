"""Rubric versions: the immutable snapshot a stage is scored on.

A rubric (by slug) is edited in place by the bank import and the rubric editor; what a
stage is scored on must not move with it. `rubric_version_current` gives the snapshot of
what the rubric holds now, adding a version only when its content changed since the
newest one, and `loop_start` pins it on each stage."""

from __future__ import annotations

from typing import Any

from interviews.bankfile.format import canonical_number
from interviews.bankfile.translations import translations_from_json
from interviews.models import Rubric, RubricVersion


def rubric_content(rubric: Rubric) -> dict[str, Any]:
    """What a version records: the title and the dimensions in order."""
    return {
        "title": rubric.title,
        "dimensions": [
            {"name": d.name, "weight": canonical_number(d.weight), "levels": list(d.levels)}
            for d in rubric.dimensions.order_by("position")
        ],
        "i18n": translations_from_json(rubric.i18n or {}),
    }


def rubric_version_current(rubric: Rubric) -> RubricVersion:
    """The version holding the rubric's current content: the newest one if nothing
    changed since, else a new `version + 1`. Callers hold a transaction."""
    content = rubric_content(rubric)
    newest = (
        RubricVersion.objects.select_for_update().filter(rubric=rubric).order_by("-version").first()
    )
    if (
        newest is not None
        and {
            "title": newest.title,
            "dimensions": newest.dimensions,
            "i18n": translations_from_json(newest.i18n or {}),
        }
        == content
    ):
        return newest
    return RubricVersion.objects.create(
        rubric=rubric,
        version=newest.version + 1 if newest else 1,
        title=content["title"],
        dimensions=content["dimensions"],
        i18n=content["i18n"],
    )
