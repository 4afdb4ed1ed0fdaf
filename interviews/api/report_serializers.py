"""Serializers of the scoring and report endpoints: review-match overrides, deep-dive
feedback, the loop report, progress and calibration.

The services build plain dicts; these serializers are the allowlist of what leaves the
server (a key a service adds by mistake is not sent) and the OpenAPI description of it.
`private_notes` is optional: the report service includes it only for the stage's coach
and admins.
"""

from rest_framework import serializers

from .base import StrictBooleanField, StrictIntegerField, StrictSerializer
from .practice_serializers import ReviewScoreSerializer

# --- review matches ----------------------------------------------------------------------


class ReviewMatchInputSerializer(StrictSerializer):
    comment = StrictIntegerField(help_text="A review comment of this stage.")
    flaw = StrictIntegerField(
        allow_null=True,
        help_text="A planted flaw of the comment's doc; null: the comment matches no flaw.",
    )
    valid = StrictBooleanField(
        required=False,
        default=False,
        help_text="With a null flaw: accept the comment as a valid finding that is not a "
        "planted flaw (scored neutral, not as a false alarm).",
    )


# --- deep-dive feedback --------------------------------------------------------------------


class SpanSerializer(serializers.Serializer):
    rule = serializers.CharField(help_text="Id of the rule that fired, e.g. `metrics.heading`.")
    description = serializers.CharField()
    text = serializers.CharField(help_text="The text the rule fired on.")
    start = serializers.IntegerField(help_text="Offset in the answer text.")
    end = serializers.IntegerField()
    line = serializers.IntegerField(help_text="1-based line of `start`.")


class ChecklistItemSerializer(serializers.Serializer):
    part = serializers.ChoiceField(
        choices=[
            "context",
            "architecture",
            "trade-off",
            "failure",
            "metrics",
            "ownership",
            "extension",
        ]
    )
    label = serializers.CharField()
    covered = serializers.BooleanField()
    evidence = SpanSerializer(many=True)
    hint = serializers.CharField(allow_blank=True, help_text="What to add, when not covered.")


class QuantitySerializer(serializers.Serializer):
    text = serializers.CharField()
    value = serializers.FloatField(help_text="With k/M/B scales applied.")
    unit = serializers.CharField(allow_null=True)
    kind = serializers.CharField(allow_null=True)
    start = serializers.IntegerField()
    end = serializers.IntegerField()
    line = serializers.IntegerField()
    rule = serializers.CharField()


class BeforeAfterSerializer(serializers.Serializer):
    text = serializers.CharField()
    before = serializers.FloatField()
    after = serializers.FloatField()
    unit = serializers.CharField()
    change = serializers.CharField(help_text='Relative change, e.g. "-62.5%".')
    start = serializers.IntegerField()
    end = serializers.IntegerField()
    line = serializers.IntegerField()
    rule = serializers.CharField()


class QuantificationSerializer(serializers.Serializer):
    quantifies = serializers.BooleanField()
    level = serializers.ChoiceField(choices=["none", "some", "strong"])
    figures = QuantitySerializer(many=True)
    before_after = BeforeAfterSerializer(many=True)
    rule = serializers.CharField()


class RoiFigureSerializer(serializers.Serializer):
    text = serializers.CharField()
    kind = serializers.ChoiceField(choices=["money", "effort"])
    start = serializers.IntegerField()
    end = serializers.IntegerField()
    line = serializers.IntegerField()
    side = serializers.ChoiceField(choices=["cost", "benefit", "unclassified"])
    cue = serializers.CharField(allow_blank=True)
    rule = serializers.CharField()
    amount_usd = serializers.FloatField()
    per_year = serializers.FloatField(allow_null=True, help_text="Times a year; null: one-off.")
    stated_total = serializers.BooleanField()
    counted = serializers.BooleanField()
    excluded = serializers.ChoiceField(
        choices=["", "rate", "negated", "horizon_total"],
        allow_blank=True,
        help_text="Why it is left out: a rate, a negated claim, or the N-year total of a "
        "yearly figure already counted; empty otherwise.",
    )
    note = serializers.CharField(allow_blank=True)


class RoiSerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=["adds_up", "does_not_add_up", "unsure", "incomplete", "absent"]
    )
    cost_usd = serializers.FloatField(allow_null=True)
    benefit_usd = serializers.FloatField(allow_null=True)
    ratio = serializers.FloatField(allow_null=True)
    horizon_years = serializers.FloatField(allow_null=True)
    horizon_assumed = serializers.BooleanField()
    figures = RoiFigureSerializer(many=True)
    arithmetic = serializers.ListField(child=serializers.CharField())
    verdict = serializers.CharField()


class OwnershipVoiceSerializer(serializers.Serializer):
    i = serializers.IntegerField(help_text='First person singular words ("I", "my" …).')
    we = serializers.IntegerField(help_text='First person plural words ("we", "our" …).')
    note = serializers.CharField(allow_blank=True)


class AnswerFeedbackSerializer(serializers.Serializer):
    question = serializers.IntegerField(allow_null=True)
    question_title = serializers.CharField(allow_blank=True)
    words = serializers.IntegerField()
    covered = serializers.IntegerField(help_text="Parts covered, of `total`.")
    total = serializers.IntegerField()
    checklist = ChecklistItemSerializer(many=True)
    quantification = QuantificationSerializer()
    roi = RoiSerializer()
    ownership_voice = OwnershipVoiceSerializer()


class DeepDiveFeedbackSerializer(serializers.Serializer):
    stage = serializers.IntegerField()
    answers = AnswerFeedbackSerializer(many=True)


# --- model answers -------------------------------------------------------------------------


class TranslatedFieldsSerializer(serializers.Serializer):
    """Bank text in the request's language (`interviews.bankfile.translations`)."""

    language = serializers.CharField(
        help_text="The language of this object's text: the request's where a translation "
        'exists, else "en".'
    )
    fallback_fields = serializers.ListField(
        child=serializers.CharField(),
        help_text="Fields still in English although `language` is another (no translation).",
    )


class StrongAnswerSerializer(TranslatedFieldsSerializer):
    follow_up = serializers.IntegerField(help_text="The follow-up's number (1-based).")
    prompt = serializers.CharField()
    notes = serializers.CharField(help_text="What a strong answer covers (the coach notes).")


class ModelFlawSerializer(TranslatedFieldsSerializer):
    category = serializers.CharField()
    lines = serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2)
    severity = serializers.CharField()
    explanation = serializers.CharField()


class ModelAnswerSerializer(TranslatedFieldsSerializer):
    question = serializers.IntegerField()
    title = serializers.CharField()
    kind = serializers.CharField()
    strong_answers = StrongAnswerSerializer(many=True)
    reference = serializers.DictField(
        child=serializers.CharField(), help_text="Reference solution by language (coding)."
    )
    complexity = serializers.CharField(
        allow_null=True, help_text="The reference's complexity, when the bank states it."
    )
    wrong_patterns = serializers.ListField(
        child=serializers.CharField(),
        help_text="Wrong approaches the hidden tests target, when the bank names them.",
    )
    flaws = ModelFlawSerializer(many=True, help_text="The design doc's planted flaws (review).")


class ModelAnswersSerializer(serializers.Serializer):
    stage = serializers.IntegerField()
    questions = ModelAnswerSerializer(many=True)


# --- loop report ---------------------------------------------------------------------------


class DimensionScoreSerializer(serializers.Serializer):
    dimension = serializers.CharField(help_text="The rubric's (English) name: what scores name.")
    label = serializers.CharField(help_text="The name to show, in the request's language.")
    weight = serializers.FloatField()
    in_rubric = serializers.BooleanField()
    level = serializers.IntegerField(allow_null=True, help_text="1–4; null: not scored.")
    normalised = serializers.FloatField(allow_null=True, help_text="(level − 1) / 3.")
    comment = serializers.CharField(allow_blank=True)


class StageScoreSerializer(serializers.Serializer):
    dimensions = DimensionScoreSerializer(many=True)
    missing = serializers.ListField(child=serializers.CharField())
    complete = serializers.BooleanField()
    overall = serializers.FloatField(allow_null=True, help_text="Weighted mean, 0–1.")
    percent = serializers.FloatField(allow_null=True)
    level = serializers.FloatField(allow_null=True, help_text="The overall on the 1–4 scale.")
    explanation = serializers.CharField()


class ReportScorecardSerializer(serializers.Serializer):
    coach = serializers.CharField(allow_null=True)
    recommendation = serializers.CharField()
    summary = serializers.CharField(allow_blank=True)
    updated_at = serializers.DateTimeField()
    score = StageScoreSerializer()
    private_notes = serializers.CharField(
        required=False, allow_blank=True, help_text="The stage's coach and admins only."
    )


class EvidenceSerializer(serializers.Serializer):
    rule = serializers.CharField(help_text="Id of the rule, e.g. `coding.hidden-tests`.")
    text = serializers.CharField()


class AutoScoreSerializer(serializers.Serializer):
    dimension = serializers.CharField()
    level = serializers.IntegerField(
        allow_null=True, help_text="1–4; null: not measured automatically."
    )
    comment = serializers.CharField(allow_blank=True, help_text="The rule that set the level.")
    evidence = EvidenceSerializer(many=True)


class PartOutcomeSerializer(serializers.Serializer):
    part = serializers.IntegerField()
    title = serializers.CharField()
    hidden_tests = serializers.IntegerField()
    best_passed = serializers.IntegerField()
    accepted = serializers.BooleanField()
    minutes_to_accept = serializers.FloatField(allow_null=True)
    submits = serializers.IntegerField()
    failed_submits = serializers.IntegerField()
    ran_before_submit = serializers.BooleanField(allow_null=True)
    timed_out = serializers.BooleanField()
    slowest_test_ms = serializers.IntegerField(
        allow_null=True,
        help_text="The fastest accepted submit's slowest test (null: not accepted).",
    )
    language = serializers.CharField(allow_blank=True)


class QuestionOutcomeSerializer(serializers.Serializer):
    label = serializers.CharField(help_text='"Q1", "Q2" … in the order of the stage.')
    title = serializers.CharField()
    parts = PartOutcomeSerializer(many=True)
    parts_open = serializers.IntegerField()
    parts_accepted = serializers.IntegerField()
    summary = serializers.CharField(help_text='e.g. "Q1 3/3 parts", "Q2 unsolved".')


class KeyPointCoverageSerializer(serializers.Serializer):
    point = serializers.CharField()
    dimension = serializers.CharField()
    source = serializers.CharField(help_text='"Q1", or "Q1 follow-up 2".')
    covered = serializers.BooleanField()
    sentence = serializers.CharField(allow_blank=True, help_text="The sentence that covered it.")
    pattern = serializers.CharField(allow_blank=True)
    language = serializers.CharField(
        help_text='The language `point` is in: the request\'s where translated, else "en".'
    )


class AutoScorecardSerializer(serializers.Serializer):
    """`interviews.feedback.auto_scorecard`: fixed rules, each score with its evidence."""

    source = serializers.ChoiceField(choices=["auto"])
    stage = serializers.IntegerField()
    kind = serializers.CharField()
    summary = serializers.CharField(allow_blank=True)
    scores = AutoScoreSerializer(many=True)
    score = StageScoreSerializer()
    questions = QuestionOutcomeSerializer(many=True, help_text="Coding stages: per question.")
    key_points = KeyPointCoverageSerializer(
        many=True, help_text="Discussion rounds: each key point, covered or not."
    )


class ReportStageSerializer(TranslatedFieldsSerializer):
    id = serializers.IntegerField()
    position = serializers.IntegerField()
    kind = serializers.CharField()
    title = serializers.CharField()
    status = serializers.CharField()
    finished_at = serializers.DateTimeField(allow_null=True)
    coach = serializers.CharField(allow_null=True)
    rubric = serializers.CharField(allow_null=True)
    scorecard_status = serializers.ChoiceField(
        choices=["scored", "not_scored", "waiting_for_stage_end"]
    )
    scorecard = ReportScorecardSerializer(allow_null=True)
    review = ReviewScoreSerializer(allow_null=True)
    deep_dive = DeepDiveFeedbackSerializer(allow_null=True)
    auto_scorecard = AutoScorecardSerializer(
        allow_null=True, help_text="The automatic scorecard of a finished stage."
    )
    counted = serializers.ChoiceField(
        choices=["coach", "auto"],
        allow_null=True,
        help_text="Which scorecard counts in the loop's overall: the coach's wins.",
    )


class LoopOverallSerializer(serializers.Serializer):
    overall = serializers.FloatField(allow_null=True)
    percent = serializers.FloatField(allow_null=True)
    level = serializers.FloatField(allow_null=True)
    stages_scored = serializers.IntegerField()
    stages_unscored = serializers.IntegerField()
    explanation = serializers.CharField()


class LoopRecommendationSerializer(serializers.Serializer):
    recommendation = serializers.CharField(allow_null=True)
    explanation = serializers.CharField()


class LoopReportSerializer(TranslatedFieldsSerializer):
    id = serializers.IntegerField()
    title = serializers.CharField()
    template = serializers.CharField()
    candidate = serializers.CharField()
    coached = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    generated_at = serializers.DateTimeField()
    stages = ReportStageSerializer(many=True)
    overall = LoopOverallSerializer()
    recommendation = LoopRecommendationSerializer()


# --- progress ------------------------------------------------------------------------------


class ProgressBaseSerializer(serializers.Serializer):
    at = serializers.DateTimeField(allow_null=True, help_text="When the stage finished.")
    loop = serializers.IntegerField()
    loop_title = serializers.CharField()
    stage = serializers.IntegerField()
    kind = serializers.CharField()
    title = serializers.CharField()


class ProgressStageSerializer(ProgressBaseSerializer):
    percent = serializers.FloatField(allow_null=True)
    level = serializers.FloatField(allow_null=True)
    recommendation = serializers.CharField(
        allow_null=True, help_text="The coach's; null for an automatic scorecard."
    )
    source = serializers.ChoiceField(
        choices=["coach", "auto"], help_text="Which scorecard the point comes from."
    )


class ProgressKindSerializer(serializers.Serializer):
    kind = serializers.CharField()
    points = ProgressStageSerializer(many=True)


class ProgressDimensionPointSerializer(ProgressBaseSerializer):
    level = serializers.IntegerField()
    weight = serializers.FloatField()
    source = serializers.ChoiceField(choices=["coach", "auto"])


class ProgressDimensionSerializer(serializers.Serializer):
    dimension = serializers.CharField()
    points = ProgressDimensionPointSerializer(many=True)


class ProgressReviewSerializer(ProgressBaseSerializer):
    recall = serializers.FloatField()
    precision = serializers.FloatField()


class ProgressDeepDiveSerializer(ProgressBaseSerializer):
    covered = serializers.IntegerField()
    total = serializers.IntegerField()
    quantifies = serializers.BooleanField()
    roi = serializers.CharField()


class ProgressSerializer(serializers.Serializer):
    stages = ProgressStageSerializer(many=True)
    by_kind = ProgressKindSerializer(many=True)
    by_dimension = ProgressDimensionSerializer(many=True)
    review = ProgressReviewSerializer(many=True)
    deep_dive = ProgressDeepDiveSerializer(many=True)


# --- calibration ---------------------------------------------------------------------------


class CalibrationComparisonSerializer(serializers.Serializer):
    coach_mean = serializers.FloatField(allow_null=True)
    coach_n = serializers.IntegerField()
    all_mean = serializers.FloatField(allow_null=True)
    all_n = serializers.IntegerField()
    others_mean = serializers.FloatField(allow_null=True)
    others_n = serializers.IntegerField()
    delta = serializers.FloatField(allow_null=True, help_text="coach_mean − others_mean.")


class CalibrationDimensionSerializer(CalibrationComparisonSerializer):
    dimension = serializers.CharField()


class CalibrationCoachSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()


class CalibrationCountsSerializer(serializers.Serializer):
    coach = serializers.IntegerField()
    all = serializers.IntegerField()


class RecommendationCountsSerializer(serializers.Serializer):
    strong_no = serializers.IntegerField()
    no = serializers.IntegerField()
    yes = serializers.IntegerField()
    strong_yes = serializers.IntegerField()


class CalibrationRecommendationsSerializer(serializers.Serializer):
    coach = RecommendationCountsSerializer()
    all = RecommendationCountsSerializer()


class CalibrationSerializer(serializers.Serializer):
    coach = CalibrationCoachSerializer()
    scorecards = CalibrationCountsSerializer()
    scorers = serializers.IntegerField(help_text="Distinct users who filled a scorecard.")
    dimensions = CalibrationDimensionSerializer(many=True)
    overall = CalibrationComparisonSerializer()
    recommendations = CalibrationRecommendationsSerializer()
