"""Practice: a candidate's run of a loop template, its stages and everything that happens
in them (submissions and their verdicts, answers, review comments, the event log, scores).
"""

from django.conf import settings
from django.db import models

from interviews.stage_kinds import stage_kind_get

from .bank import (
    FlawCategory,
    FollowUp,
    Language,
    LoopTemplate,
    Question,
    Rubric,
    RubricVersion,
    StageKind,
)


class Loop(models.Model):
    candidate = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="loops"
    )
    template = models.ForeignKey(LoopTemplate, on_delete=models.PROTECT, related_name="loops")
    title = models.CharField(max_length=200)
    coached = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.title} for {self.candidate}"


class Stage(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending"
        LIVE = "live"
        DONE = "done"

    loop = models.ForeignKey(Loop, on_delete=models.CASCADE, related_name="stages")
    position = models.PositiveIntegerField()
    kind = models.CharField(max_length=16, choices=StageKind.choices)
    title = models.CharField(max_length=200)
    minutes = models.PositiveIntegerField()
    rubric = models.ForeignKey(
        Rubric, null=True, blank=True, on_delete=models.SET_NULL, related_name="stages"
    )
    # The rubric content the stage is scored on (its own rubric, else its first
    # question's), pinned when the loop starts; read through `selectors.rubrics`.
    rubric_version = models.ForeignKey(
        RubricVersion, null=True, blank=True, on_delete=models.PROTECT, related_name="stages"
    )
    questions = models.ManyToManyField(Question, through="StageQuestion", related_name="stages")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    started_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, help_text="Server-authoritative.")
    paused_remaining_ms = models.PositiveBigIntegerField(
        null=True, blank=True, help_text="Set while a coach has paused the clock."
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    coach_requested = models.BooleanField(default=False)
    coach = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="coached_stages",
    )
    last_seq = models.PositiveBigIntegerField(default=0, help_text="Last StageEvent.seq issued.")

    class Meta:
        ordering = ["loop", "position"]
        constraints = [
            models.UniqueConstraint(fields=["loop", "position"], name="stage_position_unique"),
        ]
        indexes = [models.Index(fields=["status", "coach_requested", "coach"])]

    def __str__(self) -> str:
        return f"{self.loop_id}#{self.position} {self.title}"

    @property
    def is_live_kind(self) -> bool:
        """A live round (coach queue, chat) as its kind's spec says; a kind this version
        does not know counts as live, as every kind but the async challenge is."""
        spec = stage_kind_get(self.kind)
        return spec is None or spec.live


class StageQuestion(models.Model):
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="stage_questions")
    question = models.ForeignKey(Question, on_delete=models.PROTECT, related_name="+")
    position = models.PositiveIntegerField()

    class Meta:
        ordering = ["stage", "position"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "question"], name="stagequestion_unique"),
        ]

    def __str__(self) -> str:
        return f"stage {self.stage_id} question {self.question_id}"


class StageFollowUp(models.Model):
    """A follow-up as it was pushed into a stage: from the bank, or free text from a coach."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="pushed_follow_ups")
    question = models.ForeignKey(
        Question, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    follow_up = models.ForeignKey(
        FollowUp, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    text = models.TextField()
    unlocks_part = models.PositiveIntegerField(null=True, blank=True)
    pushed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Empty when the scripted interviewer fired it.",
    )
    answer_words = models.PositiveIntegerField(
        default=0,
        help_text="Words in the candidate's answer to its question when it was pushed: "
        "the next after_answer follow-up waits for enough words beyond these.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["stage", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["stage", "follow_up"],
                condition=models.Q(follow_up__isnull=False),
                name="stagefollowup_once",
            ),
        ]

    def __str__(self) -> str:
        return f"stage {self.stage_id} follow-up {self.pk}"


class Submission(models.Model):
    class Mode(models.TextChoices):
        RUN = "run"
        SUBMIT = "submit"

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        ERROR = "error"

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="submissions")
    question = models.ForeignKey(Question, on_delete=models.PROTECT, related_name="submissions")
    part = models.PositiveIntegerField()
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="submissions"
    )
    language = models.CharField(max_length=16, choices=Language.choices)
    code = models.TextField()
    mode = models.CharField(max_length=8, choices=Mode.choices)
    stdin = models.TextField(null=True, blank=True)
    auto = models.BooleanField(default=False, help_text="Auto-submitted at the deadline.")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    verdict = models.CharField(max_length=16, blank=True)
    passed = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    # The largest CPU time and peak memory of any of its tests: the only resource figures
    # a submit shows (one per part, not one per hidden test, which could encode its input)
    max_time_ms = models.PositiveIntegerField(default=0)
    max_memory_kb = models.PositiveIntegerField(default=0)
    compile_output = models.TextField(blank=True)
    error = models.TextField(blank=True)
    attempts = models.PositiveIntegerField(default=0)
    leased_until = models.DateTimeField(
        null=True,
        blank=True,
        help_text="While running: the worker judging it holds it until then (renewed as its "
        "tests finish); past it, the judge is presumed dead.",
    )
    expired_leases = models.PositiveSmallIntegerField(
        default=0,
        help_text="How often a worker stopped judging it mid-way (re-judged once, then "
        "internal_error).",
    )
    requeue_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the judge next looks at it again: after the sandbox was unavailable, "
        "or if its queue message may have been lost.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["stage", "question", "part", "mode"]),
            # the judge's queue: queue positions, the requeue sweep, in-flight counts
            models.Index(fields=["status", "created_at"]),
        ]

    def __str__(self) -> str:
        return f"submission {self.pk} ({self.mode}, {self.status})"


class TestResult(models.Model):
    submission = models.ForeignKey(Submission, on_delete=models.CASCADE, related_name="tests")
    index = models.PositiveIntegerField()
    hidden = models.BooleanField(default=False)
    verdict = models.CharField(max_length=16)
    # Exact figures, for staff (the Django admin) only: the API never shows them for a
    # hidden test (see TestResultOutSerializer)
    time_ms = models.PositiveIntegerField(default=0)
    memory_kb = models.PositiveIntegerField(default=0)
    exit_signal = models.CharField(max_length=16, blank=True, help_text="e.g. SIGSEGV")
    message = models.TextField(blank=True, help_text="Why it is not accepted (diff, limit).")
    input = models.TextField(blank=True)
    expected = models.TextField(blank=True)
    output = models.TextField(blank=True)
    stderr = models.TextField(blank=True)

    __test__ = False

    class Meta:
        ordering = ["submission", "index"]
        constraints = [
            models.UniqueConstraint(fields=["submission", "index"], name="testresult_unique"),
        ]

    def __str__(self) -> str:
        return f"submission {self.submission_id} test {self.index}: {self.verdict}"


class Answer(models.Model):
    """Free text, structured design notes and whiteboard scene for one question of a stage."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="answers")
    question = models.ForeignKey(
        Question, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    text = models.TextField(blank=True)
    notes = models.JSONField(default=dict, blank=True)
    scene = models.JSONField(default=dict, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["stage", "question"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "question"], name="answer_unique"),
        ]

    def __str__(self) -> str:
        return f"answer for stage {self.stage_id}"


class ReviewComment(models.Model):
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="review_comments")
    question = models.ForeignKey(Question, on_delete=models.PROTECT, related_name="+")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    line_start = models.PositiveIntegerField()
    line_end = models.PositiveIntegerField()
    category = models.CharField(max_length=16, choices=FlawCategory.choices)
    text = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["stage", "line_start", "id"]

    def __str__(self) -> str:
        return f"{self.category} L{self.line_start}-{self.line_end}"


class StageEvent(models.Model):
    """Append-only log of a stage: edits, follow-ups, chat, timer, verdicts.

    `seq` is gap-free per stage; clients resync with "everything after seq N".
    `private` events (coach notes, coach-only data) are never shown to the candidate.
    """

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveBigIntegerField()
    type = models.CharField(max_length=40)
    payload = models.JSONField(default=dict)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    private = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["stage", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "seq"], name="stageevent_seq_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.stage_id}#{self.seq} {self.type}"


class StageShadow(models.Model):
    """A coach or admin who joined a stage's live room to shadow it: they see and hear the
    interview (code, whiteboard, chat, the call without sending any media) and act on
    nothing — no follow-ups, no scorecard, no private events (docs/decisions.md)."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="shadows")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["stage", "user"], name="stageshadow_unique"),
        ]

    def __str__(self) -> str:
        return f"shadow of stage {self.stage_id}"


class CoachNote(models.Model):
    """A coach's private note on a stage; never shown to the candidate."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="coach_notes")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["stage", "created_at", "id"]

    def __str__(self) -> str:
        return f"note on stage {self.stage_id}"


class SelfAssessment(models.Model):
    """The candidate's own levels against the stage's rubric, filled in after the stage and
    shown beside the automatic scorecard."""

    stage = models.OneToOneField(Stage, on_delete=models.CASCADE, related_name="self_assessment")
    scores = models.JSONField(default=list, help_text="[{dimension, level 1-4, comment}]")
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"self-assessment of stage {self.stage_id}"


class Scorecard(models.Model):
    class Recommendation(models.TextChoices):
        STRONG_NO = "strong_no"
        NO = "no"
        YES = "yes"
        STRONG_YES = "strong_yes"

    stage = models.OneToOneField(Stage, on_delete=models.CASCADE, related_name="scorecard")
    coach = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="scorecards"
    )
    scores = models.JSONField(default=list, help_text="[{dimension, level 1-4, comment}]")
    summary = models.TextField(blank=True)
    recommendation = models.CharField(
        max_length=16, choices=Recommendation.choices, blank=True, help_text="Unset in a draft."
    )
    private_notes = models.TextField(blank=True)
    # The rubric version the scores were given against (the stage's pinned one).
    rubric_version = models.ForeignKey(
        RubricVersion, null=True, blank=True, on_delete=models.PROTECT, related_name="scorecards"
    )
    draft = models.BooleanField(
        default=False,
        help_text="Saved by the coach but not submitted: the candidate sees nothing of it.",
    )
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"scorecard of stage {self.stage_id}"


__all__ = [
    "Answer",
    "CoachNote",
    "FollowUp",
    "Language",
    "Loop",
    "ReviewComment",
    "Scorecard",
    "SelfAssessment",
    "Stage",
    "StageEvent",
    "StageFollowUp",
    "StageQuestion",
    "Submission",
    "TestResult",
]
