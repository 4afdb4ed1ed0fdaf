"""Stage kinds in one registry: what a loop's stage of each kind is, read by the models'
choices, bank validation, the coach queue, the reports and (through
`GET /api/v1/stage-kinds/`) the frontend's rooms, labels and loop builder.

Modelled on DMOJ's `judge/contest_format/registry.py`: a new kind is one
`stage_kind_register(StageKindSpec(...))` below, plus a room component if it needs a room
the frontend does not have yet (docs/adding-a-stage-kind.md). This module imports nothing
of the project, so the models can build their choices from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from django.utils.translation import gettext_lazy as _

#: The frontend rooms (`frontend/src/rooms/registry.tsx`) a stage kind can be shown in.
RoomName = Literal["coding", "design", "review", "discussion"]
ROOMS: tuple[RoomName, ...] = ("coding", "design", "review", "discussion")

#: Every question kind (`interviews.models.bank.QuestionKind`), for kinds that take any.
ANY_QUESTION: tuple[str, ...] = ("coding", "design", "review", "discussion")


@dataclass(frozen=True)
class StageKindSpec:
    """One stage kind: its slug (the `kind` of stage templates, stages and bank files) and
    everything that differs between kinds."""

    kind: str
    label: str
    #: A live round (coach queue, chat, presence); the async challenge is the one that is not.
    live: bool
    #: The question kinds the kind's room can show; the bank refuses the others.
    question_kinds: tuple[str, ...]
    room: RoomName
    #: Reports and the feedback endpoint add the seven-part deep-dive checklist.
    deep_dive_feedback: bool = False

    def __post_init__(self) -> None:
        if self.room not in ROOMS:
            raise ValueError(f"stage kind {self.kind!r}: unknown room {self.room!r}")
        unknown = set(self.question_kinds) - set(ANY_QUESTION)
        if not self.question_kinds or unknown:
            raise ValueError(f"stage kind {self.kind!r}: bad question kinds {self.question_kinds}")


_REGISTRY: dict[str, StageKindSpec] = {}


def stage_kind_register(spec: StageKindSpec) -> StageKindSpec:
    """Add a kind; registering a slug twice is a programming error, not an override."""
    if spec.kind in _REGISTRY:
        raise ValueError(f"stage kind {spec.kind!r} is registered twice")
    _REGISTRY[spec.kind] = spec
    return spec


def stage_kind_get(kind: str | None) -> StageKindSpec | None:
    """The spec of `kind`, or None for a slug no version of the code knows."""
    return _REGISTRY.get(kind) if kind is not None else None


def stage_kind_list() -> list[StageKindSpec]:
    """Every kind in registration order (the order of choices and of the loop builder)."""
    return list(_REGISTRY.values())


# --- the kinds (DESIGN.md "Stage kinds"), in the order a loop usually runs them -------------

stage_kind_register(
    StageKindSpec(
        kind="screen",
        label=_("Recruiter screen"),
        live=True,
        question_kinds=ANY_QUESTION,
        room="discussion",
    )
)
stage_kind_register(
    StageKindSpec(
        kind="challenge",
        label=_("Coding challenge"),
        live=False,
        question_kinds=("coding",),
        room="coding",
    )
)
stage_kind_register(
    StageKindSpec(
        kind="hm_call",
        label=_("Hiring-manager call"),
        live=True,
        question_kinds=ANY_QUESTION,
        room="discussion",
    )
)
stage_kind_register(
    StageKindSpec(
        kind="coding",
        label=_("Live coding"),
        live=True,
        question_kinds=("coding",),
        room="coding",
    )
)
stage_kind_register(
    StageKindSpec(
        kind="design",
        label=_("System design"),
        live=True,
        question_kinds=("design",),
        room="design",
    )
)
stage_kind_register(
    StageKindSpec(
        kind="review",
        label=_("Design doc review"),
        live=True,
        question_kinds=("review",),
        room="review",
    )
)
stage_kind_register(
    StageKindSpec(
        kind="deep_dive",
        label=_("Project deep dive"),
        live=True,
        question_kinds=ANY_QUESTION,
        room="discussion",
        deep_dive_feedback=True,
    )
)
stage_kind_register(
    StageKindSpec(
        kind="values",
        label=_("Culture & values"),
        live=True,
        question_kinds=ANY_QUESTION,
        room="discussion",
    )
)
