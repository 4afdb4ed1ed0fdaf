"""Follow-ups pushed into a stage by its coach (or an admin): a bank follow-up of one of
the stage's questions, which unlocks its part, or free text."""

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction

from interviews.access import access_stage_as_coach
from interviews.models import FollowUp, Stage, StageFollowUp, StageQuestion
from interviews.realtime.events import emit

from .errors import InvalidInput, StateConflict


@transaction.atomic
def stage_push_follow_up(
    *,
    stage: Stage,
    actor: AbstractBaseUser | None,
    follow_up: FollowUp | None = None,
    text: str = "",
) -> StageFollowUp:
    """Push a follow-up; `actor` is None when the scripted interviewer fires it (any
    other actor must be the stage's coach or an admin).

    A bank follow-up may be pushed once per stage (its part unlocks once); free text as
    often as the coach likes.
    """
    if actor is not None:
        access_stage_as_coach(actor, stage, doing="pushes follow-ups")
    if (follow_up is None) == (not text.strip()):
        raise InvalidInput(
            "Give either a bank follow-up or a text.",
            errors={"non_field_errors": ["Give either `follow_up` or `text`, not both."]},
        )
    stage = Stage.objects.select_for_update().get(pk=stage.pk)
    if stage.status == Stage.Status.DONE:
        raise StateConflict("This stage is finished.", code="stage_finished")
    if follow_up is not None:
        in_stage = StageQuestion.objects.filter(
            stage=stage, question_id=follow_up.question_id
        ).exists()
        if not in_stage:
            raise InvalidInput(errors={"follow_up": ["Not a follow-up of this stage's questions."]})
        if StageFollowUp.objects.filter(stage=stage, follow_up=follow_up).exists():
            raise StateConflict("This follow-up was already pushed.", code="follow_up_pushed")
        try:
            with transaction.atomic():
                pushed = StageFollowUp.objects.create(
                    stage=stage,
                    question_id=follow_up.question_id,
                    follow_up=follow_up,
                    text=follow_up.prompt,
                    unlocks_part=follow_up.unlocks_part,
                    pushed_by=actor,
                )
        except IntegrityError as exc:  # a concurrent push of the same follow-up
            raise StateConflict(
                "This follow-up was already pushed.", code="follow_up_pushed"
            ) from exc
    else:
        pushed = StageFollowUp.objects.create(stage=stage, text=text.strip(), pushed_by=actor)
    emit(
        stage,
        "follow_up",
        {
            "id": pushed.pk,
            "text": pushed.text,
            "question": pushed.question_id,
            "unlocks_part": pushed.unlocks_part,
        },
        actor=actor,
    )
    return pushed
