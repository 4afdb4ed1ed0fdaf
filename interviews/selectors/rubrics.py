"""The rubric a stage or a scorecard is scored on, as one place to read it.

A stage pins a `RubricVersion` when its loop starts and a scorecard keeps the version it
was scored against; reports, progress, the coach's form and the automatic scorecard all
read the rubric through `rubric_for_scorecard`, `rubric_for_stage` or (for many stages at
once) `rubrics_for_stages`, so a rubric edited after a loop changes nothing in it. A stage
from before versions (none pinned) reads its rubric as it is now."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from interviews.bankfile.translations import child_translation, translation_of
from interviews.models import Dimension, Rubric, RubricVersion, Scorecard, Stage, StageQuestion


class DimensionList(list):
    """The dimensions of a scoring rubric, in order; `.all()` as well, so code written
    against `Rubric.dimensions` reads a pinned version the same way."""

    def all(self) -> DimensionList:
        return self


@dataclass
class ScoringRubric:
    """A rubric as a stage is scored on it: slug, title, `version` (None: not pinned, the
    rubric as it is now) and the dimensions (unsaved `Dimension`s: name, weight, levels)."""

    slug: str
    title: str
    version: int | None
    dimensions: DimensionList = field(default_factory=DimensionList)
    #: Translations of the title and the dimensions (`interviews.bankfile.translations`).
    i18n: dict = field(default_factory=dict)

    @property
    def dimension_names(self) -> list[str]:
        return [d.name for d in self.dimensions]


def _labelled(rubric: ScoringRubric) -> ScoringRubric:
    """Each dimension's `label`: its name in the language bank text is served in."""
    translation = translation_of(rubric.i18n)
    for number, dimension in enumerate(rubric.dimensions, start=1):
        dimension.label = child_translation(translation, "dimensions", number).text(
            "name", dimension.name
        )
    return rubric


def scoring_rubric_of_version(version: RubricVersion) -> ScoringRubric:
    return _labelled(
        ScoringRubric(
            slug=version.rubric.slug,
            title=version.title,
            version=version.version,
            dimensions=DimensionList(
                Dimension(
                    position=i, name=d["name"], weight=d["weight"], levels=list(d.get("levels", []))
                )
                for i, d in enumerate(version.dimensions, start=1)
            ),
            i18n=dict(version.i18n or {}),
        )
    )


def scoring_rubric_live(rubric: Rubric) -> ScoringRubric:
    return _labelled(
        ScoringRubric(
            slug=rubric.slug,
            title=rubric.title,
            version=None,
            dimensions=DimensionList(sorted(rubric.dimensions.all(), key=lambda d: d.position)),
            i18n=dict(rubric.i18n or {}),
        )
    )


def _live_rubric_ids(stages: Iterable[Stage]) -> dict[int, int | None]:
    """Unpinned stages' rubric ids: their own, else their first question's."""
    rubric_ids = {stage.pk: stage.rubric_id for stage in stages}
    without = [pk for pk, rubric_id in rubric_ids.items() if not rubric_id]
    if without:
        links = (
            StageQuestion.objects.filter(stage_id__in=without)
            .order_by("stage_id", "position")
            .values_list("stage_id", "question__rubric_id")
        )
        first: dict[int, int | None] = {}
        for stage_id, rubric_id in links:
            first.setdefault(stage_id, rubric_id)
        rubric_ids.update(first)
    return rubric_ids


def rubrics_for_stages_and_cards(
    stages: Sequence[Stage], scorecards: Iterable[Scorecard]
) -> tuple[dict[int, ScoringRubric | None], dict[int, ScoringRubric | None]]:
    """By stage id: each stage's scoring rubric (its pinned version, else — a stage from
    before versions — the rubric as it is now), and each given scorecard's (the version it
    was scored on, else its stage's). A fixed number of queries whatever the count."""
    card_versions = {card.stage_id: card.rubric_version_id for card in scorecards}
    wanted = {stage.rubric_version_id for stage in stages} | set(card_versions.values())
    versions = {
        v.pk: scoring_rubric_of_version(v)
        for v in RubricVersion.objects.filter(pk__in=wanted - {None}).select_related("rubric")
    }
    by_stage: dict[int, ScoringRubric | None] = {}
    unpinned = []
    for stage in stages:
        if stage.rubric_version_id in versions:
            by_stage[stage.pk] = versions[stage.rubric_version_id]
        else:
            unpinned.append(stage)
    if unpinned:
        rubric_ids = _live_rubric_ids(unpinned)
        live = {
            r.pk: scoring_rubric_live(r)
            for r in Rubric.objects.filter(
                pk__in={i for i in rubric_ids.values() if i}
            ).prefetch_related("dimensions")
        }
        for stage in unpinned:
            rubric_id = rubric_ids.get(stage.pk)
            by_stage[stage.pk] = live.get(rubric_id) if rubric_id else None
    by_card = {
        stage_id: versions.get(version_id) or by_stage.get(stage_id)
        for stage_id, version_id in card_versions.items()
    }
    return by_stage, by_card


def rubrics_for_stages(stages: Sequence[Stage]) -> dict[int, ScoringRubric | None]:
    """Each stage's scoring rubric (as `rubrics_for_stages_and_cards`)."""
    return rubrics_for_stages_and_cards(stages, ())[0]


def rubric_for_stage(stage: Stage) -> ScoringRubric | None:
    """The rubric the stage is scored on (its pinned version)."""
    return rubrics_for_stages([stage])[stage.pk]


def rubric_for_scorecard(card: Scorecard) -> ScoringRubric | None:
    """The rubric version this scorecard was scored on (else its stage's)."""
    return rubrics_for_stages_and_cards([card.stage], [card])[1][card.stage_id]
