"""Every practice endpoint × every kind of caller → the status the contract pins; and no
candidate response ever carries hidden tests, references, flaw keys or coach notes."""

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from interviews.models import Answer, Recording, ReviewComment, Scorecard, Stage
from interviews.services import live
from interviews.services.recordings import recording_consent, recording_propose
from interviews.services.reviews import review_comment_create
from tests.interviews.world import (
    CANDIDATE_SECRETS,
    FLAW_KEY,
    FOLLOW_UP_COACH_NOTES,
    HIDDEN_OUTPUT,
    REFERENCE,
    ROLES,
    World,
)

API = "/api/v1"


@dataclass
class Case:
    name: str
    method: str
    url: Callable[[World], str]
    expected: tuple[int, int, int, int, int, int]  # in ROLES order
    body: Callable[[World, str], dict] | None = None
    prepare: Callable[[World], None] | None = None
    # Secrets the owner may legitimately see here (the review score reveals the flaws).
    owner_may_see: list[str] = field(default_factory=list)


def _set(stage: Stage, **values) -> None:
    Stage.objects.filter(pk=stage.pk).update(**values)


def coding_pending(w: World) -> None:
    _set(w.coding, status="pending", started_at=None, deadline=None)


def review_live(w: World) -> None:
    _set(w.coding, status="done")
    _set(w.review, status="live")


def review_done(w: World) -> None:
    _set(w.coding, status="done")
    _set(w.review, status="done")


def coding_done_with_scorecard(w: World) -> None:
    _set(w.coding, status="done")
    Scorecard.objects.create(
        stage=w.coding,
        coach=w.assigned,
        scores=[{"dimension": "Communication", "level": 3, "comment": "clear"}],
        summary="Solid.",
        recommendation="yes",
        private_notes="SENTINEL-SCORECARD-PRIVATE",
    )


def both_in_the_room(w: World) -> None:
    for user, role in ((w.owner, "candidate"), (w.assigned, "coach")):
        live.presence_change(stage=w.coding, user=user, role=role, joined=True)


def recording_proposed(w: World) -> None:
    """A recording of the coding round's call that its coach proposed (the candidate's
    consent outstanding)."""
    both_in_the_room(w)
    w.recording_id = recording_propose(stage=w.coding, actor=w.assigned).pk


def recording_running(w: World) -> None:
    recording_proposed(w)
    recording = Recording.objects.get(pk=w.recording_id)
    recording_consent(recording=recording, actor=w.owner, agree=True)


def recording_url(suffix: str = "") -> Callable[[World], str]:
    """`recording_id` is set by the prepare step (any id resolves for the route check)."""
    return lambda w: f"{API}/recordings/{getattr(w, 'recording_id', 1)}/{suffix}"


def stage_url(attr: str, suffix: str = "") -> Callable[[World], str]:
    return lambda w: f"{API}/stages/{getattr(w, attr).pk}/{suffix}"


def question_url(attr: str, suffix: str = "") -> Callable[[World], str]:
    return lambda w: f"{API}/questions/{getattr(w, attr).pk}/{suffix}"


def review_with_comment(w: World) -> None:
    review_live(w)
    review_comment_create(
        stage=w.review, author=w.owner, line_start=3, line_end=4, category="spof", text="one"
    )


def review_comment_id(w: World) -> int:
    """The comment `review_with_comment` made (0 before it ran, for route resolving)."""
    return ReviewComment.objects.filter(stage=w.review).values_list("pk", flat=True).first() or 0


def review_as_finished_deep_dive(w: World) -> None:
    _set(w.coding, status="done")
    _set(w.review, kind="deep_dive", status="done")
    Answer.objects.create(stage=w.review, text="I led it: P99 from 900 ms to 250 ms.")


CASES = [
    Case(
        "signup",
        "post",
        lambda w: f"{API}/auth/signup/",
        (201,) * 6,
        body=lambda w, role: {"username": f"new-{role}", "password": "pw-Correct-Horse-9"},
    ),
    Case(
        "login",
        "post",
        lambda w: f"{API}/auth/login/",
        (200,) * 6,
        body=lambda w, role: {"username": "owner", "password": "pw-Correct-Horse-9"},
    ),
    Case("logout", "post", lambda w: f"{API}/auth/logout/", (401, 204, 204, 204, 204, 204)),
    Case("me", "get", lambda w: f"{API}/me/", (401, 200, 200, 200, 200, 200)),
    Case("session", "get", lambda w: f"{API}/auth/session/", (200,) * 6),
    Case(
        "password change (own account only)",
        "post",
        lambda w: f"{API}/me/password/",
        (401, 204, 204, 204, 204, 204),
        body=lambda w, role: {
            "current_password": "pw-Correct-Horse-9",
            "new_password": "another-Battery-Staple-7",
        },
    ),
    Case("account settings", "get", lambda w: f"{API}/me/settings/", (401,) + (200,) * 5),
    Case(
        "account settings change (own account only)",
        "patch",
        lambda w: f"{API}/me/settings/",
        (401,) + (200,) * 5,
        body=lambda w, role: {"time_zone": "Europe/Paris", "language": "zh-Hant"},
    ),
    Case("export my data", "get", lambda w: f"{API}/me/export/", (401,) + (200,) * 5),
    Case(
        "delete my account (own account only)",
        "post",
        lambda w: f"{API}/me/delete/",
        (401,) + (204,) * 5,
        body=lambda w, role: {"password": "pw-Correct-Horse-9"},
    ),
    Case(
        "verify email (a link nobody was sent)",
        "post",
        lambda w: f"{API}/auth/verify-email/",
        (400,) * 6,
        body=lambda w, role: {"token": "forged"},
    ),
    Case(
        "resend the confirmation link (same answer for everyone)",
        "post",
        lambda w: f"{API}/auth/verify-email/resend/",
        (200,) * 6,
        body=lambda w, role: {"email": "owner@example.com"},
    ),
    Case(
        "password reset request (same answer for everyone)",
        "post",
        lambda w: f"{API}/auth/password-reset/",
        (200,) * 6,
        body=lambda w, role: {"email": "owner@example.com"},
    ),
    Case(
        "password reset confirm (a link nobody was sent)",
        "post",
        lambda w: f"{API}/auth/password-reset/confirm/",
        (400,) * 6,
        body=lambda w, role: {
            "uid": "MQ",
            "token": "forged-token",
            "new_password": "another-Battery-Staple-7",
        },
    ),
    Case(
        "rtc-ice-servers",
        "get",
        lambda w: f"{API}/rtc/ice-servers/",
        (401, 200, 200, 200, 200, 200),
    ),
    Case(
        "loop-templates", "get", lambda w: f"{API}/loop-templates/", (401, 200, 200, 200, 200, 200)
    ),
    Case("stage-kinds", "get", lambda w: f"{API}/stage-kinds/", (401, 200, 200, 200, 200, 200)),
    Case("loops-list", "get", lambda w: f"{API}/loops/", (401, 200, 200, 200, 200, 200)),
    Case(
        "loops-start",
        "post",
        lambda w: f"{API}/loops/",
        (401, 201, 201, 403, 403, 403),
        body=lambda w, role: {"template": "ai-lab", "coached": False},
    ),
    Case(
        "loop-detail", "get", lambda w: f"{API}/loops/{w.loop.pk}/", (401, 404, 200, 404, 200, 200)
    ),
    Case("stage-detail", "get", stage_url("coding"), (401, 404, 200, 404, 200, 200)),
    Case(
        "stage-start",
        "post",
        stage_url("coding", "start/"),
        (401, 404, 200, 404, 200, 200),
        prepare=coding_pending,
    ),
    Case("stage-finish", "post", stage_url("coding", "finish/"), (401, 404, 200, 404, 200, 200)),
    Case(
        "stage-finish-preview",
        "get",
        stage_url("coding", "finish/"),
        (401, 404, 200, 404, 200, 200),
    ),
    Case(
        "answers",
        "post",
        stage_url("coding", "answers/"),
        (401, 404, 200, 404, 403, 403),
        body=lambda w, role: {"question": w.coding_q.pk, "text": "my plan"},
    ),
    Case(
        "review-comments-create",
        "post",
        stage_url("review", "review-comments/"),
        (401, 404, 201, 404, 403, 403),
        body=lambda w, role: {"lines": [3, 4], "category": "spof", "text": "one router"},
        prepare=review_live,
    ),
    Case(
        "review-comments-list",
        "get",
        stage_url("review", "review-comments/"),
        (401, 404, 200, 404, 200, 200),
    ),
    Case(
        "review-comment-edit",
        "patch",
        lambda w: f"{API}/stages/{w.review.pk}/review-comments/{review_comment_id(w)}/",
        (401, 404, 200, 404, 403, 403),
        body=lambda w, role: {"text": "two routers", "lines": [3, 5]},
        prepare=review_with_comment,
    ),
    Case(
        "review-comment-delete",
        "delete",
        lambda w: f"{API}/stages/{w.review.pk}/review-comments/{review_comment_id(w)}/",
        (401, 404, 204, 404, 403, 403),
        prepare=review_with_comment,
    ),
    Case(
        "review-score",
        "get",
        stage_url("review", "review-score/"),
        (401, 404, 200, 404, 200, 200),
        prepare=review_done,
        owner_may_see=[FLAW_KEY],
    ),
    Case("coach-queue", "get", lambda w: f"{API}/coach/queue/", (401, 403, 403, 200, 200, 200)),
    Case("claim", "post", stage_url("values", "claim/"), (401, 404, 403, 200, 200, 200)),
    Case("shadow", "post", stage_url("coding", "shadow/"), (401, 404, 409, 200, 409, 200)),
    Case("release", "post", stage_url("review", "release/"), (401, 404, 403, 404, 200, 200)),
    Case(
        "hand-over",
        "post",
        stage_url("review", "hand-over/"),
        (401, 404, 403, 404, 200, 200),
        body=lambda w, role: {"coach": "coach-free"},
    ),
    Case(
        "follow-ups",
        "post",
        stage_url("coding", "follow-ups/"),
        (401, 404, 403, 404, 201, 201),
        body=lambda w, role: {"follow_up": w.plain_follow_up.pk},
    ),
    Case(
        "notes-create",
        "post",
        stage_url("coding", "notes/"),
        (401, 404, 403, 404, 201, 201),
        body=lambda w, role: {"text": "good questions"},
    ),
    Case("notes-list", "get", stage_url("coding", "notes/"), (401, 404, 403, 404, 200, 200)),
    Case(
        "scorecard-put",
        "put",
        stage_url("coding", "scorecard/"),
        (401, 404, 403, 404, 200, 200),
        body=lambda w, role: {
            "scores": [{"dimension": "Problem solving", "level": 4, "comment": "sharp"}],
            "summary": "Strong.",
            "recommendation": "strong_yes",
            "private_notes": "SENTINEL-SCORECARD-PRIVATE",
        },
    ),
    Case(
        "scorecard-get",
        "get",
        stage_url("coding", "scorecard/"),
        (401, 404, 200, 404, 200, 200),
        prepare=coding_done_with_scorecard,
    ),
    Case(
        "submissions-create",
        "post",
        lambda w: f"{API}/submissions/",
        (401, 404, 202, 404, 403, 403),
        body=lambda w, role: {
            "stage": w.coding.pk,
            "question": w.coding_q.pk,
            "part": 1,
            "language": "python",
            "code": "print(3)\n",
            "mode": "run",
        },
    ),
    Case(
        "submission-detail",
        "get",
        lambda w: f"{API}/submissions/{w.submission.pk}/",
        (401, 404, 200, 404, 200, 200),
    ),
    Case("events", "get", stage_url("coding", "events/?after=0"), (401, 404, 200, 404, 200, 200)),
    Case(
        "events-filtered",
        "get",
        stage_url("coding", "events/?exclude=doc.update,presence"),
        (401, 404, 200, 404, 200, 200),
    ),
    Case(
        "stage-submissions",
        "get",
        stage_url("coding", "submissions/"),
        (401, 404, 200, 404, 200, 200),
    ),
    Case(
        "review-matches-put",
        "put",
        stage_url("review", "review-matches/"),
        (401, 404, 403, 404, 200, 200),
        body=lambda w, role: {"comment": review_comment_id(w), "flaw": None},
        prepare=review_with_comment,
    ),
    Case(
        "review-match-delete",
        "delete",
        lambda w: f"{API}/stages/{w.review.pk}/review-matches/{review_comment_id(w)}/",
        (401, 404, 403, 404, 204, 204),
        prepare=review_with_comment,
    ),
    Case(
        "deep-dive-feedback",
        "get",
        stage_url("review", "deep-dive-feedback/"),
        (401, 404, 200, 404, 200, 200),
        prepare=review_as_finished_deep_dive,
    ),
    # Before the stage ends the candidate gets 409 (and no secret); after, the model answers.
    Case(
        "model-answers-live",
        "get",
        stage_url("coding", "model-answers/"),
        (401, 404, 409, 404, 200, 200),
    ),
    Case(
        "model-answers-done",
        "get",
        stage_url("coding", "model-answers/"),
        (401, 404, 200, 404, 200, 200),
        prepare=lambda w: _set(w.coding, status="done"),
        owner_may_see=[REFERENCE, FOLLOW_UP_COACH_NOTES],
    ),
    Case(
        "self-assessment-get",
        "get",
        stage_url("coding", "self-assessment/"),
        (401, 404, 200, 404, 200, 200),
    ),
    Case(
        "self-assessment-put",
        "put",
        stage_url("coding", "self-assessment/"),
        (401, 404, 200, 404, 403, 403),
        body=lambda w, role: {"scores": [{"dimension": "Communication", "level": 3}]},
        prepare=lambda w: _set(w.coding, status="done"),
    ),
    Case(
        "loop-report",
        "get",
        lambda w: f"{API}/loops/{w.loop.pk}/report/",
        (401, 404, 200, 404, 200, 200),
        prepare=coding_done_with_scorecard,
    ),
    Case(
        "my-progress",
        "get",
        lambda w: f"{API}/me/progress/",
        (401, 200, 200, 200, 200, 200),
        prepare=coding_done_with_scorecard,
    ),
    Case(
        "coach-calibration",
        "get",
        lambda w: f"{API}/coach/calibration/",
        (401, 403, 403, 200, 200, 200),
        prepare=coding_done_with_scorecard,
    ),
    Case(
        "bank-import",
        "post",
        lambda w: f"{API}/bank/import/",
        (401, 403, 403, 403, 403, 200),
        body=lambda w, role: {
            "bank": {
                "loops": [
                    {
                        "slug": f"imported-{role}",
                        "title": "Imported",
                        "stages": [
                            {
                                "kind": "values",
                                "title": "V",
                                "minutes": 5,
                                "questions": ["why-this-lab"],
                            }
                        ],
                    }
                ]
            },
            "verify": False,
        },
    ),
    Case("bank-export", "get", lambda w: f"{API}/bank/export/", (401, 403, 403, 403, 403, 200)),
    Case("questions-list", "get", lambda w: f"{API}/questions/", (401, 200, 200, 200, 200, 200)),
    Case(
        "questions-create",
        "post",
        lambda w: f"{API}/questions/",
        (401, 403, 403, 403, 403, 201),
        body=lambda w, role: {
            "slug": f"new-{role}",
            "kind": "discussion",
            "title": "New",
            "prompt": "Why?",
        },
    ),
    Case("question-detail", "get", question_url("coding_q"), (401, 200, 200, 200, 200, 200)),
    Case(
        "question-put",
        "put",
        question_url("discussion_q"),
        (401, 403, 403, 403, 403, 200),
        body=lambda w, role: {
            "slug": w.discussion_q.slug,
            "kind": "discussion",
            "title": "Why this lab, really?",
            "prompt": "Why?",
        },
    ),
    Case(
        "question-patch",
        "patch",
        question_url("discussion_q"),
        (401, 403, 403, 403, 403, 200),
        body=lambda w, role: {"title": "Renamed"},
    ),
    Case("question-delete", "delete", question_url("discussion_q"), (401, 403, 403, 403, 403, 204)),
    Case(
        "question-publish",
        "post",
        question_url("discussion_q", "publish/"),
        (401, 403, 403, 403, 403, 200),
    ),
    Case(
        "stage-recordings-list",
        "get",
        stage_url("coding", "recordings/"),
        (401, 404, 200, 404, 200, 200),
        prepare=recording_running,
    ),
    Case(
        "stage-recording-propose",
        "post",
        stage_url("coding", "recordings/"),
        (401, 404, 201, 404, 201, 201),
        body=lambda w, role: {"kind": "call"},
        prepare=both_in_the_room,
    ),
    Case(
        "recording-detail",
        "get",
        recording_url(),
        (401, 404, 200, 404, 200, 200),
        prepare=recording_running,
    ),
    Case(
        "recording-delete",
        "delete",
        recording_url(),
        (401, 404, 204, 404, 403, 403),
        prepare=recording_running,
    ),
    # Only those in the room when it was proposed answer (the admin was not).
    Case(
        "recording-consent",
        "post",
        recording_url("consent/"),
        (401, 404, 200, 404, 200, 403),
        body=lambda w, role: {"agree": True},
        prepare=recording_proposed,
    ),
    Case(
        "recording-stop",
        "post",
        recording_url("stop/"),
        (401, 404, 200, 404, 200, 200),
        prepare=recording_running,
    ),
    # Only the candidate's browser records.
    Case(
        "recording-chunk",
        "post",
        recording_url("chunks/?seq=0"),
        (401, 404, 201, 404, 403, 403),
        body=lambda w, role: {"not": "audio, but bytes all the same"},
        prepare=recording_running,
    ),
    Case(
        "recording-audio",
        "get",
        recording_url("audio/"),
        (401, 404, 200, 404, 200, 200),
        prepare=recording_running,
    ),
    # Verifying is for coding questions: 409 for admins without running the sandbox.
    Case(
        "question-verify",
        "post",
        question_url("discussion_q", "verify/"),
        (401, 403, 403, 403, 403, 409),
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_authorisation_matrix(case: Case, role: str, world: World, as_user, monkeypatch):
    monkeypatch.setattr("interviews.services.submissions.queue_judging", lambda pk, **_: None)
    if case.prepare:
        case.prepare(world)
    client = as_user(world.user(role))
    kwargs = {"format": "json"}
    if case.body:
        kwargs["data"] = case.body(world, role)
    response = getattr(client, case.method)(case.url(world), **kwargs)

    expected = case.expected[ROLES.index(role)]
    # Recordings' audio is streamed.
    content = b"".join(response.streaming_content) if response.streaming else response.content
    assert response.status_code == expected, (case.name, role, content[:400])
    if response.status_code >= 400:
        assert "detail" in response.json()

    if role in ("owner", "other"):
        text = content.decode(errors="replace")
        for secret in CANDIDATE_SECRETS:
            if secret in case.owner_may_see:
                continue
            assert secret not in text, (case.name, role, secret)


@pytest.mark.django_db
def test_every_route_and_method_is_in_the_matrix(world: World):
    """A new practice endpoint (or method) must be added to the matrix."""
    from django.urls import resolve

    from interviews.api import (
        accounts,
        bank_io,
        coach,
        loops,
        questions,
        recordings,
        reports,
        rtc,
        stage_kinds,
        stages,
        submissions,
    )

    offered = set()
    modules = (
        accounts,
        bank_io,
        coach,
        loops,
        questions,
        recordings,
        reports,
        rtc,
        stage_kinds,
        stages,
        submissions,
    )
    for module in modules:
        for pattern in module.urlpatterns:
            view = pattern.callback.view_class
            for method in ("get", "post", "put", "patch", "delete"):
                if hasattr(view, method):
                    offered.add((view.__name__, method))
    covered = {
        (resolve(case.url(world).split("?")[0]).func.view_class.__name__, case.method)
        for case in CASES
    }
    assert covered == offered


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES[1:])
def test_the_bank_listing_carries_no_secret_for_anyone(role: str, world: World, as_user):
    """Admins included: their listing is a summary; the secrets are in the detail only."""
    response = as_user(world.user(role)).get(f"{API}/questions/")
    assert response.status_code == 200
    assert {q["slug"] for q in response.json()} == {"scheduler", "doc-review", "why-this-lab"}
    text = response.content.decode()
    for secret in CANDIDATE_SECRETS:
        assert secret not in text, (role, secret)
    if role == "admin":
        detail = as_user(world.admin).get(f"{API}/questions/{world.coding_q.pk}/")
        assert HIDDEN_OUTPUT in detail.content.decode()


@pytest.mark.django_db
def test_coach_view_does_carry_the_coach_data(world: World, as_user):
    """The sentinel checks above have teeth: the same stage shows the secrets to its coach."""
    text = as_user(world.assigned).get(f"{API}/stages/{world.coding.pk}/").content.decode()
    assert "SENTINEL-FOLLOWUP-COACHNOTES" in text
    assert "SENTINEL-LOCKED-PART" in text
    text = as_user(world.assigned).get(f"{API}/stages/{world.coding.pk}/events/").content.decode()
    assert "SENTINEL-PRIVATE-NOTE" in text


@pytest.mark.django_db
def test_lists_show_only_what_each_role_may_see(world: World, as_user):
    def loop_ids(user):
        return {loop["id"] for loop in as_user(user).get(f"{API}/loops/").json()}

    assert loop_ids(world.owner) == {world.loop.pk}
    assert loop_ids(world.other) == {world.other_loop.pk}
    assert loop_ids(world.coach) == set()
    assert loop_ids(world.assigned) == {world.loop.pk}
    assert loop_ids(world.admin) == {world.loop.pk, world.other_loop.pk}

    # Inside the loop, a coach sees only the stages assigned to them.
    loop = as_user(world.assigned).get(f"{API}/loops/{world.loop.pk}/").json()
    assert [s["id"] for s in loop["stages"]] == [world.coding.pk, world.review.pk]
    loop = as_user(world.owner).get(f"{API}/loops/{world.loop.pk}/").json()
    assert len(loop["stages"]) == 4

    queue = as_user(world.coach).get(f"{API}/coach/queue/").json()
    assert [entry["id"] for entry in queue] == [world.values.pk]
    assert queue[0]["candidate"] == "owner"


@pytest.mark.django_db
def test_claimed_stage_is_hidden_from_other_coaches_and_claim_conflicts(world: World, as_user):
    coding = f"{API}/stages/{world.coding.pk}"
    assert as_user(world.coach).get(f"{coding}/").status_code == 404
    assert as_user(world.coach).get(f"{coding}/events/").status_code == 404
    assert as_user(world.coach).get(f"{API}/submissions/{world.submission.pk}/").status_code == 404
    response = as_user(world.coach).post(f"{coding}/claim/")
    assert response.status_code == 409
    assert "already claimed" in response.json()["detail"]
    # The assigned coach claiming again is harmless.
    assert as_user(world.assigned).post(f"{coding}/claim/").status_code == 200
    # A stage nobody asked a coach for is not claimable (and not visible) to coaches.
    assert as_user(world.coach).post(f"{API}/stages/{world.challenge.pk}/claim/").status_code == 404


@pytest.mark.django_db
def test_events_hide_private_events_from_the_candidate(world: World, as_user):
    url = f"{API}/stages/{world.coding.pk}/events/"
    owner_types = [e["type"] for e in as_user(world.owner).get(url).json()]
    coach_types = [e["type"] for e in as_user(world.assigned).get(url).json()]
    assert "note" not in owner_types
    assert coach_types == ["stage.claimed", "stage.status", "note"]
    after = as_user(world.assigned).get(url, {"after": 2}).json()
    assert [e["seq"] for e in after] == [3]
    assert as_user(world.owner).get(url, {"after": "x"}).status_code == 400
    limited = as_user(world.assigned).get(url, {"after": 0, "limit": 1}).json()
    assert [e["seq"] for e in limited] == [1]


@pytest.mark.django_db
def test_review_score_waits_for_the_candidate_until_the_stage_is_done(world: World, as_user):
    review_live(world)
    url = f"{API}/stages/{world.review.pk}/review-score/"
    response = as_user(world.owner).get(url)
    assert response.status_code == 409
    assert FLAW_KEY not in response.content.decode()
    assert as_user(world.assigned).get(url).status_code == 200


@pytest.mark.django_db
def test_pending_stage_shows_no_questions_to_the_candidate(world: World, as_user):
    data = as_user(world.owner).get(f"{API}/stages/{world.review.pk}/").json()
    assert data["status"] == "pending"
    assert data["questions"] == []
    data = as_user(world.assigned).get(f"{API}/stages/{world.review.pk}/").json()
    assert [q["slug"] for q in data["questions"]] == ["doc-review"]
