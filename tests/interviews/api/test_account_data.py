"""Export my data (a JSON file of everything I own, and nothing that is for coaches' eyes
or someone else's) and delete my account (password asked again; my loops and their files
go; a coach's scorecards on others' loops stay without the coach's name)."""

import json
from datetime import timedelta

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.utils import timezone
from rest_framework.test import APIClient

from interviews import models as m
from interviews.services.account_data import account_delete, account_export
from interviews.services.errors import NotAllowed
from tests.interviews.world import CANDIDATE_SECRETS, World

pytestmark = pytest.mark.django_db

PASSWORD = "pw-Correct-Horse-9"
OTHER_ANSWER = "SENTINEL-OTHER-CANDIDATES-ANSWER"


def test_the_export_is_a_json_file_of_what_the_owner_owns(world: World, as_user):
    m.Answer.objects.create(stage=world.coding, question=world.coding_q, text="my design")
    response = as_user(world.owner).get("/api/v1/me/export/")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="mockloop-owner-')
    data = json.loads(response.content)
    assert data["account"]["username"] == "owner"
    [loop] = data["loops"]
    coding = next(stage for stage in loop["stages"] if stage["kind"] == "coding")
    assert coding["answers"][0]["text"] == "my design"
    assert coding["submissions"][0]["code"] == "print(3)\n"


def test_the_export_never_carries_hidden_tests_coach_notes_or_others_data(world: World, as_user):
    """The leak test: hidden inputs/outputs, references, flaw keys, coach notes and the
    scorecard's private notes of the owner's own loop, and other candidates' answers."""
    m.Scorecard.objects.create(
        stage=world.coding,
        coach=world.assigned,
        summary="solid",
        private_notes="SENTINEL-SCORECARD-PRIVATE",
        recommendation="yes",
    )
    other_stage = world.other_loop.stages.order_by("position").first()
    m.Answer.objects.create(stage=other_stage, question=world.coding_q, text=OTHER_ANSWER)
    body = as_user(world.owner).get("/api/v1/me/export/").content.decode()
    for secret in [*CANDIDATE_SECRETS, OTHER_ANSWER]:
        assert secret not in body, secret
    [loop] = json.loads(body)["loops"]
    assert loop["stages"][0]["scorecard"]["summary"] == "solid"


def test_anonymous_cannot_export_or_delete():
    assert APIClient().get("/api/v1/me/export/").status_code == 401
    assert APIClient().post("/api/v1/me/delete/", {"password": PASSWORD}).status_code == 401


def test_nobody_exports_or_deletes_someone_elses_account(world: World):
    with pytest.raises(NotAllowed) as export:
        account_export(actor=world.other, user=world.owner)
    assert export.value.code == "not_own_account"
    with pytest.raises(NotAllowed) as delete:
        account_delete(actor=world.admin, user=world.owner, password=PASSWORD)
    assert delete.value.code == "not_own_account"
    assert m.Loop.objects.filter(candidate=world.owner).exists()


def test_deleting_needs_the_password(world: World, as_user):
    refused = as_user(world.owner).post("/api/v1/me/delete/", {"password": "nope"}, format="json")
    assert refused.status_code == 400
    assert refused.json()["code"] == "wrong_password"
    assert m.Loop.objects.filter(candidate=world.owner).exists()


def test_deleting_removes_the_loops_their_rows_and_recording_files(
    world: World, as_user, settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.MEDIA_ROOT = str(tmp_path)
    recording = m.Recording.objects.create(stage=world.coding, kind="call", status="stopped")
    path = default_storage.save("recordings/test/chunk-0.webm", ContentFile(b"audio"))
    m.RecordingChunk.objects.create(recording=recording, seq=0, size=5, sha256="x", path=path)
    owner_pk = world.owner.pk
    client = as_user(world.owner)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/api/v1/me/delete/", {"password": PASSWORD}, format="json")
    assert response.status_code == 204
    assert not m.Loop.objects.filter(candidate_id=owner_pk).exists()
    assert not m.Submission.objects.filter(author_id=owner_pk).exists()
    assert not m.Recording.objects.filter(pk=recording.pk).exists()
    assert not default_storage.exists(path)
    assert client.get("/api/v1/me/").status_code == 401
    assert m.Loop.objects.filter(pk=world.other_loop.pk).exists()


def test_a_coachs_scorecards_on_others_loops_stay_without_the_name(world: World, as_user):
    card = m.Scorecard.objects.create(stage=world.coding, coach=world.assigned, summary="kept")
    response = as_user(world.assigned).post(
        "/api/v1/me/delete/", {"password": PASSWORD}, format="json"
    )
    assert response.status_code == 204
    card.refresh_from_db()
    assert card.coach is None
    assert card.summary == "kept"


def test_a_coach_with_a_booked_session_to_come_is_refused(world: World, as_user):
    slot = m.CoachSlot.objects.create(
        coach=world.coach,
        starts_at=timezone.now() + timedelta(days=1),
        minutes=60,
        time_zone="UTC",
    )
    m.Booking.objects.create(
        slot=slot,
        stage=world.values,
        candidate=world.owner,
        coach=world.coach,
        starts_at=slot.starts_at,
        minutes=60,
    )
    refused = as_user(world.coach).post("/api/v1/me/delete/", {"password": PASSWORD}, format="json")
    assert refused.status_code == 409
    assert refused.json()["code"] == "coach_has_booked_sessions"
