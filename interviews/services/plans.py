"""Following a study plan."""

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from interviews.access import access_plan_follow
from interviews.models import PlanEnrolment, StudyPlan


def study_plan_start(
    *, user: AbstractBaseUser, plan: StudyPlan, restart: bool = False
) -> PlanEnrolment:
    """Start following `plan` today (idempotent; `restart` makes today day 1 again —
    what was done stays done, since it is read from the stages)."""
    access_plan_follow(user)
    enrolment, created = PlanEnrolment.objects.get_or_create(
        user=user, plan=plan, defaults={"started_at": timezone.now()}
    )
    if restart and not created:
        enrolment.started_at = timezone.now()
        enrolment.save(update_fields=["started_at"])
    return enrolment
