"""Recordings: the audio of a live round (recorded only with everyone's consent) and a
candidate's spoken answers, kept as the chunks the browser uploaded while it recorded.

The chunks live in Django's storage (`default_storage`: files under MEDIA_ROOT by default,
an S3-compatible bucket through django-storages in production); the rows say which chunks
there are, in order, so a crash of the recording browser loses at most the chunk it was
recording. WebM chunks from one MediaRecorder concatenate into one playable file.
"""

from django.conf import settings
from django.db import models

from .bank import Question
from .practice import Stage


class Recording(models.Model):
    class Kind(models.TextChoices):
        CALL = "call", "the round's call, with consent"
        ANSWER = "answer", "a spoken answer to one question"

    class Status(models.TextChoices):
        PROPOSED = "proposed"
        RECORDING = "recording"
        STOPPED = "stopped"
        DECLINED = "declined"

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="recordings")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    question = models.ForeignKey(
        Question,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The question a spoken answer answers.",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PROPOSED)
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    consent_needed = models.JSONField(
        default=list, help_text="Usernames in the room when it was proposed: each must agree."
    )
    consented = models.JSONField(default=list, help_text="Usernames who agreed so far.")
    started_at = models.DateTimeField(null=True, blank=True)
    stopped_at = models.DateTimeField(null=True, blank=True)
    offset_ms = models.BigIntegerField(
        null=True, blank=True, help_text="When it started, in ms after the stage's clock started."
    )
    content_type = models.CharField(max_length=64, default="audio/webm")
    chunk_count = models.PositiveIntegerField(default=0)
    size = models.PositiveBigIntegerField(default=0, help_text="Bytes of every chunk.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["stage", "created_at", "id"]

    def __str__(self) -> str:
        return f"recording {self.pk} ({self.kind}, {self.status}) of stage {self.stage_id}"


class RecordingChunk(models.Model):
    """One MediaRecorder `dataavailable` blob, numbered from 0 in recording order."""

    recording = models.ForeignKey(Recording, on_delete=models.CASCADE, related_name="chunks")
    seq = models.PositiveIntegerField()
    size = models.PositiveIntegerField()
    sha256 = models.CharField(max_length=64)
    path = models.CharField(max_length=255, help_text="Its name in default_storage.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["recording", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["recording", "seq"], name="recordingchunk_seq_unique"),
        ]

    def __str__(self) -> str:
        return f"recording {self.recording_id} chunk {self.seq}"
