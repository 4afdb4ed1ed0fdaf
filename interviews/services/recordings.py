"""Recordings: a live round's audio, recorded only with the consent of everyone in the
room, and a candidate's spoken answers; uploaded in chunks while they record.

Consent: a participant (the candidate, the stage's coach, an admin) proposes; everyone
present in the room then must agree (the proposer has), and the recording starts only
when the last one does (`recording.started`, with its offset on the stage's clock, so
replay lines the audio up with the log). Anyone who must agree may decline before it
starts, and any participant may stop it. A spoken answer is the candidate's own voice for
one question: it needs nobody else's consent and starts at once.

Chunks: the recording browser posts each MediaRecorder blob as it comes (every few
seconds), numbered from 0. A retry of a chunk already stored is answered as stored
(idempotent: same number and same bytes), a different body under a stored number is a
conflict, a gap is refused (the browser resends in order), and sizes are capped. Each
chunk is a file in Django's storage, so a crash loses at most the chunk being recorded.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from interviews.access import (
    access_recording_audio,
    access_recording_consent,
    access_stage_as_candidate,
)
from interviews.models import Question, Recording, RecordingChunk, Stage, StageQuestion
from interviews.realtime.events import emit
from interviews.roles import CANDIDATE, role_of

from .errors import InvalidInput, NotAllowed, StateConflict, TooLarge
from .live import stage_presence
from .recording_state import ACTIVE, recording_stopped_emit

#: One MediaRecorder blob: a few seconds of Opus are a few tens of KiB.
CHUNK_MAX_BYTES = 512 * 1024
#: A whole recording: hours of Opus at the browser's default bitrate.
RECORDING_MAX_BYTES = 200 * 1024 * 1024
#: After a stop, the recorder's last blob may still be on its way.
STOP_GRACE = timedelta(seconds=60)


def _locked(recording: Recording) -> Recording:
    return (
        Recording.objects.select_for_update()
        .select_related("stage", "stage__loop")
        .get(pk=recording.pk)
    )


def _offset_ms(stage: Stage, at) -> int:
    """Milliseconds after the stage's clock started (0 if it has not)."""
    if stage.started_at is None:
        return 0
    return max(0, int((at - stage.started_at).total_seconds() * 1000))


def _start(recording: Recording, *, actor: AbstractBaseUser) -> Recording:
    now = timezone.now()
    recording.status = Recording.Status.RECORDING
    recording.started_at = now
    recording.offset_ms = _offset_ms(recording.stage, now)
    recording.save(update_fields=["status", "started_at", "offset_ms", "consented"])
    emit(
        recording.stage,
        "recording.started",
        {
            "id": recording.pk,
            "kind": recording.kind,
            "question": recording.question_id,
            "offset_ms": recording.offset_ms,
        },
        actor=actor,
    )
    return recording


@transaction.atomic
def recording_propose(
    *,
    stage: Stage,
    actor: AbstractBaseUser,
    kind: str = Recording.Kind.CALL,
    question: Question | None = None,
) -> Recording:
    """Propose recording the round's call (`call`), or start a spoken answer (`answer`).

    A call needs everyone present to agree, and someone besides the candidate in the room:
    recording one side of a call nobody else is on is a spoken answer's job."""
    if kind == Recording.Kind.ANSWER:
        access_stage_as_candidate(
            actor, stage, refusal=_("Only the stage's candidate records spoken answers.")
        )
        if (
            question is None
            or not StageQuestion.objects.filter(stage_id=stage.pk, question=question).exists()
        ):
            raise InvalidInput(errors={"question": [_("A question of this stage.")]})
    elif kind == Recording.Kind.CALL:
        access_recording_consent(
            actor,
            stage,
            refusal=_("Only the candidate, the stage's coach or an admin propose recording."),
        )
        if question is not None:
            raise InvalidInput(errors={"question": [_("Only a spoken answer has a question.")]})
    else:
        raise InvalidInput(errors={"kind": [_("Use call or answer.")]})
    stage = Stage.objects.select_for_update().select_related("loop").get(pk=stage.pk)
    if stage.status != Stage.Status.LIVE:
        raise StateConflict(
            _("Recording is possible only while the stage is live."), code="stage_not_live"
        )
    active = Recording.objects.filter(stage=stage, kind=kind, status__in=ACTIVE)
    if kind == Recording.Kind.CALL and active.exists():
        raise StateConflict(
            _("A recording of this round is already proposed or running."),
            code="recording_in_progress",
        )
    me = actor.get_username()
    needs: list[str] = []
    if kind == Recording.Kind.CALL:
        present = {entry["user"]: entry["role"] for entry in stage_presence(stage)}
        present[me] = role_of(actor)
        if (
            not any(role != CANDIDATE for role in present.values())
            or stage.loop.candidate.get_username() not in present
        ):
            raise StateConflict(
                _("Recording a call needs the candidate and their interviewer in the room."),
                code="recording_needs_both",
            )
        needs = sorted(user for user in present if user != me)
    recording = Recording.objects.create(
        stage=stage,
        kind=kind,
        question=question,
        proposed_by=actor,
        consent_needed=sorted([me, *needs]),
        consented=[me],
    )
    emit(
        stage,
        "recording.proposed",
        {
            "id": recording.pk,
            "kind": recording.kind,
            "question": recording.question_id,
            "proposed_by": me,
            "needs": needs,
        },
        actor=actor,
    )
    if not needs:
        _start(recording, actor=actor)
    return recording


@transaction.atomic
def recording_consent(*, recording: Recording, actor: AbstractBaseUser, agree: bool) -> Recording:
    """Agree to (or decline) a proposed recording. It starts when the last one agrees; one
    refusal cancels it. Only those asked may answer, once."""
    recording = _locked(recording)
    stage = recording.stage
    access_recording_consent(
        actor,
        stage,
        refusal=_("Only the candidate, the stage's coach or an admin answer a recording request."),
    )
    me = actor.get_username()
    if recording.status != Recording.Status.PROPOSED:
        raise StateConflict(
            _("This recording is not waiting for consent."), code="recording_not_proposed"
        )
    if me not in recording.consent_needed:
        raise NotAllowed(_("You were not in the room when this recording was proposed."))
    if not agree:
        recording.status = Recording.Status.DECLINED
        recording.stopped_at = timezone.now()
        recording.save(update_fields=["status", "stopped_at"])
        recording_stopped_emit(recording, reason="declined", actor=actor)
        return recording
    if me not in recording.consented:
        recording.consented = sorted([*recording.consented, me])
        recording.save(update_fields=["consented"])
    if set(recording.consent_needed) <= set(recording.consented):
        _start(recording, actor=actor)
    return recording


@transaction.atomic
def recording_stop(*, recording: Recording, actor: AbstractBaseUser) -> Recording:
    """Stop a running recording (or withdraw a proposal): any participant of a call, the
    candidate for a spoken answer. Stopping twice is a no-op."""
    recording = _locked(recording)
    if recording.kind == Recording.Kind.ANSWER:
        access_stage_as_candidate(
            actor, recording.stage, refusal=_("Only the stage's candidate stops spoken answers.")
        )
    else:
        access_recording_consent(
            actor,
            recording.stage,
            refusal=_("Only the candidate, the stage's coach or an admin stop recording."),
        )
    if recording.status not in ACTIVE:
        return recording
    recording.status = Recording.Status.STOPPED
    recording.stopped_at = timezone.now()
    recording.save(update_fields=["status", "stopped_at"])
    recording_stopped_emit(recording, reason="stopped", actor=actor)
    return recording


def _chunk_path(recording: Recording, seq: int) -> str:
    return f"recordings/stage-{recording.stage_id}/{recording.pk}/{seq:06d}.webm"


@transaction.atomic
def recording_chunk_append(
    *, recording: Recording, actor: AbstractBaseUser, seq: int, data: bytes
) -> tuple[RecordingChunk, bool]:
    """Store chunk `seq` of a running recording; returns it and whether it is new.

    Only the candidate's browser records (the recording is theirs; they may delete it).
    Chunks come in order from 0; a retry of the last stored one is answered as stored."""
    recording = _locked(recording)
    access_stage_as_candidate(
        actor, recording.stage, refusal=_("Only the stage's candidate uploads recordings.")
    )
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
        raise InvalidInput(
            errors={"seq": [_("A chunk number: 0, 1, 2, …")]}, code="chunk_seq_invalid"
        )
    if not data:
        raise InvalidInput(errors={"body": [_("The chunk is empty.")]}, code="chunk_empty")
    if len(data) > CHUNK_MAX_BYTES:
        raise TooLarge(
            _("A chunk is at most %(kib)s KiB.") % {"kib": CHUNK_MAX_BYTES // 1024},
            errors={"body": [_("%(size)s bytes.") % {"size": len(data)}]},
            code="chunk_too_large",
        )
    digest = hashlib.sha256(data).hexdigest()
    stored = RecordingChunk.objects.filter(recording=recording, seq=seq).first()
    if stored is not None:
        if stored.sha256 != digest:
            raise StateConflict(
                _("Chunk %(seq)s is stored already, with other bytes.") % {"seq": seq},
                code="chunk_conflict",
            )
        return stored, False
    _check_open(recording)
    if seq != recording.chunk_count:
        raise StateConflict(
            _("Chunk %(expected)s comes next, not %(seq)s.")
            % {"expected": recording.chunk_count, "seq": seq},
            errors={"expected": recording.chunk_count},
            code="chunk_out_of_order",
        )
    if recording.size + len(data) > RECORDING_MAX_BYTES:
        raise TooLarge(
            _("A recording is at most %(mib)s MiB.")
            % {"mib": RECORDING_MAX_BYTES // (1024 * 1024)},
            code="recording_too_large",
        )
    path = default_storage.save(_chunk_path(recording, seq), ContentFile(data))
    chunk = RecordingChunk.objects.create(
        recording=recording, seq=seq, size=len(data), sha256=digest, path=path
    )
    recording.chunk_count += 1
    recording.size += len(data)
    recording.save(update_fields=["chunk_count", "size"])
    return chunk, True


def _check_open(recording: Recording) -> None:
    """Chunks are taken while it records, and for a short grace after it stopped (the
    recorder's last blob)."""
    if recording.status == Recording.Status.RECORDING:
        return
    if (
        recording.status == Recording.Status.STOPPED
        and recording.started_at is not None
        and recording.stopped_at is not None
        and timezone.now() - recording.stopped_at <= STOP_GRACE
    ):
        return
    raise StateConflict(_("This recording is not recording."), code="recording_not_recording")


def recording_audio(
    *, recording: Recording, actor: AbstractBaseUser
) -> tuple[int, Iterator[bytes]]:
    """The recording's size and its chunks, in order, as one WebM stream (checked now,
    read as the response is sent)."""
    access_recording_audio(actor, recording.stage)
    paths = list(recording.chunks.order_by("seq").values_list("path", "size"))
    return sum(size for _, size in paths), _read(path for path, _ in paths)


def _read(paths) -> Iterator[bytes]:
    for path in paths:
        with default_storage.open(path, "rb") as handle:
            yield handle.read()


@transaction.atomic
def recording_delete(*, recording: Recording, actor: AbstractBaseUser) -> None:
    """The candidate deletes a recording of theirs: its files go from storage, its row
    from the database (a running one is stopped first, so the room's indicator goes off).
    The log keeps only that a recording happened, never its audio."""
    recording = _locked(recording)
    access_stage_as_candidate(
        actor, recording.stage, refusal=_("Only the stage's candidate deletes recordings.")
    )
    paths = list(recording.chunks.values_list("path", flat=True))
    if recording.status in ACTIVE:
        recording_stopped_emit(recording, reason="deleted", actor=actor)
    recording.delete()
    transaction.on_commit(lambda: recording_files_remove(paths))


def recording_files_remove(paths: list[str]) -> None:
    """Delete chunk files from storage (after the rows are gone, on commit)."""
    for path in paths:
        default_storage.delete(path)
