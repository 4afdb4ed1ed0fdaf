"""Recordings: propose and consent (a round's call), spoken answers, chunk upload while
recording, the audio for replay and feedback, and the candidate's delete."""

from django.http import StreamingHttpResponse
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.parsers import BaseParser
from rest_framework.request import Request
from rest_framework.response import Response

from interviews.models import Recording
from interviews.selectors.recordings import recording_for, recordings_of
from interviews.selectors.stages import stage_for, stage_question_get
from interviews.services import recordings
from interviews.services.errors import InvalidInput

from .base import (
    PracticeApi,
    ScopedThrottle,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    StrictSerializer,
)


class RecordingOutSerializer(serializers.ModelSerializer):
    proposed_by = serializers.SlugRelatedField(slug_field="username", read_only=True)
    consent_needed = serializers.ListField(child=serializers.CharField())
    consented = serializers.ListField(child=serializers.CharField())
    audio_url = serializers.SerializerMethodField()

    class Meta:
        model = Recording
        fields = [
            "id",
            "stage",
            "kind",
            "question",
            "status",
            "proposed_by",
            "consent_needed",
            "consented",
            "started_at",
            "stopped_at",
            "offset_ms",
            "content_type",
            "chunk_count",
            "size",
        ]
        fields += ["audio_url"]

    def get_audio_url(self, recording: Recording) -> str:
        return f"/api/v1/recordings/{recording.pk}/audio/"


class StageRecordingsApi(PracticeApi):
    class ProposeInputSerializer(StrictSerializer):
        kind = StrictCharField(required=False, default=Recording.Kind.CALL)
        question = StrictIntegerField(required=False, allow_null=True, default=None)

    @extend_schema(responses={200: RecordingOutSerializer(many=True)})
    def get(self, request: Request, stage_id: int) -> Response:
        """The stage's recordings (calls and spoken answers) for whoever may see it."""
        stage = stage_for(request.user, stage_id)
        return Response(RecordingOutSerializer(recordings_of(stage), many=True).data)

    @extend_schema(request=ProposeInputSerializer, responses={201: RecordingOutSerializer})
    def post(self, request: Request, stage_id: int) -> Response:
        """Propose recording the call (everyone in the room must agree; 409
        `recording_needs_both`, `recording_in_progress`), or start a spoken answer to
        `question` (`kind: answer`, the candidate only; it starts at once)."""
        stage = stage_for(request.user, stage_id)
        data = self.ProposeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        question_id = data.validated_data["question"]
        question = stage_question_get(stage, question_id) if question_id is not None else None
        recording = recordings.recording_propose(
            stage=stage, actor=request.user, kind=data.validated_data["kind"], question=question
        )
        return Response(RecordingOutSerializer(recording).data, status=201)


class RecordingConsentApi(PracticeApi):
    class ConsentInputSerializer(StrictSerializer):
        agree = StrictBooleanField()

    @extend_schema(request=ConsentInputSerializer, responses={200: RecordingOutSerializer})
    def post(self, request: Request, recording_id: int) -> Response:
        """Agree to or decline a proposed recording (those in the room when it was
        proposed); it starts when the last one agrees."""
        recording = recording_for(request.user, recording_id)
        data = self.ConsentInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        recording = recordings.recording_consent(
            recording=recording, actor=request.user, agree=data.validated_data["agree"]
        )
        return Response(RecordingOutSerializer(recording).data)


class RecordingStopApi(PracticeApi):
    @extend_schema(request=None, responses={200: RecordingOutSerializer})
    def post(self, request: Request, recording_id: int) -> Response:
        """Stop recording (any participant of the call; the candidate for an answer)."""
        recording = recording_for(request.user, recording_id)
        recording = recordings.recording_stop(recording=recording, actor=request.user)
        return Response(RecordingOutSerializer(recording).data)


class RawChunkParser(BaseParser):
    """A chunk's bytes as sent (`audio/webm`, or any type: MediaRecorder names its own),
    read up to one byte past the cap, so the service refuses an oversized chunk with 413
    `chunk_too_large` without reading the rest."""

    media_type = "*/*"

    def parse(self, stream, media_type=None, parser_context=None) -> bytes:
        if stream is None:
            return b""
        return stream.read(recordings.CHUNK_MAX_BYTES + 1)


CHUNK_STORED = inline_serializer(
    "RecordingChunkStored",
    {
        "seq": serializers.IntegerField(),
        "size": serializers.IntegerField(),
        "stored": serializers.BooleanField(),
    },
)


class RecordingChunkApi(PracticeApi):
    parser_classes = [RawChunkParser]
    throttle_classes = [ScopedThrottle]
    throttle_scope = "recording_chunk"

    @extend_schema(
        parameters=[OpenApiParameter("seq", int, required=True, description="From 0, in order.")],
        request={"audio/webm": OpenApiTypes.BINARY},
        responses={201: CHUNK_STORED, 200: CHUNK_STORED},
    )
    def post(self, request: Request, recording_id: int) -> Response:
        """Append chunk `seq` (the body: one MediaRecorder blob) to a running recording.
        A retry of a stored chunk answers 200 as before; 409 `chunk_out_of_order` (with the
        `expected` number), `chunk_conflict`, `recording_not_recording`; 413
        `chunk_too_large`, `recording_too_large`; 400 `chunk_empty`, `chunk_seq_invalid`."""
        recording = recording_for(request.user, recording_id)
        raw = request.query_params.get("seq", "")
        if not raw.isdigit():
            raise InvalidInput(
                errors={"seq": [_("A chunk number: 0, 1, 2, …")]}, code="chunk_seq_invalid"
            )
        data = request.data if isinstance(request.data, bytes) else b""
        chunk, created = recordings.recording_chunk_append(
            recording=recording, actor=request.user, seq=int(raw), data=data
        )
        return Response(
            {"seq": chunk.seq, "size": chunk.size, "stored": True}, status=201 if created else 200
        )


class RecordingAudioApi(PracticeApi):
    @extend_schema(responses={(200, "audio/webm"): OpenApiTypes.BINARY})
    def get(self, request: Request, recording_id: int) -> StreamingHttpResponse:
        """The recording as one WebM file (its chunks concatenated): the loop's candidate,
        the stage's coach, admins."""
        recording = recording_for(request.user, recording_id)
        size, body = recordings.recording_audio(recording=recording, actor=request.user)
        response = StreamingHttpResponse(body, content_type=recording.content_type)
        response["Content-Length"] = str(size)
        response["Cache-Control"] = "private, no-store"
        return response


class RecordingApi(PracticeApi):
    @extend_schema(responses={200: RecordingOutSerializer})
    def get(self, request: Request, recording_id: int) -> Response:
        recording = recording_for(request.user, recording_id)
        return Response(RecordingOutSerializer(recording).data)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, recording_id: int) -> Response:
        """The candidate deletes their recording: its audio is removed from storage."""
        recording = recording_for(request.user, recording_id)
        recordings.recording_delete(recording=recording, actor=request.user)
        return Response(status=204)


urlpatterns = [
    path(
        "stages/<int:stage_id>/recordings/", StageRecordingsApi.as_view(), name="stage-recordings"
    ),
    path("recordings/<int:recording_id>/", RecordingApi.as_view(), name="recording"),
    path(
        "recordings/<int:recording_id>/consent/",
        RecordingConsentApi.as_view(),
        name="recording-consent",
    ),
    path("recordings/<int:recording_id>/stop/", RecordingStopApi.as_view(), name="recording-stop"),
    path(
        "recordings/<int:recording_id>/chunks/",
        RecordingChunkApi.as_view(),
        name="recording-chunks",
    ),
    path(
        "recordings/<int:recording_id>/audio/", RecordingAudioApi.as_view(), name="recording-audio"
    ),
]
