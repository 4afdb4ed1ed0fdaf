"""A person's data: exported as JSON (everything they own, nothing anyone else wrote for
coaches' eyes), and deleted with the account.

What deletion does, per model (docs/decisions.md, "Deleting an account"):
- the candidate's loops go, and with them their stages, answers, submissions and test
  results, review comments, self-assessments, events, documents, bookings, the coaches'
  scorecards and notes on them, and the recordings — their audio files too;
- what the person did in other people's loops stays for those people, without their name:
  a coach's scorecards (`coach` becomes empty), room events they caused (`actor`), the
  recordings they proposed, audit entries; their private coach notes on others' stages go
  with them (notes are the author's, and a note nobody can attribute helps no one);
- their open slots and bookings as a coach go; a coach with a booked session still to
  come is refused (cancel those first, so the candidates are told);
- every token is revoked and its sockets closed; sessions end with the user row.
"""

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from knox.models import AuthToken

from interviews.access import access_own_account
from interviews.models import (
    AccountProfile,
    Booking,
    Loop,
    RecordingChunk,
    ReviewComment,
    Scorecard,
    SelfAssessment,
)
from interviews.realtime.access import signed_out, token_group

from .errors import InvalidInput, StateConflict
from .recordings import recording_files_remove

EXPORT_FORMAT = "mockloop-account-export/1"


def _when(value) -> str | None:
    return value.isoformat() if value is not None else None


def _stage_export(stage, user: AbstractBaseUser) -> dict[str, Any]:
    scorecard = Scorecard.objects.filter(stage=stage, draft=False).select_related("coach").first()
    self_assessment = SelfAssessment.objects.filter(stage=stage).first()
    return {
        "id": stage.pk,
        "position": stage.position,
        "kind": stage.kind,
        "title": stage.title,
        "status": stage.status,
        "started_at": _when(stage.started_at),
        # Titles only: a question's prompt, tests and references are the bank's, not theirs.
        "questions": [
            {"slug": sq.question.slug, "title": sq.question.title}
            for sq in stage.stage_questions.select_related("question")
        ],
        "answers": [
            {
                "question": answer.question.slug if answer.question else None,
                "text": answer.text,
                "notes": answer.notes,
                "scene": answer.scene,
                "updated_at": _when(answer.updated_at),
            }
            for answer in stage.answers.select_related("question")
        ],
        "submissions": [
            {
                "id": submission.pk,
                "question": submission.question.slug,
                "part": submission.part,
                "language": submission.language,
                "mode": submission.mode,
                "code": submission.code,
                "stdin": submission.stdin,
                "status": submission.status,
                "verdict": submission.verdict,
                "passed": submission.passed,
                "total": submission.total,
                "created_at": _when(submission.created_at),
            }
            for submission in stage.submissions.filter(author=user).select_related("question")
        ],
        "review_comments": [
            {
                "line_start": comment.line_start,
                "line_end": comment.line_end,
                "category": comment.category,
                "text": comment.text,
                "created_at": _when(comment.created_at),
            }
            for comment in ReviewComment.objects.filter(stage=stage, author=user)
        ],
        "self_assessment": self_assessment.scores if self_assessment else None,
        # What the candidate is shown of a submitted scorecard: never the coach's private
        # notes, nothing of a draft.
        "scorecard": (
            {
                "coach": scorecard.coach.get_username() if scorecard.coach else None,
                "scores": scorecard.scores,
                "summary": scorecard.summary,
                "recommendation": scorecard.recommendation,
                "updated_at": _when(scorecard.updated_at),
            }
            if scorecard
            else None
        ),
        "recordings": [
            {
                "kind": recording.kind,
                "status": recording.status,
                "started_at": _when(recording.started_at),
                "stopped_at": _when(recording.stopped_at),
                "bytes": recording.size,
            }
            for recording in stage.recordings.all()
        ],
    }


def account_export(*, actor: AbstractBaseUser, user: AbstractBaseUser) -> dict[str, Any]:
    """Everything `user` owns, as one JSON-ready dict: the account and its settings, the
    loops with their answers, code, comments, self-assessments, submitted scorecards and
    recordings' metadata (the audio is downloadable from each recording), and bookings."""
    access_own_account(actor, user, refusal=_("You may export only your own account."))
    profile = AccountProfile.objects.filter(user_id=user.pk).first() or AccountProfile()
    loops = Loop.objects.filter(candidate=user).select_related("template").order_by("pk")
    bookings = Booking.objects.filter(candidate=user) | Booking.objects.filter(coach=user)
    return {
        "format": EXPORT_FORMAT,
        "exported_at": timezone.now().isoformat(),
        "account": {
            "username": user.get_username(),
            "email": user.email,
            "date_joined": _when(user.date_joined),
            "last_login": _when(user.last_login),
            "time_zone": profile.time_zone,
            "language": profile.language,
            "email_verified": bool(user.email) and profile.verified_email == user.email,
        },
        "loops": [
            {
                "id": loop.pk,
                "title": loop.title,
                "coached": loop.coached,
                "created_at": _when(loop.created_at),
                "stages": [
                    _stage_export(stage, user) for stage in loop.stages.order_by("position")
                ],
            }
            for loop in loops
        ],
        "bookings": [
            {
                "stage": booking.stage_id,
                "as": "candidate" if booking.candidate_id == user.pk else "coach",
                "with": (
                    booking.coach if booking.candidate_id == user.pk else booking.candidate
                ).get_username(),
                "starts_at": _when(booking.starts_at),
                "minutes": booking.minutes,
                "status": booking.status,
            }
            for booking in bookings.select_related("coach", "candidate").order_by("starts_at")
        ],
    }


@transaction.atomic
def account_delete(*, actor: AbstractBaseUser, user: AbstractBaseUser, password: str) -> None:
    """Delete the account and the data above; the password is asked again (a borrowed,
    unlocked browser must not be enough)."""
    access_own_account(actor, user, refusal=_("You may delete only your own account."))
    user = get_user_model()._default_manager.select_for_update().get(pk=user.pk)
    if not user.check_password(password):
        raise InvalidInput(
            _("The password is wrong."),
            errors={"password": [_("The password is wrong.")]},
            code="wrong_password",
        )
    if Booking.objects.filter(
        coach=user, status=Booking.Status.BOOKED, starts_at__gt=timezone.now()
    ).exists():
        raise StateConflict(
            _("You have booked sessions to coach; cancel them first so the candidates are told."),
            code="coach_has_booked_sessions",
        )
    paths = list(
        RecordingChunk.objects.filter(recording__stage__loop__candidate=user).values_list(
            "path", flat=True
        )
    )
    digests = list(AuthToken.objects.filter(user=user).values_list("digest", flat=True))
    signed_out(token_group(digest) for digest in digests)
    Loop.objects.filter(candidate=user).delete()
    user.delete()
    transaction.on_commit(lambda: recording_files_remove(paths))
