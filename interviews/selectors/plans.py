"""Study plans as a candidate reads them: each day's practice stages with what the
candidate has done of them (read from their own stages, never stored twice), which day
of the plan it is, and what to repeat, chosen from their weakest rubric dimensions."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from interviews.bankfile.translations import Translation, child_translation, translation_of
from interviews.models import LoopTemplate, PlanEnrolment, Stage, StageTemplate, StudyPlan
from interviews.models.bank import QuestionStatus
from interviews.selectors.reports import candidate_progress
from interviews.services.errors import NotFound

#: How many recent levels of a dimension its "level so far" averages: old attempts fade.
RECENT_LEVELS = 3
#: Dimensions averaging below this level (of 4) are worth repeating.
WEAK_LEVEL = 3.0
#: At most this many dimensions are recommended at once: a short list gets done.
MAX_RECOMMENDATIONS = 3


def study_plans_published() -> QuerySet[StudyPlan]:
    return StudyPlan.objects.filter(status=QuestionStatus.PUBLISHED)


def study_plan_get(slug: str) -> StudyPlan:
    plan = study_plans_published().filter(slug=slug).first()
    if plan is None:
        raise NotFound(_("No study plan %(slug)s.") % {"slug": slug})
    return plan


def _translation(plan: StudyPlan, language: str) -> Translation:
    """The plan's text in `language`, per field, English where it is not translated."""
    return translation_of(plan.translations, language)


@dataclass
class _Practice:
    """One practice item of a day, as the candidate's stages answer it."""

    template: LoopTemplate | None
    stage_template: StageTemplate | None
    stages: list[Stage]

    def as_dict(self, loop_slug: str, position: int, language: str) -> dict[str, Any]:
        done = [s for s in self.stages if s.status == Stage.Status.DONE]
        open_ = [s for s in self.stages if s.status != Stage.Status.DONE]
        # The stage to open: the newest unfinished one, else the newest finished one.
        current = (open_ or done or [None])[0]
        status = (
            "done"
            if done
            else "in_progress"
            if any(s.started_at for s in open_)
            else ("not_started")
        )
        st = self.stage_template
        loop_text = translation_of(self.template.i18n if self.template else None, language)
        stage_text = child_translation(loop_text, "stages", position)
        return {
            "loop": loop_slug,
            "loop_title": loop_text.text("title", self.template.title)
            if self.template
            else loop_slug,
            "stage": position,
            "stage_title": stage_text.text("title", st.title) if st else "",
            "kind": st.kind if st else "",
            "minutes": st.minutes if st else 0,
            "status": status,
            "times_done": len(done),
            "last_done_at": max((s.finished_at for s in done if s.finished_at), default=None),
            "stage_id": current.pk if current else None,
            "loop_id": current.loop_id if current else None,
            "available": st is not None and self.template.status == QuestionStatus.PUBLISHED,
        }


def _practice_index(
    plan: StudyPlan, user: AbstractBaseUser | None
) -> dict[tuple[str, int], _Practice]:
    """Every (loop template, stage) the plan names, with its template rows and the user's
    stages of loops made from that template (newest loop first)."""
    wanted = {(p["loop"], p["stage"]) for day in plan.days for p in day.get("practice", ())}
    slugs = {slug for slug, _ in wanted}
    templates = {t.slug: t for t in LoopTemplate.objects.filter(slug__in=slugs)}
    stage_templates = {
        (st.loop_template.slug, st.position): st
        for st in StageTemplate.objects.filter(loop_template__slug__in=slugs)
        .select_related("loop_template", "rubric")
        .prefetch_related("rubric__dimensions")
    }
    stages: dict[tuple[str, int], list[Stage]] = defaultdict(list)
    if user is not None and user.is_authenticated:
        for stage in (
            Stage.objects.filter(loop__candidate=user, loop__template__slug__in=slugs)
            .select_related("loop__template")
            .order_by("-loop__created_at", "-loop_id")
        ):
            stages[(stage.loop.template.slug, stage.position)].append(stage)
    return {
        key: _Practice(templates.get(key[0]), stage_templates.get(key), stages.get(key, []))
        for key in wanted
    }


def _weak_dimensions(user: AbstractBaseUser) -> list[dict[str, Any]]:
    """The candidate's dimensions by their recent level, weakest first, below WEAK_LEVEL."""
    rows = []
    for series in candidate_progress(user=user)["by_dimension"]:
        levels = [p["level"] for p in series["points"]][-RECENT_LEVELS:]
        if not levels:
            continue
        level = sum(levels) / len(levels)
        if level < WEAK_LEVEL:
            rows.append({"dimension": series["dimension"], "level": round(level, 2)})
    rows.sort(key=lambda row: (row["level"], row["dimension"]))
    return rows[:MAX_RECOMMENDATIONS]


def _recommendations(
    days: list[dict[str, Any]], index: dict[tuple[str, int], _Practice], user
) -> list[dict[str, Any]]:
    """For each weak dimension, the plan's stages whose rubric scores it: the ones already
    done first (repeat them), each once."""
    if user is None or not user.is_authenticated:
        return []
    result = []
    for weak in _weak_dimensions(user):
        items, seen = [], set()
        for day in days:
            for item in day["practice"]:
                key = (item["loop"], item["stage"])
                st = index[key].stage_template
                if key in seen or st is None or st.rubric is None:
                    continue
                if weak["dimension"] in {d.name for d in st.rubric.dimensions.all()}:
                    seen.add(key)
                    items.append({**item, "day": day["number"]})
        items.sort(key=lambda item: (item["status"] != "done", item["day"]))
        if items:
            result.append({**weak, "practice": items[:3]})
    return result


def study_plan_view(
    *, plan: StudyPlan, user: AbstractBaseUser | None, language: str = "en"
) -> dict[str, Any]:
    """The plan for `user`: days with their practice items' status, today's day number,
    and what to repeat. Text is in `language` where the plan translates it (per field,
    English otherwise); each day says which language its title is in."""
    text = _translation(plan, language)
    index = _practice_index(plan, user)
    enrolment = (
        PlanEnrolment.objects.filter(user=user, plan=plan).first()
        if user is not None and user.is_authenticated
        else None
    )
    days = []
    for number, day in enumerate(plan.days, start=1):
        day_text = child_translation(text, "days", number)
        practice = [
            index[(p["loop"], p["stage"])].as_dict(p["loop"], p["stage"], language)
            for p in day.get("practice", ())
        ]
        days.append(
            day_text.stamp(
                {
                    "number": number,
                    "title": day_text.text("title", day["title"]),
                    "phase": day_text.text("phase", day.get("phase", "")),
                    "focus": day_text.text("focus", day.get("focus", "")),
                    "practice": practice,
                    "done": bool(practice) and all(p["status"] == "done" for p in practice),
                }
            )
        )
    today = None
    if enrolment is not None:
        elapsed = (timezone.localdate() - timezone.localtime(enrolment.started_at).date()).days
        today = min(max(elapsed + 1, 1), len(days))
    return text.stamp(
        {
            "slug": plan.slug,
            "title": text.text("title", plan.title),
            "description": text.text("description", plan.description),
            "started_at": enrolment.started_at if enrolment else None,
            "today": today,
            "days_done": sum(1 for day in days if day["done"]),
            "days": days,
            "recommendations": _recommendations(days, index, user),
        }
    )


def study_plan_summaries(
    *, user: AbstractBaseUser | None, language: str = "en"
) -> list[dict[str, Any]]:
    """Every published plan, briefly: for the dashboard's plan card."""
    enrolments = {}
    if user is not None and user.is_authenticated:
        enrolments = {e.plan_id: e for e in PlanEnrolment.objects.filter(user=user)}
    result = []
    for plan in study_plans_published():
        text = _translation(plan, language)
        enrolment = enrolments.get(plan.pk)
        result.append(
            text.stamp(
                {
                    "slug": plan.slug,
                    "title": text.text("title", plan.title),
                    "description": text.text("description", plan.description),
                    "day_count": len(plan.days),
                    "started_at": enrolment.started_at if enrolment else None,
                }
            )
        )
    return result
