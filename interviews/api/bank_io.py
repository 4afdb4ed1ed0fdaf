"""The question bank as files over HTTP (admins): import a bank document, export the bank.

Import is `import_bank` behind a request: the same validation (every problem with its
path), all or nothing, reference verification in the sandbox unless `verify` is false.
The body is the YAML text itself (`Content-Type: application/yaml`, `?verify=0` to skip
verification), a form upload (`multipart/form-data`: `file`, `verify`; what the import
page sends, so a big bank is never read into the page) or JSON
`{"yaml": "...", "verify": bool}` / `{"bank": {...}, "verify": bool}` (the browser's
rubric editor and loop builder send a bank dict with just what they edit).

Export is the bank file (YAML, as `export_bank` writes it) for download, or `?as=json`
the same dict as JSON; `?only=rubrics,loops` leaves the other sections out.
"""

import json
from typing import Any

from django.http import HttpResponse, StreamingHttpResponse
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.parsers import BaseParser, MultiPartParser
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response

from interviews.models import LoopTemplate, Rubric, StudyPlan
from interviews.roles import ADMIN, role_of
from interviews.selectors.bank import bank_export, bank_export_chunks
from interviews.services.bank_import import BankImportResult, bank_import, bank_import_text

from .base import (
    PracticeApi,
    StrictBooleanField,
    StrictCharField,
    StrictDictField,
    StrictSerializer,
)
from .exceptions import PayloadTooLarge

# A whole bank (hidden tests included) is far larger than an API body: the shipped one
# is several MiB. Still capped, so a runaway upload cannot exhaust the web process.
BANK_MAX_BYTES = 64 * 1024 * 1024
SECTIONS = ("questions", "rubrics", "loops", "plans")


class IsBankAdmin(BasePermission):
    message = "Only admins import or export the question bank."

    def has_permission(self, request: Request, view) -> bool:
        return role_of(request.user) == ADMIN


def _read_capped(stream) -> bytes:
    raw = stream.read(BANK_MAX_BYTES + 1) if stream is not None else b""
    if len(raw) > BANK_MAX_BYTES:
        raise PayloadTooLarge(f"The bank file is over {BANK_MAX_BYTES // (1024 * 1024)} MiB.")
    return raw


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise exceptions.ParseError(_("The bank file is not UTF-8 text.")) from exc


class BankJSONParser(BaseParser):
    media_type = "application/json"

    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        try:
            return json.loads(_decode(_read_capped(stream)))
        except ValueError as exc:
            raise exceptions.ParseError(_("JSON parse error - %(error)s") % {"error": exc}) from exc


class BankYamlParser(BaseParser):
    """The YAML text as is (parsed by the bank service, which reports YAML errors)."""

    media_type = "application/yaml"

    def parse(self, stream, media_type=None, parser_context=None) -> dict:
        return {"yaml": _decode(_read_capped(stream)), "verify": None}


class BankXYamlParser(BankYamlParser):
    media_type = "application/x-yaml"


class BankTextYamlParser(BankYamlParser):
    media_type = "text/yaml"


class BankPlainTextParser(BankYamlParser):
    media_type = "text/plain"


class BankMultiPartParser(MultiPartParser):
    """A bank file uploaded as a form (`file`, and `verify`): the browser sends the file
    as it is, rather than reading a big bank into the page."""

    def parse(self, stream, media_type=None, parser_context=None) -> dict:
        parsed = super().parse(stream, media_type, parser_context)
        upload = parsed.files.get("file")
        if upload is None:
            raise exceptions.ParseError(_("Upload the bank file as the form field `file`."))
        if upload.size > BANK_MAX_BYTES:
            raise PayloadTooLarge(f"The bank file is over {BANK_MAX_BYTES // (1024 * 1024)} MiB.")
        data: dict[str, Any] = {"yaml": _decode(upload.read()), "file_name": upload.name}
        if "verify" in parsed.data:
            data["verify"] = _flag(parsed.data["verify"])
        return data


class BankImportInputSerializer(StrictSerializer):
    yaml = StrictCharField(required=False, trim_whitespace=False, allow_blank=True)
    bank = StrictDictField(required=False)
    verify = StrictBooleanField(required=False, allow_null=True, default=None)
    file_name = StrictCharField(required=False, max_length=255)

    def validate(self, data: dict) -> dict:
        if ("yaml" in data) == ("bank" in data):
            raise serializers.ValidationError(
                {"non_field_errors": [_("Give the bank as `yaml` (text) or as `bank` (a dict).")]}
            )
        return data


def _flag(value: str | None) -> bool | None:
    if value is None:
        return None
    lowered = value.strip().lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise serializers.ValidationError({"verify": [_("Use 1/true or 0/false.")]})


def _question_row(question) -> dict:
    return {
        "id": question.pk,
        "slug": question.slug,
        "version": question.version,
        "kind": question.kind,
        "status": question.status,
        "verified": question.verified_at is not None,
    }


def _result(result: BankImportResult) -> dict:
    return {
        "detail": _("Imported."),
        "summary": result.summary(),
        "questions": {
            "created": [_question_row(q) for q in result.created],
            "unchanged": [_question_row(q) for q in result.unchanged],
            "verified": [q.slug for q in result.verified],
        },
        "rubrics": result.rubrics,
        "loops": result.loops,
        "plans": result.plans,
    }


class BankSlugStatesSerializer(serializers.Serializer):
    created = serializers.ListField(child=serializers.CharField())
    updated = serializers.ListField(child=serializers.CharField())
    unchanged = serializers.ListField(child=serializers.CharField())


class BankImportedQuestionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    slug = serializers.CharField()
    version = serializers.IntegerField()
    kind = serializers.CharField()
    status = serializers.CharField()
    verified = serializers.BooleanField()


class BankImportedQuestionsSerializer(serializers.Serializer):
    created = BankImportedQuestionSerializer(many=True, help_text="New versions.")
    unchanged = BankImportedQuestionSerializer(many=True)
    verified = serializers.ListField(
        child=serializers.CharField(), help_text="Slugs verified in the sandbox by this import."
    )


class BankImportResultSerializer(serializers.Serializer):
    detail = serializers.CharField()
    summary = serializers.CharField()
    questions = BankImportedQuestionsSerializer()
    rubrics = BankSlugStatesSerializer()
    loops = BankSlugStatesSerializer()
    plans = BankSlugStatesSerializer()


class BankImportApi(PracticeApi):
    permission_classes = [IsBankAdmin]
    # The count ("3 problems in the bank; nothing changed.") rather than the first problem
    # as `detail`: the list is in `errors`, each under its path.
    invalid_input_detail_is_summary = True
    parser_classes = [
        BankJSONParser,
        BankYamlParser,
        BankXYamlParser,
        BankTextYamlParser,
        BankPlainTextParser,
        BankMultiPartParser,
    ]

    @extend_schema(
        request={
            "application/json": BankImportInputSerializer,
            "application/yaml": OpenApiTypes.STR,
            "multipart/form-data": {
                "type": "object",
                "properties": {
                    "file": {"type": "string", "format": "binary"},
                    "verify": {"type": "boolean"},
                },
                "required": ["file"],
            },
        },
        parameters=[
            OpenApiParameter(
                "verify", bool, description="YAML bodies: 0 skips reference verification."
            )
        ],
        responses={200: BankImportResultSerializer},
        description=(
            "Admins: import a bank document (YAML text, or JSON `{yaml}` / `{bank}`), all or "
            "nothing. Questions whose content changed become new versions; rubrics and loop "
            "templates are replaced by slug. With `verify` (the default) every new coding "
            "version's reference runs on its hidden tests in the sandbox first. Problems → "
            "400 with `errors` keyed by path (`token-batcher.coding.parts[0].hidden[3]."
            "output`); sandbox down → 503."
        ),
    )
    def post(self, request: Request) -> Response:
        serializer = BankImportInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        verify = data["verify"]
        if verify is None:
            verify = _flag(request.query_params.get("verify"))
        verify = True if verify is None else verify
        if "yaml" in data:
            result = bank_import_text(
                data["yaml"],
                verify=verify,
                actor=request.user,
                label=data.get("file_name", "upload"),
            )
        else:
            result = bank_import(data["bank"], verify=verify, actor=request.user, label="api")
        return Response(BankImportResultSerializer(_result(result)).data)


class BankExportApi(PracticeApi):
    permission_classes = [IsBankAdmin]

    @extend_schema(
        parameters=[
            OpenApiParameter("as", str, description="`json`: the bank dict as JSON."),
            OpenApiParameter(
                "only", str, description="Comma-separated sections: questions,rubrics,loops,plans."
            ),
        ],
        responses={
            (200, "application/yaml"): OpenApiTypes.STR,
            (200, "application/json"): OpenApiTypes.OBJECT,
        },
        description=(
            "Admins: the bank as a bank file (the newest version of every question, every "
            "rubric, loop template and study plan), as `export_bank` writes it; a YAML "
            "download unless "
            "`as=json`."
        ),
    )
    def get(self, request: Request) -> HttpResponse:
        only = request.query_params.get("only")
        wanted = set(SECTIONS)
        if only:
            wanted = {part.strip() for part in only.split(",") if part.strip()}
            unknown = sorted(wanted - set(SECTIONS))
            if unknown:
                raise serializers.ValidationError(
                    {
                        "only": [
                            _("Unknown section(s): %(sections)s.")
                            % {"sections": ", ".join(unknown)}
                        ]
                    }
                )
        as_format = request.query_params.get("as", "yaml")
        if as_format == "json":
            return Response(
                bank_export(
                    questions=None if "questions" in wanted else [],
                    rubrics=None if "rubrics" in wanted else Rubric.objects.none(),
                    loops=None if "loops" in wanted else LoopTemplate.objects.none(),
                    plans=None if "plans" in wanted else StudyPlan.objects.none(),
                )
            )
        if as_format != "yaml":
            raise serializers.ValidationError({"as": [_("Use yaml or json.")]})
        # Streamed a few questions at a time: the full bank (tens of MB of hidden tests) is
        # never built in memory at once, and the download starts at once.
        response = StreamingHttpResponse(
            (chunk.encode("utf-8") for chunk in bank_export_chunks(sections=wanted)),
            content_type="application/yaml; charset=utf-8",
        )
        response["Content-Disposition"] = 'attachment; filename="mockloop-bank.yaml"'
        return response


urlpatterns = [
    path("bank/import/", BankImportApi.as_view(), name="bank-import"),
    path("bank/export/", BankExportApi.as_view(), name="bank-export"),
]
