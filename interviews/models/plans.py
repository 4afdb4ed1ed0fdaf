"""Study plans: a bank-curated sequence of days (the source material's two-week plan),
each pointing at practice stages of loop templates, and who follows which plan."""

from django.conf import settings
from django.db import models

from .bank import QuestionStatus, slug_validator


class StudyPlan(models.Model):
    """A plan as the bank file states it. `days` is the canonical list of
    `{title, phase, focus, practice: [{loop, stage}]}` (stage 1-based); `translations`
    holds the per-language `{title, description, days: {n: {...}}}` blocks. Like loop
    templates, a plan is updated in place: progress is read from the candidate's stages,
    so nothing a candidate did depends on the plan's old wording."""

    slug = models.SlugField(max_length=80, unique=True, validators=[slug_validator])
    title = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    status = models.CharField(
        max_length=16, choices=QuestionStatus.choices, default=QuestionStatus.PUBLISHED
    )
    days = models.JSONField(default=list)
    translations = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["slug"]

    def __str__(self) -> str:
        return self.slug


class PlanEnrolment(models.Model):
    """A candidate following a plan: day 1 is the day they started."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="plan_enrolments"
    )
    plan = models.ForeignKey(StudyPlan, on_delete=models.CASCADE, related_name="enrolments")
    started_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "plan"], name="plan_enrolment_unique")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} on {self.plan_id}"
