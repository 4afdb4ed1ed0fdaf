"""The question bank: questions (one row per version), their parts, tests, follow-ups,
planted flaws, rubrics and loop templates.

A `Question` row is one immutable-once-used version of a slug. Re-importing or editing a
slug that a stage already uses creates a new row with `version + 1`, so a past submission
always points at exactly what it was judged against.
"""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models

from interviews.stage_kinds import stage_kind_list

slug_validator = RegexValidator(r"^[a-z0-9-]+$", "Use lowercase letters, digits and hyphens.")


class QuestionKind(models.TextChoices):
    CODING = "coding"
    DESIGN = "design"
    REVIEW = "review"
    DISCUSSION = "discussion"


class Difficulty(models.TextChoices):
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


class QuestionStatus(models.TextChoices):
    DRAFT = "draft"
    PUBLISHED = "published"
    ARCHIVED = "archived"


class IoMode(models.TextChoices):
    STDIO = "stdio"
    FUNCTION = "function"


class Language(models.TextChoices):
    PYTHON = "python"
    JAVASCRIPT = "javascript"
    CPP = "cpp"
    GO = "go"
    JAVA = "java"


class Rubric(models.Model):
    slug = models.SlugField(max_length=80, unique=True, validators=[slug_validator])
    title = models.CharField(max_length=200, blank=True)
    #: Translations of the text ({"zh-Hans": {...}}; `interviews.bankfile.translations`).
    i18n = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["slug"]

    def __str__(self) -> str:
        return self.slug


class Dimension(models.Model):
    rubric = models.ForeignKey(Rubric, on_delete=models.CASCADE, related_name="dimensions")
    position = models.PositiveIntegerField()
    name = models.CharField(max_length=120)
    weight = models.FloatField(default=1.0, validators=[MinValueValidator(0)])
    levels = models.JSONField(default=list, help_text="Four descriptors, for levels 1 to 4.")

    class Meta:
        ordering = ["rubric", "position"]
        constraints = [
            models.UniqueConstraint(fields=["rubric", "name"], name="dimension_name_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.rubric.slug}: {self.name}"


class RubricVersion(models.Model):
    """One immutable snapshot of a rubric's content (title, dimensions with weights and
    level descriptors). A stage pins the version it is scored on when its loop starts, and
    a scorecard keeps it, so a later rename or re-weighting of the rubric changes nothing
    in a finished loop's report."""

    rubric = models.ForeignKey(Rubric, on_delete=models.CASCADE, related_name="versions")
    version = models.PositiveIntegerField()
    title = models.CharField(max_length=200, blank=True)
    dimensions = models.JSONField(default=list, help_text="[{name, weight, levels}] in order.")
    #: Translations of the text ({"zh-Hans": {...}}; `interviews.bankfile.translations`).
    i18n = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["rubric", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["rubric", "version"], name="rubric_version_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.rubric.slug} v{self.version}"


class Question(models.Model):
    slug = models.CharField(max_length=80, validators=[slug_validator], db_index=True)
    version = models.PositiveIntegerField(default=1)
    kind = models.CharField(max_length=16, choices=QuestionKind.choices)
    title = models.CharField(max_length=200)
    difficulty = models.CharField(
        max_length=8, choices=Difficulty.choices, default=Difficulty.MEDIUM
    )
    tags = models.JSONField(default=list, blank=True)
    prompt = models.TextField(blank=True)
    status = models.CharField(
        max_length=16, choices=QuestionStatus.choices, default=QuestionStatus.DRAFT
    )
    rubric = models.ForeignKey(
        Rubric, null=True, blank=True, on_delete=models.SET_NULL, related_name="questions"
    )

    # Coding questions only.
    languages = models.JSONField(default=list, blank=True)
    io = models.CharField(max_length=16, choices=IoMode.choices, default=IoMode.STDIO)
    entrypoint = models.CharField(max_length=80, blank=True)
    time_limit_ms = models.PositiveIntegerField(default=2000)
    memory_limit_mb = models.PositiveIntegerField(default=256)
    output_limit_mb = models.PositiveIntegerField(default=8)
    checker = models.CharField(max_length=32, default="exact")
    starter = models.JSONField(default=dict, blank=True)
    reference = models.JSONField(default=dict, blank=True)

    # Review questions only: the design doc whose lines comments anchor to.
    document = models.TextField(blank=True)
    # Real problems of the doc that are not planted flaws ([{category, lines, explanation}]):
    # a comment on one is a valid finding, not a false alarm (`services.reviews`).
    known_issues = models.JSONField(default=list, blank=True)
    # What a good answer covers, for the automatic scorecard of discussion rounds:
    # [{point, patterns: {en: [regex…], zh: [regex…]}, dimension}].
    key_points = models.JSONField(default=list, blank=True)
    # Translations of the version's candidate-facing text, kept with the version; a
    # translation-only edit changes this version in place (nothing judged changes).
    i18n = models.JSONField(default=dict, blank=True)

    # A coding question may only be published once its reference passed every hidden test.
    verified_at = models.DateTimeField(null=True, blank=True)
    verification = models.JSONField(default=dict, blank=True)
    # The reference's slowest hidden test per language and part, from its last passed
    # verification ({"python": {"1": 90}}, ms of CPU): what the automatic scorecard
    # compares a candidate's slowest test with.
    reference_time_ms = models.JSONField(default=dict, blank=True)
    fingerprint = models.CharField(max_length=64, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["slug", "-version"]
        constraints = [
            models.UniqueConstraint(
                fields=["slug", "version"], name="question_slug_version_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.slug} v{self.version}"

    @property
    def is_verified(self) -> bool:
        return self.verified_at is not None


class Part(models.Model):
    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="parts")
    position = models.PositiveIntegerField(help_text="1-based, as in the API.")
    title = models.CharField(max_length=200)
    prompt = models.TextField(blank=True)

    class Meta:
        ordering = ["question", "position"]
        constraints = [
            models.UniqueConstraint(fields=["question", "position"], name="part_position_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.question} part {self.position}"


class TestCase(models.Model):
    class Visibility(models.TextChoices):
        SAMPLE = "sample"
        HIDDEN = "hidden"

    part = models.ForeignKey(Part, on_delete=models.CASCADE, related_name="tests")
    visibility = models.CharField(max_length=8, choices=Visibility.choices)
    position = models.PositiveIntegerField()
    input = models.TextField(blank=True)
    output = models.TextField(blank=True)

    __test__ = False  # not a pytest class

    class Meta:
        ordering = ["part", "visibility", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["part", "visibility", "position"], name="testcase_position_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.part} {self.visibility}[{self.position}]"


class FollowUp(models.Model):
    class Trigger(models.TextChoices):
        MANUAL = "manual"
        ON_PART_PASSED = "on_part_passed"
        AFTER_MINUTES = "after_minutes"
        #: Solo stages: once the candidate has answered what was asked last (see
        #: `interviews.services.live.stage_on_answer_saved`), or at their "Next question".
        AFTER_ANSWER = "after_answer"

    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="follow_ups")
    position = models.PositiveIntegerField(help_text="1-based.")
    prompt = models.TextField()
    unlocks_part = models.PositiveIntegerField(null=True, blank=True, help_text="1-based part.")
    trigger = models.CharField(max_length=16, choices=Trigger.choices, default=Trigger.MANUAL)
    after_minutes = models.PositiveIntegerField(null=True, blank=True)
    coach_notes = models.TextField(blank=True)
    key_points = models.JSONField(default=list, blank=True, help_text="As Question.key_points.")

    class Meta:
        ordering = ["question", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["question", "position"], name="followup_position_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.question} follow-up {self.position}"


class FlawCategory(models.TextChoices):
    SPOF = "spof"
    TIMEOUTS = "timeouts"
    GPU_MEMORY = "gpu-memory"
    PREFILL_DECODE = "prefill-decode"
    CONCURRENCY = "concurrency"
    CONSISTENCY = "consistency"
    IDEMPOTENCY = "idempotency"
    OBSERVABILITY = "observability"
    SECURITY = "security"
    OTHER = "other"


class Severity(models.TextChoices):
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"


class PlantedFlaw(models.Model):
    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="flaws")
    position = models.PositiveIntegerField()
    category = models.CharField(max_length=16, choices=FlawCategory.choices)
    line_start = models.PositiveIntegerField()
    line_end = models.PositiveIntegerField()
    severity = models.CharField(max_length=8, choices=Severity.choices, default=Severity.MEDIUM)
    explanation = models.TextField()
    # The document's text of lines line_start..line_end when the flaw was planted: an edit
    # of the document moves the range (bankfile.anchors) and a mismatch is detectable.
    anchor_text = models.TextField(blank=True)

    class Meta:
        ordering = ["question", "position"]

    def __str__(self) -> str:
        return f"{self.question} flaw {self.category} L{self.line_start}-{self.line_end}"


# The choices come from the registry, with Django's labels made from the names ("Hm Call"),
# as the migrations recorded them; the labels people read are the specs'.
StageKind = models.TextChoices(
    "StageKind",
    [(spec.kind.upper(), spec.kind) for spec in stage_kind_list()],
    module=__name__,
)


class LoopTemplate(models.Model):
    slug = models.SlugField(max_length=80, unique=True, validators=[slug_validator])
    title = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    # A half-built template must not reach candidates' catalogues: publishing is a choice.
    status = models.CharField(
        max_length=16, choices=QuestionStatus.choices, default=QuestionStatus.DRAFT
    )
    #: Translations of the text ({"zh-Hans": {...}}; `interviews.bankfile.translations`).
    i18n = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["slug"]

    def __str__(self) -> str:
        return self.slug


class StageTemplate(models.Model):
    loop_template = models.ForeignKey(LoopTemplate, on_delete=models.CASCADE, related_name="stages")
    position = models.PositiveIntegerField()
    kind = models.CharField(max_length=16, choices=StageKind.choices)
    title = models.CharField(max_length=200)
    minutes = models.PositiveIntegerField(validators=[MinValueValidator(1), MaxValueValidator(600)])
    question_slugs = models.JSONField(
        default=list, help_text="Ordered slugs; a loop takes each slug's latest published version."
    )
    rubric = models.ForeignKey(
        Rubric, null=True, blank=True, on_delete=models.SET_NULL, related_name="stage_templates"
    )

    class Meta:
        ordering = ["loop_template", "position"]

    def __str__(self) -> str:
        return f"{self.loop_template.slug} #{self.position} {self.title}"
