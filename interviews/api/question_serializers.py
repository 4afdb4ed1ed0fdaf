"""Serializers of the question bank API.

Two views of a question:

- the **public** view (candidates and coaches): an explicit allow-list of fields — the
  prompt, the parts open from the start with their sample tests, starters, limits. It is
  built from `question_public_prefetch`, which never loads hidden tests, locked parts,
  follow-ups or planted flaws, so they cannot leak by accident;
- the **admin** view: the bank-file dict (`question_to_dict`) plus `id`, `version`,
  `status` and `verified_at` — what an admin edits and PUTs back;
- the **summary** (the admin's list): identity, state and counts only, built from
  `question_summary_annotate`, so a bank listing stays small however many tests the
  questions hold (the shipped bank's full dicts are several MiB).

Writes take the bank-file question dict, validated by `interviews.bankfile.validation`;
`QuestionWriteSerializer` only documents that body in the OpenAPI schema.
"""

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from interviews.api.practice_serializers import TranslatedOutSerializer
from interviews.bankfile.translations import Translation, child_translation, translation_of
from interviews.models import Question
from interviews.models.bank import QuestionKind, QuestionStatus
from interviews.selectors.bank import question_to_dict

VERIFICATION_STATES = ["running", "passed", "failed", "unavailable"]


class QuestionSampleSerializer(serializers.Serializer):
    input = serializers.CharField()
    output = serializers.CharField()


class PublicPartSerializer(TranslatedOutSerializer):
    translated_fields = {"title": "title", "prompt": "prompt"}
    number = serializers.IntegerField(source="position", help_text="1-based.")
    title = serializers.CharField()
    prompt = serializers.CharField()
    samples = QuestionSampleSerializer(many=True, source="sample_tests")
    hidden_count = serializers.IntegerField(help_text="How many hidden tests judge a submit.")


class PublicCodingSerializer(serializers.Serializer):
    languages = serializers.ListField(child=serializers.CharField())
    io = serializers.CharField()
    entrypoint = serializers.CharField()
    time_limit_ms = serializers.IntegerField()
    memory_limit_mb = serializers.IntegerField()
    checker = serializers.CharField()
    starter = serializers.DictField(child=serializers.CharField())
    parts = PublicPartSerializer(
        many=True, source="open_parts", help_text="Parts open from the start."
    )


class PublicReviewSerializer(serializers.Serializer):
    document = serializers.CharField()


class QuestionPublicSerializer(TranslatedOutSerializer):
    """A published question as a candidate may see it, in the request's language."""

    translated_fields = {"title": "title", "prompt": "prompt"}

    id = serializers.IntegerField()
    slug = serializers.CharField()
    version = serializers.IntegerField()
    kind = serializers.CharField()
    title = serializers.CharField()
    difficulty = serializers.CharField()
    tags = serializers.ListField(child=serializers.CharField())
    prompt = serializers.CharField()
    rubric = serializers.CharField(source="rubric.slug", allow_null=True, read_only=True)
    coding = serializers.SerializerMethodField()
    review = serializers.SerializerMethodField()

    def translation_for(self, question: Question) -> Translation:
        translation = translation_of(question.i18n)
        for part in getattr(question, "open_parts", ()):
            part.translation = child_translation(translation, "parts", part.position)
        return translation

    @extend_schema_field(PublicCodingSerializer(allow_null=True))
    def get_coding(self, question: Question) -> dict | None:
        if question.kind != QuestionKind.CODING:
            return None
        return PublicCodingSerializer(question).data

    @extend_schema_field(PublicReviewSerializer(allow_null=True))
    def get_review(self, question: Question) -> dict | None:
        if question.kind != QuestionKind.REVIEW:
            return None
        return PublicReviewSerializer(question).data


class QuestionAdminSerializer(serializers.Serializer):
    """A question version with everything: the bank-file dict plus its identity and state."""

    id = serializers.IntegerField()
    version = serializers.IntegerField()
    status = serializers.CharField()
    verified_at = serializers.DateTimeField(allow_null=True)
    verification = serializers.JSONField(
        read_only=True,
        help_text="The last (or running) reference verification: `{state: queued | running "
        "| passed | failed | unavailable, done, total, failures?, checked_at?}`; poll it "
        "after `POST …/verify/` until it is no longer queued or running.",
    )
    slug = serializers.CharField()
    kind = serializers.CharField()
    title = serializers.CharField()
    difficulty = serializers.CharField()
    tags = serializers.ListField(child=serializers.CharField())
    prompt = serializers.CharField()
    coding = serializers.JSONField(required=False, help_text="Bank-file `coding` block.")
    follow_ups = serializers.JSONField(required=False, help_text="Bank-file `follow_ups`.")
    review = serializers.JSONField(required=False, help_text="Bank-file `review` block.")
    key_points = serializers.JSONField(
        required=False,
        help_text="Bank-file `key_points` (discussion and design questions; follow-ups "
        "carry their own in `follow_ups`).",
    )
    rubric = serializers.CharField(required=False)
    i18n = serializers.JSONField(
        required=False,
        help_text="Bank-file `i18n` block: translations by language (`zh-Hans`, `zh-Hant`) "
        "of the title, prompt, parts, follow-ups, key points and flaws, numbered from 1.",
    )

    def to_representation(self, question: Question) -> dict[str, Any]:
        bank_dict = question_to_dict(question)
        bank_dict.pop("status", None)
        return {
            "id": question.pk,
            "version": question.version,
            "status": question.status,
            "verified_at": self.fields["verified_at"].to_representation(question.verified_at)
            if question.verified_at
            else None,
            "verification": question.verification or {},
            **bank_dict,
        }


class QuestionSummarySerializer(serializers.Serializer):
    """A question version as the bank listing shows it: no prompt, tests, references,
    follow-ups or flaws — open the question (`GET …/{id}/`) for those."""

    id = serializers.IntegerField()
    slug = serializers.CharField()
    version = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=QuestionKind.choices)
    title = serializers.CharField()
    difficulty = serializers.CharField()
    tags = serializers.ListField(child=serializers.CharField())
    status = serializers.ChoiceField(choices=QuestionStatus.choices)
    verified_at = serializers.DateTimeField(allow_null=True)
    verification_state = serializers.ChoiceField(
        choices=VERIFICATION_STATES,
        allow_null=True,
        help_text="State of the last (or running) reference verification; null if none ran.",
    )
    part_count = serializers.IntegerField()
    sample_count = serializers.IntegerField()
    hidden_count = serializers.IntegerField(help_text="Hidden tests over all parts.")
    follow_up_count = serializers.IntegerField()
    flaw_count = serializers.IntegerField(help_text="Planted flaws (review questions).")
    created_at = serializers.DateTimeField(help_text="When this version was created.")


class QuestionWriteSerializer(serializers.Serializer):
    """A question as in a bank file (see DESIGN.md, "Question bank file format");
    validated by the bank service, errors keyed by field path."""

    slug = serializers.CharField()
    kind = serializers.ChoiceField(choices=QuestionKind.choices)
    status = serializers.CharField(required=False, help_text="draft (default) | published")
    title = serializers.CharField()
    difficulty = serializers.CharField(required=False)
    tags = serializers.ListField(child=serializers.CharField(), required=False)
    prompt = serializers.CharField()
    coding = serializers.JSONField(required=False)
    follow_ups = serializers.JSONField(required=False)
    review = serializers.JSONField(required=False)
    rubric = serializers.CharField(required=False)
    i18n = serializers.JSONField(required=False, help_text="Translations, as in a bank file.")


class VerificationQueuedSerializer(serializers.Serializer):
    verification = serializers.JSONField(
        help_text="`{state: queued, done: 0, total: 0}`: the worker moves it on to "
        "`running` (with `done`/`total`) and then `passed | failed | unavailable`."
    )
    question = QuestionAdminSerializer()
