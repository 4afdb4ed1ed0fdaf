"""Output serializers of the practice API (loops, stages, submissions, reviews, scores).

Each audience gets an explicit allowlist of fields: the candidate's serializers simply
have no field for hidden tests, references, flaw keys, coach notes or private notes, and
the coach's variants add theirs. What objects a viewer gets at all is decided by
`interviews.selectors`.
"""

from typing import Any

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from interviews.bankfile.translations import (
    Translation,
    child_translation,
    translation_of,
)
from interviews.i18n import DEFAULT_LANGUAGE
from interviews.models import (
    Answer,
    CoachNote,
    Dimension,
    FollowUp,
    Loop,
    LoopTemplate,
    Part,
    PlantedFlaw,
    Question,
    ReviewComment,
    Rubric,
    Scorecard,
    Stage,
    StageFollowUp,
    StageTemplate,
    Submission,
    TestCase,
    TestResult,
)
from interviews.selectors.stages import time_remaining_ms
from interviews.selectors.submissions import submission_queue_position


class UsernameField(serializers.CharField):
    """A user as their username (None when unset)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("read_only", True)
        kwargs.setdefault("allow_null", True)
        super().__init__(**kwargs)

    def to_representation(self, value: Any) -> str:
        return value.get_username() if hasattr(value, "get_username") else str(value)


# --- bank text in the request's language -----------------------------------------------


class TranslatedOutSerializer(serializers.Serializer):
    """An object whose bank text is served in the request's language, per field with
    English fallback, saying which language its text is in (`language`) and which fields
    are still in English (`fallback_fields`).

    `translated_fields` maps output fields to their key in the translation. The object's
    translation is `translation_for(obj)`; an owner (a question, a loop template) sets
    `translation` on its children (parts, stages) before they are serialised."""

    translated_fields: dict[str, str] = {}
    TRANSLATED = ["language", "fallback_fields"]

    language = serializers.SerializerMethodField(
        help_text="The language of this object's text: the request's where a translation "
        'exists, else "en".'
    )
    fallback_fields = serializers.SerializerMethodField(
        help_text="Fields still in English although `language` is another (no translation)."
    )

    def translation_for(self, obj: Any) -> Translation:
        return getattr(obj, "translation", None) or Translation(None, DEFAULT_LANGUAGE)

    def to_representation(self, obj: Any) -> dict[str, Any]:
        translation = self.translation_for(obj)
        data = super().to_representation(obj)
        for field, key in self.translated_fields.items():
            if isinstance(data.get(field), str):
                data[field] = translation.text(field, data[field], key=key)
        return translation.stamp(data)

    # The values come from `to_representation` (`Translation.stamp`); these declare them.
    def get_language(self, obj: Any) -> str:
        return DEFAULT_LANGUAGE

    def get_fallback_fields(self, obj: Any) -> list[str]:
        return []


def _template_translation(template: LoopTemplate | None) -> Translation:
    return translation_of(template.i18n if template else None)


def _stage_translations(stages: Any, template: LoopTemplate | None) -> None:
    """Each stage's (or stage template's) title from its loop template's translation."""
    owner = _template_translation(template)
    for stage in stages:
        stage.translation = child_translation(owner, "stages", stage.position)


# --- templates and loops -----------------------------------------------------------------


class StageTemplateOutSerializer(TranslatedOutSerializer, serializers.ModelSerializer):
    translated_fields = {"title": "title"}
    questions = serializers.SerializerMethodField()

    class Meta:
        model = StageTemplate
        fields = [
            "position",
            "kind",
            "title",
            "minutes",
            "questions",
            "language",
            "fallback_fields",
        ]

    @extend_schema_field(OpenApiTypes.INT)
    def get_questions(self, obj: StageTemplate) -> int:
        """How many questions the stage asks (which ones is revealed when it starts)."""
        return len(obj.question_slugs)


class LoopTemplateOutSerializer(TranslatedOutSerializer, serializers.ModelSerializer):
    translated_fields = {"title": "title", "description": "description"}
    stages = serializers.SerializerMethodField()

    class Meta:
        model = LoopTemplate
        fields = ["slug", "title", "description", "stages", "language", "fallback_fields"]

    def translation_for(self, obj: LoopTemplate) -> Translation:
        return _template_translation(obj)

    @extend_schema_field(StageTemplateOutSerializer(many=True))
    def get_stages(self, obj: LoopTemplate) -> list[dict[str, Any]]:
        stages = list(obj.stages.all())
        _stage_translations(stages, obj)
        return StageTemplateOutSerializer(stages, many=True, context=self.context).data


class StageSummarySerializer(TranslatedOutSerializer, serializers.ModelSerializer):
    """A stage; its title from its loop template's translation (loaded once per loop
    when the caller set `stage.translation`, else read here)."""

    translated_fields = {"title": "title"}
    coach = UsernameField()
    time_remaining_ms = serializers.SerializerMethodField()
    scorecard_submitted = serializers.SerializerMethodField()

    class Meta:
        model = Stage
        fields = [
            "id",
            "loop",
            "position",
            "kind",
            "title",
            "minutes",
            "status",
            "started_at",
            "deadline",
            "finished_at",
            "time_remaining_ms",
            "coach_requested",
            "coach",
            "scorecard_submitted",
            *TranslatedOutSerializer.TRANSLATED,
        ]

    def translation_for(self, obj: Stage) -> Translation:
        known = getattr(obj, "translation", None)
        if known is not None:
            return known
        owner = _template_translation(obj.loop.template)
        return child_translation(owner, "stages", obj.position)

    @extend_schema_field(OpenApiTypes.INT)
    def get_time_remaining_ms(self, obj: Stage) -> int:
        return time_remaining_ms(obj, self.context.get("now"))

    @extend_schema_field(OpenApiTypes.BOOL)
    def get_scorecard_submitted(self, obj: Stage) -> bool:
        """Whether its coach has submitted a scorecard (a draft does not count)."""
        known = getattr(obj, "scorecard_submitted", None)
        if known is not None:
            return known
        return Scorecard.objects.filter(stage=obj, draft=False).exists()


class LoopOutSerializer(TranslatedOutSerializer, serializers.ModelSerializer):
    translated_fields = {"title": "title"}
    template = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    candidate = UsernameField()
    stages = StageSummarySerializer(source="visible_stages", many=True, read_only=True)

    class Meta:
        model = Loop
        fields = [
            "id",
            "template",
            "title",
            "coached",
            "candidate",
            "created_at",
            "stages",
            *TranslatedOutSerializer.TRANSLATED,
        ]

    def translation_for(self, obj: Loop) -> Translation:
        _stage_translations(obj.visible_stages, obj.template)
        return _template_translation(obj.template)


# --- stage detail ------------------------------------------------------------------------


class SampleTestSerializer(serializers.ModelSerializer):
    class Meta:
        model = TestCase
        fields = ["input", "output"]


class PartOutSerializer(TranslatedOutSerializer, serializers.ModelSerializer):
    translated_fields = {"title": "title", "prompt": "prompt"}
    number = serializers.IntegerField(source="position", read_only=True)
    samples = SampleTestSerializer(source="sample_tests", many=True, read_only=True)

    class Meta:
        model = Part
        fields = ["number", "title", "prompt", "samples", *TranslatedOutSerializer.TRANSLATED]


class PartCoachSerializer(PartOutSerializer):
    locked = serializers.BooleanField(read_only=True)

    class Meta(PartOutSerializer.Meta):
        fields = [*PartOutSerializer.Meta.fields, "locked"]


QUESTION_FIELDS = [
    "id",
    "slug",
    "version",
    "kind",
    "title",
    "difficulty",
    "tags",
    "prompt",
    "languages",
    "io",
    "entrypoint",
    "time_limit_ms",
    "memory_limit_mb",
    "checker",
    "starter",
    "document",
    "parts",
    *TranslatedOutSerializer.TRANSLATED,
]


def question_translation(question: Question) -> Translation:
    """The question's translation into the request's language, set on its parts,
    follow-ups and flaws (those the viewer was given) for their serializers."""
    translation = translation_of(question.i18n)
    for field, items in (
        ("parts", getattr(question, "part_list", ())),
        ("follow_ups", getattr(question, "follow_up_list", ())),
        ("flaws", getattr(question, "flaw_list", ())),
    ):
        for item in items:
            item.translation = child_translation(translation, field, item.position)
    return translation


class StageQuestionCandidateSerializer(TranslatedOutSerializer, serializers.ModelSerializer):
    translated_fields = {"title": "title", "prompt": "prompt"}
    parts = PartOutSerializer(source="part_list", many=True, read_only=True)

    class Meta:
        model = Question
        fields = QUESTION_FIELDS

    def translation_for(self, obj: Question) -> Translation:
        return question_translation(obj)


class FollowUpCoachSerializer(TranslatedOutSerializer, serializers.ModelSerializer):
    """A bank follow-up for the coach; its coach notes are the model answer, translated
    as `model_answer`."""

    translated_fields = {"prompt": "prompt", "coach_notes": "model_answer"}
    pushed = serializers.BooleanField(read_only=True)

    class Meta:
        model = FollowUp
        fields = [
            "id",
            "position",
            "prompt",
            "unlocks_part",
            "trigger",
            "after_minutes",
            "coach_notes",
            "pushed",
            *TranslatedOutSerializer.TRANSLATED,
        ]


class FlawSerializer(TranslatedOutSerializer, serializers.ModelSerializer):
    translated_fields = {"explanation": "explanation"}
    lines = serializers.SerializerMethodField()

    class Meta:
        model = PlantedFlaw
        fields = [
            "category",
            "lines",
            "severity",
            "explanation",
            *TranslatedOutSerializer.TRANSLATED,
        ]

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_lines(self, obj: PlantedFlaw) -> list[int]:
        return [obj.line_start, obj.line_end]


class StageQuestionCoachSerializer(StageQuestionCandidateSerializer):
    parts = PartCoachSerializer(source="part_list", many=True, read_only=True)
    follow_ups = FollowUpCoachSerializer(source="follow_up_list", many=True, read_only=True)
    flaws = FlawSerializer(source="flaw_list", many=True, read_only=True)

    class Meta(StageQuestionCandidateSerializer.Meta):
        fields = [*QUESTION_FIELDS, "follow_ups", "flaws"]


class DimensionOutSerializer(TranslatedOutSerializer, serializers.ModelSerializer):
    """`name` stays the English name: it is what a scorecard's scores name; `label` is
    the name to show, translated."""

    label = serializers.CharField(source="name", read_only=True)
    translated_fields = {"label": "name"}

    class Meta:
        model = Dimension
        fields = ["name", "label", "weight", "levels", *TranslatedOutSerializer.TRANSLATED]

    def to_representation(self, obj: Dimension) -> dict[str, Any]:
        translation = self.translation_for(obj)
        data = super().to_representation(obj)
        data["levels"] = translation.levels(list(data.get("levels") or []))
        return translation.stamp(data)


class RubricOutSerializer(TranslatedOutSerializer, serializers.ModelSerializer):
    translated_fields = {"title": "title"}
    dimensions = DimensionOutSerializer(many=True, read_only=True)

    class Meta:
        model = Rubric
        fields = ["slug", "title", "dimensions", *TranslatedOutSerializer.TRANSLATED]

    def translation_for(self, obj: Any) -> Translation:
        translation = translation_of(getattr(obj, "i18n", None))
        for number, dimension in enumerate(obj.dimensions.all(), start=1):
            dimension.translation = child_translation(translation, "dimensions", number)
        return translation


class PushedFollowUpSerializer(TranslatedOutSerializer, serializers.ModelSerializer):
    """A pushed follow-up: a bank one's text in the request's language (free text from a
    coach is as written, `language: "en"`)."""

    translated_fields = {"text": "prompt"}
    pushed_by = UsernameField()

    class Meta:
        model = StageFollowUp
        fields = [
            "id",
            "text",
            "question",
            "unlocks_part",
            "pushed_by",
            "created_at",
            *TranslatedOutSerializer.TRANSLATED,
        ]


class AnswerOutSerializer(serializers.ModelSerializer):
    class Meta:
        model = Answer
        fields = ["id", "question", "text", "notes", "scene", "updated_at"]


def pushed_follow_ups_translate(pushed: Any, questions: Any) -> None:
    """Set on each pushed bank follow-up the translation of its prompt (the stage's
    questions carry the translations and `follow_up_positions`, from the selector)."""
    owners = {question.pk: question for question in questions}
    for item in pushed:
        question = owners.get(item.question_id)
        positions = getattr(question, "follow_up_positions", {}) if question else {}
        if item.follow_up_id in positions:
            item.translation = child_translation(
                translation_of(question.i18n), "follow_ups", positions[item.follow_up_id]
            )


STAGE_DETAIL_FIELDS = [
    *StageSummarySerializer.Meta.fields,
    "server_time",
    "coached",
    "candidate",
    "rubric",
    "questions",
    "follow_ups",
    "answers",
    "scripted_follow_ups_left",
]


class StageCandidateSerializer(StageSummarySerializer):
    """The stage as its candidate sees it."""

    server_time = serializers.SerializerMethodField()
    coached = serializers.BooleanField(source="loop.coached", read_only=True)
    candidate = UsernameField(source="loop.candidate")
    rubric = RubricOutSerializer(source="rubric_obj", read_only=True, allow_null=True)
    questions = StageQuestionCandidateSerializer(source="question_list", many=True, read_only=True)
    follow_ups = PushedFollowUpSerializer(source="pushed_list", many=True, read_only=True)
    answers = AnswerOutSerializer(source="answer_list", many=True, read_only=True)
    scripted_follow_ups_left = serializers.IntegerField(
        read_only=True,
        help_text="Follow-ups the scripted interviewer can still be asked for with "
        '"Next question" (0 when a coach runs the stage or it is not live).',
    )

    class Meta(StageSummarySerializer.Meta):
        fields = STAGE_DETAIL_FIELDS

    def to_representation(self, obj: Stage) -> dict[str, Any]:
        pushed_follow_ups_translate(obj.pushed_list, getattr(obj, "question_list", ()))
        return super().to_representation(obj)

    @extend_schema_field(OpenApiTypes.DATETIME)
    def get_server_time(self, obj: Stage) -> str:
        return (self.context.get("now") or timezone.now()).isoformat()


class StageCoachSerializer(StageCandidateSerializer):
    """The stage as its coach and admins see it: adds the bank follow-ups (with coach
    notes), planted flaws and locked parts."""

    questions = StageQuestionCoachSerializer(source="question_list", many=True, read_only=True)

    class Meta(StageCandidateSerializer.Meta):
        fields = STAGE_DETAIL_FIELDS


class QueueEntrySerializer(StageSummarySerializer):
    """A stage waiting for a coach: `status` says whether it is still pending (its clock
    waits) or live (an admin started it), `loop_started_at` since when it waits."""

    loop_title = serializers.CharField(source="loop.title", read_only=True)
    loop_started_at = serializers.DateTimeField(source="loop.created_at", read_only=True)
    candidate = UsernameField(source="loop.candidate")

    class Meta(StageSummarySerializer.Meta):
        fields = [*StageSummarySerializer.Meta.fields, "loop_title", "loop_started_at", "candidate"]


# --- submissions -------------------------------------------------------------------------


class TestResultOutSerializer(serializers.Serializer):
    """Hidden tests: index and verdict only; their time and memory are null, as a figure
    per hidden test is fine enough to encode its input (a program that allocates
    `input[k]` MiB reads it back). The submission's `max_time_ms`/`max_memory_kb` cover
    the part as a whole. Sample tests show their figures, and those of a `run` also show
    input, expected output, output and stderr."""

    __test__ = False
    SUMMARY = ("index", "hidden", "verdict", "time_ms", "memory_kb")
    DETAIL = ("input", "expected", "output", "stderr", "exit_signal", "message")

    index = serializers.IntegerField()
    hidden = serializers.BooleanField()
    verdict = serializers.CharField()
    time_ms = serializers.IntegerField(
        allow_null=True, help_text="CPU time; null for hidden tests."
    )
    memory_kb = serializers.IntegerField(
        allow_null=True, help_text="Peak memory; null for hidden tests."
    )
    input = serializers.CharField(required=False, help_text="Sample tests of a run only.")
    expected = serializers.CharField(required=False, help_text="Sample tests of a run only.")
    output = serializers.CharField(required=False, help_text="Sample tests of a run only.")
    stderr = serializers.CharField(required=False, help_text="Sample tests of a run only.")
    exit_signal = serializers.CharField(required=False, help_text="Sample tests of a run only.")
    message = serializers.CharField(required=False, help_text="Sample tests of a run only.")

    def to_representation(self, obj: TestResult) -> dict[str, Any]:
        shown = self.SUMMARY
        if not obj.hidden and obj.submission.mode == Submission.Mode.RUN:
            shown = self.SUMMARY + self.DETAIL
        data = {name: getattr(obj, name) for name in shown}
        if obj.hidden:
            data.update(time_ms=None, memory_kb=None)
        return data


class SubmissionOutSerializer(serializers.ModelSerializer):
    tests = TestResultOutSerializer(many=True, read_only=True)
    queue_position = serializers.SerializerMethodField(
        help_text="While queued: its place in the judge's queue (1: next); else null."
    )

    def get_queue_position(self, obj: Submission) -> int | None:
        return submission_queue_position(obj)

    class Meta:
        model = Submission
        fields = [
            "id",
            "stage",
            "question",
            "part",
            "language",
            "mode",
            "code",
            "stdin",
            "auto",
            "status",
            "verdict",
            "passed",
            "total",
            "max_time_ms",
            "max_memory_kb",
            "queue_position",
            "compile_output",
            "created_at",
            "started_at",
            "finished_at",
            "tests",
        ]


class SubmissionQueuedSerializer(serializers.ModelSerializer):
    queue_position = serializers.SerializerMethodField(
        help_text="Its place in the judge's queue (1: next)."
    )

    def get_queue_position(self, obj: Submission) -> int | None:
        return submission_queue_position(obj)

    class Meta:
        model = Submission
        fields = ["id", "status", "queue_position"]


# --- reviews, notes, scorecards, events --------------------------------------------------


class ReviewCommentOutSerializer(serializers.ModelSerializer):
    lines = serializers.SerializerMethodField()
    author = UsernameField()

    class Meta:
        model = ReviewComment
        fields = ["id", "question", "lines", "category", "text", "author", "created_at"]

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_lines(self, obj: ReviewComment) -> list[int]:
        return [obj.line_start, obj.line_end]


class FlawResultSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The flaw's id (for review-match overrides).")
    question = serializers.IntegerField()
    position = serializers.IntegerField()
    category = serializers.CharField()
    lines = serializers.ListField(child=serializers.IntegerField())
    severity = serializers.CharField()
    explanation = serializers.CharField()
    comments = serializers.ListField(
        child=serializers.IntegerField(), help_text="Matching comment ids, the hit first."
    )


class CommentMatchSerializer(serializers.Serializer):
    comment = serializers.IntegerField()
    question = serializers.IntegerField()
    lines = serializers.ListField(child=serializers.IntegerField())
    category = serializers.CharField()
    flaw = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(
        choices=["hit", "duplicate", "miss", "valid"],
        help_text="hit: of the comments on its flaw, the one sharing most lines with it "
        "(then the earliest); duplicate: another comment on an already found flaw; miss: "
        "matches no flaw; valid: a real problem that is not a planted flaw (a known issue "
        "of the doc, or accepted by the coach), neutral.",
    )
    source = serializers.ChoiceField(choices=["auto", "coach"])
    overlap = serializers.IntegerField(help_text="Lines shared with the flaw.")
    note = serializers.CharField(
        help_text="Why it matched as it did (a neighbouring category, a known issue); or ''."
    )


class ReviewScoreSerializer(serializers.Serializer):
    """Rules in `interviews.services.reviews.review_score_compute`."""

    recall = serializers.FloatField(help_text="Flaws found / flaws planted.")
    precision = serializers.FloatField(help_text="hits / (hits + misses); duplicates left out.")
    comments = serializers.IntegerField(help_text="How many comments were made.")
    flaws = serializers.IntegerField(help_text="How many flaws were planted.")
    hits = serializers.IntegerField()
    duplicates = serializers.IntegerField()
    misses = serializers.IntegerField()
    valid = serializers.IntegerField(help_text="Valid findings that are not planted flaws.")
    matched = FlawResultSerializer(many=True)
    missed = FlawResultSerializer(many=True)
    comment_matches = CommentMatchSerializer(many=True)
    explanation = serializers.ListField(child=serializers.CharField())


class CoachNoteOutSerializer(serializers.ModelSerializer):
    author = UsernameField()

    class Meta:
        model = CoachNote
        fields = ["id", "text", "author", "created_at"]


class ScoreSerializer(serializers.Serializer):
    dimension = serializers.CharField()
    level = serializers.IntegerField()
    comment = serializers.CharField(allow_blank=True)


class ScorecardCandidateSerializer(serializers.ModelSerializer):
    coach = UsernameField()
    scores = ScoreSerializer(many=True, read_only=True)
    source = serializers.SerializerMethodField(help_text="A coach's scorecard.")

    class Meta:
        model = Scorecard
        fields = ["source", "stage", "coach", "scores", "summary", "recommendation", "updated_at"]

    @extend_schema_field(serializers.ChoiceField(choices=["coach"]))
    def get_source(self, scorecard: Scorecard) -> str:
        return "coach"


class ScorecardCoachSerializer(ScorecardCandidateSerializer):
    class Meta(ScorecardCandidateSerializer.Meta):
        fields = [*ScorecardCandidateSerializer.Meta.fields, "private_notes", "draft"]


class EventOutSerializer(serializers.Serializer):
    """`interviews.realtime.events.event_message`: these keys plus the event's payload."""

    type = serializers.CharField()
    seq = serializers.IntegerField()
    at = serializers.DateTimeField()
    actor = serializers.CharField(allow_null=True)
    private = serializers.BooleanField()


class UserOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.CharField()
    role = serializers.CharField()
    time_zone = serializers.CharField(help_text='IANA zone; "" means the browser\'s own.')
    language = serializers.CharField(
        help_text='The saved interface language (en, zh-Hans, zh-Hant); "" until the person '
        "chooses one: then the browser's language applies."
    )


class TokenOutSerializer(serializers.Serializer):
    token = serializers.CharField()
    id = serializers.IntegerField()
    username = serializers.CharField()
    role = serializers.CharField()
