"""Loop templates a candidate may start, and loops by id as a viewer may see them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext as _

from interviews.models import Loop, LoopTemplate, StageTemplate
from interviews.models.bank import QuestionStatus
from interviews.selectors.access import loops_visible_to
from interviews.services.errors import NotFound

if TYPE_CHECKING:
    from interviews.selectors.access import AnyUser


def loop_templates_published() -> QuerySet[LoopTemplate]:
    return LoopTemplate.objects.filter(status=QuestionStatus.PUBLISHED).prefetch_related(
        Prefetch("stages", queryset=StageTemplate.objects.order_by("position"))
    )


def loop_for(user: AnyUser, loop_id: int) -> Loop:
    loop = loops_visible_to(user).filter(pk=loop_id).first()
    if loop is None:
        raise NotFound(_("Loop not found."))
    return loop
