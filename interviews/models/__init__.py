"""Domain models, split by concept: the bank (what is asked) and practice (what happened)."""

from .bank import (
    Dimension,
    FollowUp,
    LoopTemplate,
    Part,
    PlantedFlaw,
    Question,
    Rubric,
    StageTemplate,
    TestCase,
)
from .live import StageDocument
from .practice import (
    Answer,
    CoachNote,
    Loop,
    ReviewComment,
    Scorecard,
    Stage,
    StageEvent,
    StageFollowUp,
    StageQuestion,
    Submission,
    TestResult,
)

__all__ = [
    "Answer",
    "CoachNote",
    "Dimension",
    "FollowUp",
    "Loop",
    "LoopTemplate",
    "Part",
    "PlantedFlaw",
    "Question",
    "ReviewComment",
    "Rubric",
    "Scorecard",
    "Stage",
    "StageDocument",
    "StageEvent",
    "StageFollowUp",
    "StageQuestion",
    "StageTemplate",
    "Submission",
    "TestCase",
    "TestResult",
]
