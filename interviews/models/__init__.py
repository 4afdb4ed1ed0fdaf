"""Domain models, split by concept: the bank (what is asked) and practice (what happened)."""

from .accounts import AccountProfile
from .audit import AuditEntry
from .bank import (
    Dimension,
    FollowUp,
    LoopTemplate,
    Part,
    PlantedFlaw,
    Question,
    Rubric,
    RubricVersion,
    StageTemplate,
    TestCase,
)
from .live import StageDocument
from .plans import PlanEnrolment, StudyPlan
from .practice import (
    Answer,
    CoachNote,
    Loop,
    ReviewComment,
    Scorecard,
    SelfAssessment,
    Stage,
    StageEvent,
    StageFollowUp,
    StageQuestion,
    StageShadow,
    Submission,
    TestResult,
)
from .recordings import Recording, RecordingChunk
from .scheduling import Booking, CoachSlot
from .scoring import ReviewMatchOverride

__all__ = [
    "AccountProfile",
    "Answer",
    "AuditEntry",
    "Booking",
    "CoachSlot",
    "CoachNote",
    "Dimension",
    "FollowUp",
    "Loop",
    "LoopTemplate",
    "Part",
    "PlanEnrolment",
    "PlantedFlaw",
    "Question",
    "Recording",
    "RecordingChunk",
    "ReviewComment",
    "ReviewMatchOverride",
    "Rubric",
    "RubricVersion",
    "Scorecard",
    "SelfAssessment",
    "Stage",
    "StageDocument",
    "StageEvent",
    "StageFollowUp",
    "StageQuestion",
    "StageShadow",
    "StageTemplate",
    "StudyPlan",
    "Submission",
    "TestCase",
    "TestResult",
]
