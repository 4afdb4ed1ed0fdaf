"""Reports: a loop's scorecards, review and deep-dive feedback gathered into one report; a
candidate's progress across loops; a coach's calibration against all coaches.

Read-only. What a viewer may see is decided by the predicates of `interviews.selectors.access`
(the same ones the stage endpoints use), and every report is built from a fixed number
of queries whatever the number of loops, stages, scorecards or comments. The arithmetic
is `interviews.feedback.scoring`'s.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext as _

from interviews.bankfile.translations import Translation, child_translation, translation_of
from interviews.feedback.deep_dive import deep_dive_feedback_for_stages
from interviews.feedback.scoring import (
    RECOMMENDATIONS,
    loop_overall,
    loop_recommendation,
    stage_score,
)
from interviews.i18n import DEFAULT_LANGUAGE
from interviews.models import Loop, Scorecard, Stage
from interviews.selectors.access import (
    can_act_as_coach,
    can_see_private,
    can_see_review_score,
    is_admin,
    is_coach_or_admin,
)
from interviews.selectors.rubrics import ScoringRubric, rubrics_for_stages_and_cards
from interviews.selectors.scorecards import auto_scorecards_for_stages
from interviews.services.errors import NotAllowed, NotFound
from interviews.services.reviews import review_scores_for_stages
from interviews.stage_kinds import stage_kind_get

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser


def _scorecards(stage_ids: Sequence[int]) -> dict[int, Scorecard]:
    """The submitted scorecards of the stages (a coach's draft counts nowhere yet)."""
    return {
        card.stage_id: card
        for card in Scorecard.objects.filter(stage_id__in=stage_ids, draft=False).select_related(
            "coach"
        )
    }


def _username(user: Any) -> str | None:
    return user.get_username() if user is not None else None


def _deep_dive_stage_ids(stages: Sequence[Stage]) -> list[int]:
    """The stages whose kind's spec asks for deep-dive feedback."""
    return [
        stage.pk
        for stage in stages
        if (spec := stage_kind_get(stage.kind)) is not None and spec.deep_dive_feedback
    ]


# --- the loop report -----------------------------------------------------------------------


def _stage_report(
    stage: Stage,
    *,
    viewer: AbstractBaseUser,
    rubric: ScoringRubric | None,
    scorecard: Scorecard | None,
    review: dict | None,
    deep_dive: dict | None,
    auto: dict | None = None,
    translation: Translation | None = None,
) -> dict[str, Any]:
    coach_view = can_act_as_coach(viewer, stage)
    translation = translation or Translation(None, DEFAULT_LANGUAGE)
    report: dict[str, Any] = {
        "id": stage.pk,
        "position": stage.position,
        "kind": stage.kind,
        "title": translation.text("title", stage.title),
        "status": stage.status,
        "finished_at": stage.finished_at,
        "coach": _username(stage.coach),
        "rubric": rubric.slug if rubric else None,
        "scorecard_status": "not_scored",
        "scorecard": None,
        "review": None,
        "deep_dive": None,
        "auto_scorecard": None,
        "counted": None,
    }
    # The candidate reads a scorecard once the stage is finished, as on the stage endpoint.
    if scorecard is not None:
        if coach_view or stage.status == Stage.Status.DONE:
            dimensions = list(rubric.dimensions.all()) if rubric else None
            card: dict[str, Any] = {
                "coach": _username(scorecard.coach),
                "recommendation": scorecard.recommendation,
                "summary": scorecard.summary,
                "updated_at": scorecard.updated_at,
                "score": stage_score(scores=scorecard.scores, dimensions=dimensions),
            }
            if can_see_private(viewer, stage):
                card["private_notes"] = scorecard.private_notes
            report["scorecard"] = card
            report["scorecard_status"] = "scored"
        else:
            report["scorecard_status"] = "waiting_for_stage_end"
    if review is not None and can_see_review_score(viewer, stage):
        report["review"] = review
    if deep_dive is not None and (coach_view or stage.status == Stage.Status.DONE):
        report["deep_dive"] = deep_dive
    # The automatic card exists only for a finished stage; the coach's, when shown, wins.
    if auto is not None and stage.status == Stage.Status.DONE:
        report["auto_scorecard"] = auto
    if report["scorecard"] is not None:
        report["counted"] = "coach"
    elif report["auto_scorecard"] is not None:
        report["counted"] = "auto"
    return translation.stamp(report)


def _counted_overall(report: dict[str, Any]) -> float | None:
    if report["counted"] == "coach":
        return report["scorecard"]["score"]["overall"]
    if report["counted"] == "auto":
        return report["auto_scorecard"]["score"]["overall"]
    return None


def loop_report(*, loop: Loop, viewer: AbstractBaseUser) -> dict[str, Any]:
    """The loop as one report for `viewer`: the stages they may see (`loop.visible_stages`,
    as `selectors.loops_visible_to` prefetches them — a coach sees only their own), each
    with its scorecard and weighted score, review score and deep-dive feedback where the
    viewer may see them; private notes only for the stage's coach and admins; the loop's
    overall (each stage counted by the coach's scorecard, else by its automatic one) and
    recommendation over the coaches' scorecards shown."""
    stages: list[Stage] = list(loop.visible_stages)
    stage_ids = [stage.pk for stage in stages]
    scorecards = _scorecards(stage_ids)
    rubrics, card_rubrics = rubrics_for_stages_and_cards(stages, scorecards.values())
    reviews = review_scores_for_stages(stage_ids)
    deep_dives = deep_dive_feedback_for_stages(_deep_dive_stage_ids(stages))
    autos = auto_scorecards_for_stages(stages, rubrics, reviews=reviews, deep_dives=deep_dives)
    # Titles in the language bank text is served in (the loop template's translation).
    owner = translation_of(loop.template.i18n)
    stage_reports = [
        _stage_report(
            stage,
            viewer=viewer,
            rubric=card_rubrics.get(stage.pk),
            scorecard=scorecards.get(stage.pk),
            review=reviews.get(stage.pk),
            deep_dive=deep_dives.get(stage.pk),
            auto=autos.get(stage.pk),
            translation=child_translation(owner, "stages", stage.position),
        )
        for stage in stages
    ]
    shown = [report["scorecard"] for report in stage_reports]
    report = {
        "id": loop.pk,
        "title": owner.text("title", loop.title),
        "template": loop.template.slug,
        "candidate": _username(loop.candidate),
        "coached": loop.coached,
        "created_at": loop.created_at,
        "generated_at": timezone.now(),
        "stages": stage_reports,
        "overall": loop_overall([_counted_overall(report) for report in stage_reports]),
        "recommendation": loop_recommendation([card["recommendation"] for card in shown if card]),
    }
    return owner.stamp(report)


# --- a candidate's progress ------------------------------------------------------------------


def candidate_progress(*, user: AbstractBaseUser) -> dict[str, Any]:
    """The user's finished stages across all their loops, oldest first, as series for a
    chart: the weighted overall per stage kind, the level per dimension, review recall and
    precision, deep-dive coverage. A point's time is when the stage finished. A stage is
    scored by its coach's scorecard where there is one, else by its automatic one; each
    point says which (`source`: "coach" | "auto")."""
    stages = list(
        Stage.objects.filter(loop__candidate=user, status=Stage.Status.DONE)
        .select_related("loop")
        .order_by("finished_at", "id")
    )
    stage_ids = [stage.pk for stage in stages]
    scorecards = _scorecards(stage_ids)
    rubrics, card_rubrics = rubrics_for_stages_and_cards(stages, scorecards.values())
    reviews = review_scores_for_stages(stage_ids)
    deep_dives = deep_dive_feedback_for_stages(_deep_dive_stage_ids(stages))
    # A coach's scorecard wins, so the automatic one is built only where there is none.
    autos = auto_scorecards_for_stages(
        [stage for stage in stages if stage.pk not in scorecards],
        rubrics,
        reviews=reviews,
        deep_dives=deep_dives,
    )

    points: list[dict[str, Any]] = []
    by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
    by_dimension: dict[str, list[dict[str, Any]]] = defaultdict(list)
    review_points: list[dict[str, Any]] = []
    deep_dive_points: list[dict[str, Any]] = []
    for stage in stages:
        base = {
            "at": stage.finished_at,
            "loop": stage.loop_id,
            "loop_title": stage.loop.title,
            "stage": stage.pk,
            "kind": stage.kind,
            "title": stage.title,
        }
        card = scorecards.get(stage.pk)
        auto = autos.get(stage.pk)
        if card is not None:
            rubric = card_rubrics.get(stage.pk)
            score = stage_score(
                scores=card.scores, dimensions=list(rubric.dimensions.all()) if rubric else None
            )
            source, recommendation = "coach", card.recommendation
        elif auto is not None:
            score, source, recommendation = auto["score"], "auto", None
        else:
            continue
        point = {
            **base,
            "percent": score["percent"],
            "level": score["level"],
            "recommendation": recommendation,
            "source": source,
        }
        points.append(point)
        if score["percent"] is not None:
            by_kind[stage.kind].append(point)
        for row in score["dimensions"]:
            if row["level"] is not None:
                by_dimension[row["dimension"]].append(
                    {**base, "level": row["level"], "weight": row["weight"], "source": source}
                )
        review = reviews.get(stage.pk)
        if review is not None:
            review_points.append(
                {**base, "recall": review["recall"], "precision": review["precision"]}
            )
        feedback = deep_dives.get(stage.pk)
        if feedback is not None and feedback["answers"]:
            answer = max(feedback["answers"], key=lambda a: a["covered"])
            deep_dive_points.append(
                {
                    **base,
                    "covered": answer["covered"],
                    "total": answer["total"],
                    "quantifies": answer["quantification"]["quantifies"],
                    "roi": answer["roi"]["status"],
                }
            )
    return {
        "stages": points,
        "by_kind": [{"kind": kind, "points": series} for kind, series in by_kind.items()],
        "by_dimension": [
            {"dimension": name, "points": series} for name, series in sorted(by_dimension.items())
        ],
        "review": review_points,
        "deep_dive": deep_dive_points,
    }


# --- coach calibration -----------------------------------------------------------------------


def _mean(total: float, count: int) -> float | None:
    return round(total / count, 3) if count else None


def coach_calibration(*, coach: AbstractBaseUser) -> dict[str, Any]:
    """How `coach` scores against every scorer (all coaches and admins who filled a
    scorecard): per dimension (matched by name across rubrics) the mean level 1–4 of the
    coach, of everyone (the coach included) and of the others, and the difference
    coach − others; the same for the mean normalised scorecard level; and how often each
    recommendation is given. One query over all scorecards."""
    per_dimension: dict[str, dict[str, list[float]]] = defaultdict(
        lambda: {"coach": [0.0, 0], "all": [0.0, 0]}
    )
    recommendations = {
        "coach": dict.fromkeys(RECOMMENDATIONS, 0),
        "all": dict.fromkeys(RECOMMENDATIONS, 0),
    }
    cards = {"coach": 0, "all": 0}
    levels = {"coach": [0.0, 0], "all": [0.0, 0]}
    scorers: set[int] = set()
    rows = Scorecard.objects.filter(draft=False).values_list("coach_id", "scores", "recommendation")
    for coach_id, scores, recommendation in rows.iterator():
        groups = ("coach", "all") if coach_id == coach.pk else ("all",)
        if coach_id is not None:
            scorers.add(coach_id)
        for group in groups:
            cards[group] += 1
            if recommendation in recommendations[group]:
                recommendations[group][recommendation] += 1
            for score in scores or []:
                level = score.get("level")
                if not isinstance(level, int):
                    continue
                sums = per_dimension[str(score.get("dimension", ""))][group]
                sums[0] += level
                sums[1] += 1
                levels[group][0] += level
                levels[group][1] += 1

    def compare(coach_sums: list[float], all_sums: list[float]) -> dict[str, Any]:
        others_total, others_n = all_sums[0] - coach_sums[0], all_sums[1] - coach_sums[1]
        coach_mean = _mean(coach_sums[0], int(coach_sums[1]))
        others_mean = _mean(others_total, int(others_n))
        return {
            "coach_mean": coach_mean,
            "coach_n": int(coach_sums[1]),
            "all_mean": _mean(all_sums[0], int(all_sums[1])),
            "all_n": int(all_sums[1]),
            "others_mean": others_mean,
            "others_n": int(others_n),
            "delta": (
                round(coach_mean - others_mean, 3)
                if coach_mean is not None and others_mean is not None
                else None
            ),
        }

    dimensions = [
        {"dimension": name, **compare(sums["coach"], sums["all"])}
        for name, sums in sorted(per_dimension.items())
    ]
    overall = compare(levels["coach"], levels["all"])
    return {
        "coach": {"id": coach.pk, "username": coach.get_username()},
        "scorecards": cards,
        "scorers": len(scorers),
        "dimensions": dimensions,
        "overall": overall,
        "recommendations": recommendations,
    }


def calibration_subject(*, viewer: AbstractBaseUser, coach_id: int | None) -> AbstractBaseUser:
    """Whose calibration the viewer asks for: their own (coaches and admins), or with
    `coach_id` another scorer's (admins only)."""
    if not is_coach_or_admin(viewer):
        raise NotAllowed(_("Only coaches and admins see calibration."))
    if coach_id is None or coach_id == viewer.pk:
        return viewer
    if not is_admin(viewer):
        raise NotAllowed(_("Only admins see another coach's calibration."))
    subject = get_user_model().objects.filter(pk=coach_id).first()
    if subject is None or not is_coach_or_admin(subject):
        raise NotFound(_("Coach not found."))
    return subject
