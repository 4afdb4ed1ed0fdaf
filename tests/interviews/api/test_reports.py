"""The loop report (JSON and printable HTML), progress across loops and coach calibration:
aggregation (weights, missing scores, stages without scorecards), who sees what (never
private notes or other candidates' data for a candidate), and bounded query counts."""

import pytest
from django.utils import timezone

from interviews import models as m
from interviews.services.answers import answer_save
from interviews.services.loops import loop_start
from interviews.services.reviews import review_comment_create
from tests import factories as f
from tests.interviews.deep_dive_samples import STRONG_ANSWER
from tests.interviews.world import FLAW_KEY, SCORECARD_PRIVATE, stages_repinned

API = "/api/v1"


def finish(stage: m.Stage, **extra) -> None:
    m.Stage.objects.filter(pk=stage.pk).update(
        status="done", finished_at=extra.pop("finished_at", timezone.now()), **extra
    )
    stage.refresh_from_db()


def card(stage, coach, scores, recommendation="yes", summary="Summary.", private=""):
    return m.Scorecard.objects.create(
        stage=stage,
        coach=coach,
        scores=[{"dimension": d, "level": level, "comment": f"on {d}"} for d, level in scores],
        summary=summary,
        recommendation=recommendation,
        private_notes=private,
    )


@pytest.fixture
def scored(world):
    """Coding (rubric: Problem solving ×3, Communication ×1) and review (no rubric) are
    done and scored; values and the challenge have no scorecard."""
    m.Dimension.objects.filter(rubric=world.rubric, name="Problem solving").update(weight=3)
    stages_repinned(world)
    m.Stage.objects.filter(pk=world.review.pk).update(status="live")
    world.review.refresh_from_db()
    review_comment_create(
        stage=world.review,
        author=world.owner,
        line_start=4,
        line_end=4,
        category="spof",
        text="one router",
    )
    finish(world.coding)
    finish(world.review)
    card(
        world.coding,
        world.assigned,
        [("Problem solving", 4), ("Communication", 1)],
        recommendation="strong_yes",
        summary="Sharp on the heap.",
        private=SCORECARD_PRIVATE,
    )
    card(
        world.review, world.assigned, [("Depth", 3)], recommendation="no", private=SCORECARD_PRIVATE
    )
    return world


def report_of(client, loop):
    response = client.get(f"{API}/loops/{loop.pk}/report/")
    assert response.status_code == 200, response.content[:300]
    return response.json()


def test_report_aggregates_weights_and_stages_without_scorecards(scored, as_user):
    report = report_of(as_user(scored.owner), scored.loop)
    coding, review, values, challenge = report["stages"]
    score = coding["scorecard"]["score"]
    assert score["overall"] == 0.75  # (3×1 + 1×0) / 4
    assert [(d["dimension"], d["weight"], d["level"]) for d in score["dimensions"]] == [
        ("Problem solving", 3.0, 4),
        ("Communication", 1.0, 1),
    ]
    assert coding["scorecard"]["summary"] == "Sharp on the heap."
    assert coding["rubric"] == "coding-default"
    assert review["rubric"] is None and review["scorecard"]["score"]["overall"] == round(2 / 3, 4)
    assert review["review"]["recall"] == 0.5 and review["review"]["missed"]
    assert (values["scorecard_status"], values["scorecard"]) == ("not_scored", None)
    assert challenge["scorecard_status"] == "not_scored"

    overall = report["overall"]
    assert overall["overall"] == round((0.75 + round(2 / 3, 4)) / 2, 4)
    assert (overall["stages_scored"], overall["stages_unscored"]) == (2, 2)
    assert report["recommendation"]["recommendation"] == "yes"  # (4 + 2) / 2 = 3
    assert report["candidate"] == "owner" and report["template"] == "ai-lab"


def test_missing_dimension_is_reported_and_left_out(scored, as_user):
    m.Scorecard.objects.filter(stage=scored.coding).update(
        scores=[{"dimension": "Communication", "level": 3, "comment": ""}]
    )
    report = report_of(as_user(scored.admin), scored.loop)
    score = report["stages"][0]["scorecard"]["score"]
    assert score["missing"] == ["Problem solving"] and score["complete"] is False
    assert score["overall"] == round(2 / 3, 4)


def test_candidate_never_sees_private_notes_or_unfinished_scorecards(scored, as_user):
    m.Stage.objects.filter(pk=scored.coding.pk).update(status="live")
    response = as_user(scored.owner).get(f"{API}/loops/{scored.loop.pk}/report/")
    body = response.content.decode()
    assert SCORECARD_PRIVATE not in body and "private_notes" not in body
    coding = response.json()["stages"][0]
    assert (coding["scorecard_status"], coding["scorecard"]) == ("waiting_for_stage_end", None)
    # The unfinished stage does not count towards the candidate's overall either.
    assert response.json()["overall"]["stages_scored"] == 1
    assert FLAW_KEY in body  # the finished review's missed flaws are theirs to read


def test_review_score_waits_for_the_end_of_the_review(scored, as_user):
    m.Stage.objects.filter(pk=scored.review.pk).update(status="live")
    body = as_user(scored.owner).get(f"{API}/loops/{scored.loop.pk}/report/").content.decode()
    assert FLAW_KEY not in body


def test_coaches_see_their_stages_with_private_notes(scored, as_user):
    report = report_of(as_user(scored.assigned), scored.loop)
    assert [s["id"] for s in report["stages"]] == [scored.coding.pk, scored.review.pk]
    assert report["stages"][0]["scorecard"]["private_notes"] == SCORECARD_PRIVATE
    admin = report_of(as_user(scored.admin), scored.loop)
    assert len(admin["stages"]) == 4
    assert admin["stages"][1]["scorecard"]["private_notes"] == SCORECARD_PRIVATE
    for outsider in (scored.coach, scored.other):
        response = as_user(outsider).get(f"{API}/loops/{scored.loop.pk}/report/")
        assert response.status_code == 404
    assert as_user(None).get(f"{API}/loops/{scored.loop.pk}/report/").status_code == 401


def test_report_includes_deep_dive_feedback(scored, as_user):
    m.Stage.objects.filter(pk=scored.values.pk).update(kind="deep_dive", status="live")
    scored.values.refresh_from_db()
    answer_save(stage=scored.values, actor=scored.owner, text=STRONG_ANSWER)
    report = report_of(as_user(scored.owner), scored.loop)
    assert report["stages"][2]["deep_dive"] is None  # not before the stage ends
    finish(scored.values)
    report = report_of(as_user(scored.owner), scored.loop)
    (answer,) = report["stages"][2]["deep_dive"]["answers"]
    assert answer["covered"] == 7 and answer["roi"]["status"] == "adds_up"


def test_report_query_count_does_not_grow_with_stages(
    scored, as_user, django_assert_max_num_queries
):
    def extra_loop():
        loop = loop_start(candidate=scored.owner, template=scored.template, coached=False)
        for stage in loop.stages.all():
            finish(stage)
            card(stage, scored.assigned, [("Problem solving", 2), ("Communication", 3)])
        return loop

    small = extra_loop()
    f.StageTemplateFactory(
        loop_template=scored.template, position=5, kind="review", question_slugs=["doc-review"]
    )
    f.StageTemplateFactory(
        loop_template=scored.template, position=6, kind="deep_dive", question_slugs=["why-this-lab"]
    )
    big = extra_loop()
    assert big.stages.count() == 6
    client = as_user(scored.owner)
    report_of(client, small)  # warm-up: one-off work of a process's first request
    # 12 for the report itself, 5 for the automatic scorecards (stage questions, hidden-test
    # counts, pushed follow-ups, submissions, review comments), whatever the stage count.
    for loop in (scored.loop, small, big):
        with django_assert_max_num_queries(17):
            report_of(client, loop)


# --- printable HTML ----------------------------------------------------------------------


def html_client(client, user):
    if user is not None:
        client.force_login(user)
    return client


def test_printable_report_renders_for_the_owner(scored, client):
    response = html_client(client, scored.owner).get(f"/loops/{scored.loop.pk}/report.html")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    body = response.content.decode()
    assert "<h1>AI-lab loop</h1>" in body
    assert "@media print" in body and "@page" in body
    assert "Sharp on the heap." in body
    assert "Problem solving" in body and "75%" in body
    assert "Missed flaws" in body
    assert SCORECARD_PRIVATE not in body and "Private notes" not in body


def test_printable_report_shows_private_notes_to_admins(scored, client):
    body = html_client(client, scored.admin).get(f"/loops/{scored.loop.pk}/report.html")
    assert SCORECARD_PRIVATE in body.content.decode()


def test_printable_report_authorisation(scored, client):
    url = f"/loops/{scored.loop.pk}/report.html"
    anonymous = client.get(url)
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith("/login?next=")
    # Session only: an API token is not a browser session.
    from tests.factories import api_token_for

    token = api_token_for(scored.owner)
    assert client.get(url, HTTP_AUTHORIZATION=f"Token {token}").status_code == 302
    for outsider in (scored.other, scored.coach):
        client.force_login(outsider)
        response = client.get(url)
        assert response.status_code == 404
        assert "Sharp on the heap." not in response.content.decode()
    client.force_login(scored.assigned)
    assert client.get(url).status_code == 200
    assert client.get("/loops/999999/report.html").status_code == 404


@pytest.mark.parametrize(
    ("query", "header", "lang", "labels"),
    [
        ({"lang": "zh-Hans"}, "en", "zh-Hans", ["遗漏的缺陷", "总体", "环节", "评分卡 — "]),
        ({}, "zh-TW", "zh-Hant", ["遺漏的缺陷", "總體", "環節", "評分卡 — "]),
    ],
)
def test_printable_report_speaks_the_requests_language(scored, client, query, header, lang, labels):
    """Its own words in the request's language; what people wrote stays as written."""
    client = html_client(client, scored.owner)
    response = client.get(
        f"/loops/{scored.loop.pk}/report.html", query, HTTP_ACCEPT_LANGUAGE=header
    )
    body = response.content.decode()
    assert response["Content-Language"] == lang
    assert f'<html lang="{lang.lower()}">' in body
    for label in labels:
        assert label in body
    assert "Missed flaws" not in body and "Sharp on the heap." in body


def test_the_report_names_every_stage_kind_in_each_language():
    """The report reads the registry's labels, which are translated at the registry."""
    from django.utils import translation

    from interviews.stage_kinds import stage_kind_list
    from interviews.templatetags.report_labels import stage_kind

    for spec in stage_kind_list():
        english = stage_kind(spec.kind)
        assert english == str(spec.label) != spec.kind
        for language in ("zh-hans", "zh-hant"):
            with translation.override(language):
                assert stage_kind(spec.kind) != english, (spec.kind, language)


def test_printable_report_of_an_empty_loop(world, client):
    body = html_client(client, world.other).get(f"/loops/{world.other_loop.pk}/report.html")
    assert body.status_code == 200
    assert "No stage has been scored yet." in body.content.decode()


# --- progress ------------------------------------------------------------------------------


def test_progress_over_loops(scored, as_user):
    later = loop_start(candidate=scored.owner, template=scored.template, coached=False)
    coding = later.stages.get(position=1)
    finish(coding, finished_at=timezone.now() + timezone.timedelta(days=1))
    card(coding, scored.assigned, [("Problem solving", 2), ("Communication", 4)], "no")
    later.stages.filter(position=3).update(status="live")  # unfinished: not a point

    progress = as_user(scored.owner).get(f"{API}/me/progress/").json()
    assert [(p["loop"], p["kind"], p["percent"]) for p in progress["stages"]] == [
        (scored.loop.pk, "coding", 75.0),
        (scored.loop.pk, "review", 66.7),
        (later.pk, "coding", 50.0),  # (3×1/3 + 1×1) / 4
    ]
    by_kind = {series["kind"]: series["points"] for series in progress["by_kind"]}
    assert [p["percent"] for p in by_kind["coding"]] == [75.0, 50.0]
    by_dimension = {series["dimension"]: series["points"] for series in progress["by_dimension"]}
    assert [p["level"] for p in by_dimension["Problem solving"]] == [4, 2]
    assert [p["level"] for p in by_dimension["Depth"]] == [3]
    assert [(p["stage"], p["recall"]) for p in progress["review"]] == [(scored.review.pk, 0.5)]

    other = as_user(scored.other).get(f"{API}/me/progress/").json()
    assert other["stages"] == [] and other["by_dimension"] == []
    assert as_user(None).get(f"{API}/me/progress/").status_code == 401


def test_progress_counts_automatic_scorecards_where_no_coach_scored(world, as_user):
    """A solo candidate's finished stages have no coach card: their points come from the
    automatic scorecards, labelled as such; a coach's card wins where there is one."""
    submission = m.Submission.objects.create(
        stage=world.coding,
        question=world.coding_q,
        part=1,
        author=world.owner,
        language="python",
        code="print(3)\n",
        mode="submit",
        status="done",
        verdict="accepted",
        passed=1,
        total=1,
    )
    assert submission.pk
    finish(world.coding, started_at=timezone.now() - timezone.timedelta(minutes=20))
    progress = as_user(world.owner).get(f"{API}/me/progress/").json()
    [point] = progress["stages"]
    assert (point["stage"], point["source"], point["recommendation"]) == (
        world.coding.pk,
        "auto",
        None,
    )
    assert point["percent"] is not None
    by_dimension = {series["dimension"]: series["points"] for series in progress["by_dimension"]}
    assert [p["source"] for p in by_dimension["Problem solving"]] == ["auto"]
    assert "Communication" not in by_dimension  # not measured automatically

    card(world.coding, world.assigned, [("Problem solving", 2), ("Communication", 4)], "no")
    progress = as_user(world.owner).get(f"{API}/me/progress/").json()
    assert [(p["source"], p["recommendation"]) for p in progress["stages"]] == [("coach", "no")]


def test_progress_query_count_is_constant(scored, as_user, django_assert_max_num_queries):
    for _ in range(4):
        loop = loop_start(candidate=scored.owner, template=scored.template, coached=False)
        for stage in loop.stages.all():
            finish(stage)
            card(stage, scored.assigned, [("Problem solving", 3)])
    client = as_user(scored.owner)
    client.get(f"{API}/me/progress/")  # warm-up: one-off work of a process's first request
    with django_assert_max_num_queries(12):
        progress = client.get(f"{API}/me/progress/").json()
    assert len(progress["stages"]) == 2 + 4 * 4


# --- calibration ---------------------------------------------------------------------------


@pytest.fixture
def calibrated(scored):
    """A second coach scored the other candidate's coding stage lower."""
    strict = f.CoachFactory(username="coach-strict")
    coding = scored.other_loop.stages.get(position=1)
    finish(coding, coach=strict)
    card(coding, strict, [("Problem solving", 2), ("Communication", 1)], "strong_no")
    scored.strict = strict
    return scored


def test_calibration_compares_a_coach_with_all_and_the_others(calibrated, as_user):
    data = as_user(calibrated.assigned).get(f"{API}/coach/calibration/").json()
    assert data["coach"]["username"] == "coach-assigned"
    assert data["scorecards"] == {"coach": 2, "all": 3}
    assert data["scorers"] == 2
    dims = {d["dimension"]: d for d in data["dimensions"]}
    assert dims["Problem solving"] == {
        "dimension": "Problem solving",
        "coach_mean": 4.0,
        "coach_n": 1,
        "all_mean": 3.0,
        "all_n": 2,
        "others_mean": 2.0,
        "others_n": 1,
        "delta": 2.0,
    }
    assert dims["Depth"]["others_mean"] is None and dims["Depth"]["delta"] is None
    assert data["recommendations"]["coach"] == {
        "strong_no": 0,
        "no": 1,
        "yes": 0,
        "strong_yes": 1,
    }
    assert data["recommendations"]["all"]["strong_no"] == 1
    assert data["overall"]["coach_mean"] == round((4 + 1 + 3) / 3, 3)
    assert SCORECARD_PRIVATE not in str(data)


def test_calibration_authorisation(calibrated, as_user):
    url = f"{API}/coach/calibration/"
    strict = calibrated.strict.pk
    assert as_user(calibrated.owner).get(url).status_code == 403
    assert as_user(None).get(url).status_code == 401
    assert as_user(calibrated.assigned).get(url, {"coach": strict}).status_code == 403
    mine = as_user(calibrated.strict).get(url, {"coach": strict})
    assert mine.status_code == 200 and mine.json()["scorecards"]["coach"] == 1
    as_admin = as_user(calibrated.admin).get(url, {"coach": strict}).json()
    assert as_admin["coach"]["username"] == "coach-strict"
    assert as_admin["dimensions"][-1]["coach_mean"] == 2.0  # Problem solving
    assert as_user(calibrated.admin).get(url).json()["scorecards"]["coach"] == 0
    assert as_user(calibrated.admin).get(url, {"coach": calibrated.owner.pk}).status_code == 404
    assert as_user(calibrated.admin).get(url, {"coach": 10**9}).status_code == 404
    assert as_user(calibrated.admin).get(url, {"coach": "x"}).status_code == 400


def test_calibration_query_count_is_constant(calibrated, as_user, django_assert_max_num_queries):
    for _ in range(5):
        loop = loop_start(candidate=calibrated.owner, template=calibrated.template, coached=True)
        card(loop.stages.get(position=1), calibrated.assigned, [("Communication", 2)])
    client = as_user(calibrated.assigned)
    client.get(f"{API}/coach/calibration/")  # warm-up: one-off work of a process's first request
    with django_assert_max_num_queries(3):
        data = client.get(f"{API}/coach/calibration/").json()
    assert data["scorecards"]["coach"] == 7
