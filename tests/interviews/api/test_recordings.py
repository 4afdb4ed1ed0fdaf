"""Recording with consent: who may propose, agree and stop; chunks uploaded in order,
idempotent on retry and capped; the audio for the loop's candidate, its coach and admins
only; the candidate's delete removes the files; a spoken answer's transcript is matched
against the question's key points."""

import pytest
from django.core.files.storage import default_storage

from interviews.models import Dimension, Recording, RecordingChunk, Rubric, Stage, StageEvent
from interviews.services import live
from interviews.services import recordings as service
from tests.interviews.world import World

API = "/api/v1"
pytestmark = pytest.mark.django_db

#: Stand-ins for MediaRecorder blobs: the server never parses them.
CHUNKS = [b"\x1aE\xdf\xa3header-and-first-cluster", b"\x1fC\xb6ucluster-two", b"\x1fC\xb6u-three"]


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")


@pytest.fixture
def room(world: World) -> World:
    """The live coding round with its candidate and its assigned coach in the room."""
    for user, role in ((world.owner, "candidate"), (world.assigned, "coach")):
        live.presence_change(stage=world.coding, user=user, role=role, joined=True)
    return world


def _propose(client, world: World, **body):
    return client.post(f"{API}/stages/{world.coding.pk}/recordings/", body, format="json")


def _consent(client, recording_id: int, agree: bool = True):
    return client.post(f"{API}/recordings/{recording_id}/consent/", {"agree": agree}, format="json")


def _chunk(client, recording_id: int, seq, data: bytes):
    return client.generic(
        "POST",
        f"{API}/recordings/{recording_id}/chunks/?seq={seq}",
        data,
        content_type="audio/webm;codecs=opus",
    )


def _recording(room: World, as_user) -> int:
    """A call recording both sides agreed to."""
    proposed = _propose(as_user(room.assigned), room)
    assert proposed.status_code == 201, proposed.json()
    assert _consent(as_user(room.owner), proposed.json()["id"]).status_code == 200
    return proposed.json()["id"]


def _events(world: World, prefix: str = "recording."):
    return list(
        StageEvent.objects.filter(stage=world.coding, type__startswith=prefix)
        .order_by("seq")
        .values_list("type", "payload")
    )


# --- consent ----------------------------------------------------------------------------


def test_recording_starts_only_when_both_agree(room: World, as_user):
    proposed = _propose(as_user(room.assigned), room)
    assert proposed.status_code == 201
    body = proposed.json()
    assert body["status"] == "proposed"
    assert body["consent_needed"] == ["coach-assigned", "owner"]
    assert body["consented"] == ["coach-assigned"]
    assert [t for t, _ in _events(room)] == ["recording.proposed"]
    assert _events(room)[0][1]["needs"] == ["owner"]

    started = _consent(as_user(room.owner), body["id"]).json()
    assert started["status"] == "recording" and started["offset_ms"] >= 0
    assert [t for t, _ in _events(room)] == ["recording.proposed", "recording.started"]

    stopped = as_user(room.owner).post(f"{API}/recordings/{body['id']}/stop/")
    assert stopped.status_code == 200 and stopped.json()["status"] == "stopped"
    assert _events(room)[-1] == (
        "recording.stopped",
        {"id": body["id"], "kind": "call", "reason": "stopped"},
    )


def test_either_side_may_propose_and_a_refusal_cancels(room: World, as_user):
    proposed = _propose(as_user(room.owner), room).json()
    assert proposed["consent_needed"] == ["coach-assigned", "owner"]
    declined = _consent(as_user(room.assigned), proposed["id"], agree=False)
    assert declined.json()["status"] == "declined"
    assert _events(room)[-1][1]["reason"] == "declined"
    again = _consent(as_user(room.assigned), proposed["id"])
    assert again.status_code == 409 and again.json()["code"] == "recording_not_proposed"
    # declined is over: a new proposal may follow
    assert _propose(as_user(room.owner), room).status_code == 201


def test_the_proposer_cannot_agree_for_the_other_side(room: World, as_user):
    proposed = _propose(as_user(room.owner), room).json()
    assert _consent(as_user(room.owner), proposed["id"]).json()["status"] == "proposed"


def test_recording_a_call_needs_both_in_the_room(world: World, as_user):
    live.presence_change(stage=world.coding, user=world.owner, role="candidate", joined=True)
    response = _propose(as_user(world.owner), world)
    assert response.status_code == 409 and response.json()["code"] == "recording_needs_both"


def test_one_recording_of_the_call_at_a_time(room: World, as_user):
    _recording(room, as_user)
    again = _propose(as_user(room.owner), room)
    assert again.status_code == 409 and again.json()["code"] == "recording_in_progress"


def test_recording_refused_outside_a_live_stage(room: World, as_user):
    as_user(room.owner).post(f"{API}/stages/{room.coding.pk}/finish/")
    response = _propose(as_user(room.assigned), room)
    assert response.status_code == 409 and response.json()["code"] == "stage_not_live"


@pytest.mark.parametrize("role", ["other", "coach"])
def test_strangers_cannot_propose_agree_or_stop(room: World, as_user, role):
    """A candidate of another loop and a coach not assigned to the stage see nothing."""
    stranger = as_user(getattr(room, role))
    assert _propose(stranger, room).status_code == 404
    recording_id = _recording(room, as_user)
    assert _consent(stranger, recording_id).status_code == 404
    assert stranger.post(f"{API}/recordings/{recording_id}/stop/").status_code == 404
    assert _chunk(stranger, recording_id, 0, CHUNKS[0]).status_code == 404
    assert stranger.get(f"{API}/recordings/{recording_id}/audio/").status_code == 404
    assert stranger.delete(f"{API}/recordings/{recording_id}/").status_code == 404
    assert stranger.get(f"{API}/stages/{room.coding.pk}/recordings/").status_code == 404
    assert Recording.objects.get(pk=recording_id).status == "recording"


def test_only_those_in_the_room_when_proposed_answer(room: World, as_user):
    proposed = _propose(as_user(room.owner), room).json()
    late = _consent(as_user(room.admin), proposed["id"])
    assert late.status_code == 403 and late.json()["code"] == "not_allowed"


# --- chunks -----------------------------------------------------------------------------


def test_chunks_are_stored_in_order_and_served_as_one_file(room: World, as_user):
    recording_id = _recording(room, as_user)
    owner = as_user(room.owner)
    for seq, data in enumerate(CHUNKS):
        response = _chunk(owner, recording_id, seq, data)
        assert response.status_code == 201, response.json()
        assert response.json() == {"seq": seq, "size": len(data), "stored": True}
    recording = Recording.objects.get(pk=recording_id)
    assert recording.chunk_count == 3 and recording.size == sum(map(len, CHUNKS))
    for chunk in recording.chunks.all():
        assert default_storage.exists(chunk.path)

    for viewer in (room.owner, room.assigned, room.admin):
        audio = as_user(viewer).get(f"{API}/recordings/{recording_id}/audio/")
        assert audio.status_code == 200
        assert audio["Content-Type"] == "audio/webm"
        assert b"".join(audio.streaming_content) == b"".join(CHUNKS)


def test_a_retried_chunk_is_idempotent(room: World, as_user):
    recording_id = _recording(room, as_user)
    owner = as_user(room.owner)
    assert _chunk(owner, recording_id, 0, CHUNKS[0]).status_code == 201
    retry = _chunk(owner, recording_id, 0, CHUNKS[0])
    assert retry.status_code == 200 and retry.json()["seq"] == 0
    assert RecordingChunk.objects.filter(recording_id=recording_id).count() == 1
    assert Recording.objects.get(pk=recording_id).size == len(CHUNKS[0])
    other_bytes = _chunk(owner, recording_id, 0, b"something else")
    assert other_bytes.status_code == 409 and other_bytes.json()["code"] == "chunk_conflict"


def test_chunks_out_of_order_bad_empty_or_oversized_are_refused(room: World, as_user, settings):
    recording_id = _recording(room, as_user)
    owner = as_user(room.owner)
    gap = _chunk(owner, recording_id, 1, CHUNKS[1])
    assert gap.status_code == 409 and gap.json()["code"] == "chunk_out_of_order"
    assert gap.json()["errors"]["expected"] == 0
    for bad in ("-1", "x", ""):
        response = _chunk(owner, recording_id, bad, CHUNKS[0])
        assert response.status_code == 400 and response.json()["code"] == "chunk_seq_invalid"
    empty = _chunk(owner, recording_id, 0, b"")
    assert empty.status_code == 400 and empty.json()["code"] == "chunk_empty"
    big = _chunk(owner, recording_id, 0, b"x" * (service.CHUNK_MAX_BYTES + 1))
    assert big.status_code == 413 and big.json()["code"] == "chunk_too_large"
    assert not RecordingChunk.objects.filter(recording_id=recording_id).exists()


def test_a_recording_is_capped_in_total(room: World, as_user, monkeypatch):
    monkeypatch.setattr(service, "RECORDING_MAX_BYTES", len(CHUNKS[0]) + 1)
    recording_id = _recording(room, as_user)
    owner = as_user(room.owner)
    assert _chunk(owner, recording_id, 0, CHUNKS[0]).status_code == 201
    over = _chunk(owner, recording_id, 1, CHUNKS[1])
    assert over.status_code == 413 and over.json()["code"] == "recording_too_large"


def test_chunks_only_from_the_candidate_while_recording(room: World, as_user):
    proposed = _propose(as_user(room.assigned), room).json()
    not_yet = _chunk(as_user(room.owner), proposed["id"], 0, CHUNKS[0])
    assert not_yet.status_code == 409 and not_yet.json()["code"] == "recording_not_recording"
    _consent(as_user(room.owner), proposed["id"])
    coach = _chunk(as_user(room.assigned), proposed["id"], 0, CHUNKS[0])
    assert coach.status_code == 403


def test_the_last_chunk_may_follow_the_stop(room: World, as_user):
    """MediaRecorder hands over its last blob after stop(): it is not lost."""
    recording_id = _recording(room, as_user)
    owner = as_user(room.owner)
    owner.post(f"{API}/recordings/{recording_id}/stop/")
    assert _chunk(owner, recording_id, 0, CHUNKS[0]).status_code == 201


@pytest.mark.parametrize("how", ["finish", "deadline"])
def test_a_finished_stage_ends_its_recording_even_without_the_browser(room: World, as_user, how):
    """The candidate's browser crashed mid-recording: the stage's end stops it (before, it
    stayed `recording` for good); its last chunk may still arrive."""
    from django.utils import timezone

    from interviews.services.stages import stage_finish

    recording_id = _recording(room, as_user)
    if how == "finish":
        stage_finish(stage=room.coding, actor=room.owner)
    else:
        Stage.objects.filter(pk=room.coding.pk).update(deadline=timezone.now())
        assert live.stage_expire(stage_id=room.coding.pk)
    recording = Recording.objects.get(pk=recording_id)
    assert recording.status == "stopped" and recording.stopped_at is not None
    assert _events(room)[-1] == (
        "recording.stopped",
        {"id": recording_id, "kind": "call", "reason": "stage_finished"},
    )
    assert _chunk(as_user(room.owner), recording_id, 0, CHUNKS[0]).status_code == 201


# --- delete -----------------------------------------------------------------------------


def test_the_candidate_deletes_their_recording_and_its_files(
    room: World, as_user, django_capture_on_commit_callbacks
):
    recording_id = _recording(room, as_user)
    owner = as_user(room.owner)
    for seq, data in enumerate(CHUNKS):
        _chunk(owner, recording_id, seq, data)
    paths = list(RecordingChunk.objects.values_list("path", flat=True))
    assert paths and all(default_storage.exists(p) for p in paths)

    assert as_user(room.assigned).delete(f"{API}/recordings/{recording_id}/").status_code == 403
    with django_capture_on_commit_callbacks(execute=True):
        response = owner.delete(f"{API}/recordings/{recording_id}/")
    assert response.status_code == 204
    assert not Recording.objects.filter(pk=recording_id).exists()
    assert not any(default_storage.exists(p) for p in paths)
    assert _events(room)[-1][1]["reason"] == "deleted"
    assert owner.get(f"{API}/recordings/{recording_id}/audio/").status_code == 404


def test_the_recordings_list_shows_offsets_for_replay(room: World, as_user):
    recording_id = _recording(room, as_user)
    listed = as_user(room.assigned).get(f"{API}/stages/{room.coding.pk}/recordings/").json()
    assert [r["id"] for r in listed] == [recording_id]
    assert listed[0]["audio_url"] == f"/api/v1/recordings/{recording_id}/audio/"
    assert listed[0]["offset_ms"] is not None and listed[0]["started_at"]


# --- spoken answers -----------------------------------------------------------------------


def _live_values(world: World):
    """The values round (a discussion stage) live and solo, its question with one key
    point that only a spoken transcript will cover."""
    question = world.discussion_q
    question.key_points = [
        {
            "point": "Names a concrete risk",
            "patterns": {"en": [r"\bmisuse\b"]},
            "dimension": "Judgment",
        }
    ]
    question.save()
    Stage.objects.filter(pk=world.values.pk).update(status="live", coach_requested=False)
    world.values.refresh_from_db()
    return world.values, question


def test_a_spoken_answer_needs_no_one_elses_consent(world: World, as_user):
    stage, question = _live_values(world)
    owner = as_user(world.owner)
    url = f"{API}/stages/{stage.pk}/recordings/"
    started = owner.post(url, {"kind": "answer", "question": question.pk}, format="json")
    assert started.status_code == 201, started.json()
    body = started.json()
    assert (body["kind"], body["status"], body["question"]) == ("answer", "recording", question.pk)
    types = StageEvent.objects.filter(stage=stage, type__startswith="recording.")
    assert list(types.values_list("type", flat=True)) == ["recording.proposed", "recording.started"]
    # a second answer to the same question may follow; several may be kept
    assert (
        owner.post(url, {"kind": "answer", "question": question.pk}, format="json").status_code
        == 201
    )


def test_a_spoken_answer_is_the_candidates_and_for_a_question_of_the_stage(world: World, as_user):
    stage, question = _live_values(world)
    url = f"{API}/stages/{stage.pk}/recordings/"
    body = {"kind": "answer", "question": question.pk}
    assert as_user(world.admin).post(url, body, format="json").status_code == 403
    assert as_user(world.other).post(url, body, format="json").status_code == 404
    wrong = as_user(world.owner).post(
        url, {"kind": "answer", "question": world.coding_q.pk}, format="json"
    )
    assert wrong.status_code == 400 and "question" in wrong.json()["errors"]
    unknown = as_user(world.owner).post(url, {"kind": "video"}, format="json")
    assert unknown.status_code == 400


def test_the_transcript_of_a_spoken_answer_covers_its_key_points(world: World, as_user):
    """The audio alone covers nothing; its transcript, saved as the answer's text, does."""
    stage, question = _live_values(world)
    rubric = Rubric.objects.create(slug="values-spoken")
    Dimension.objects.create(rubric=rubric, position=1, name="Judgment", weight=1)
    Stage.objects.filter(pk=stage.pk).update(rubric=rubric)
    owner = as_user(world.owner)
    recording = owner.post(
        f"{API}/stages/{stage.pk}/recordings/",
        {"kind": "answer", "question": question.pk},
        format="json",
    ).json()
    assert _chunk(owner, recording["id"], 0, CHUNKS[0]).status_code == 201
    owner.post(f"{API}/recordings/{recording['id']}/stop/")
    transcript = "The risk I worry about most is misuse of agents at scale."
    saved = owner.post(
        f"{API}/stages/{stage.pk}/answers/",
        {"question": question.pk, "text": transcript},
        format="json",
    )
    assert saved.status_code in (200, 201), saved.json()
    Stage.objects.filter(pk=stage.pk).update(status="done")
    card = owner.get(f"{API}/stages/{stage.pk}/scorecard/").json()
    assert [k["covered"] for k in card["key_points"]] == [True]
    [judgment] = card["scores"]
    assert f'covered (Q1): Names a concrete risk — "{transcript}"' in [
        e["text"] for e in judgment["evidence"]
    ]
    listed = owner.get(f"{API}/stages/{stage.pk}/recordings/").json()
    assert [(r["kind"], r["question"], r["chunk_count"]) for r in listed] == [
        ("answer", question.pk, 1)
    ]
