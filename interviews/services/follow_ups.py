"""Follow-ups pushed into a stage by its coach (or an admin): a bank follow-up of one of
the stage's questions, which unlocks its part, or free text."""

import re

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from interviews.access import access_stage_as_coach
from interviews.bankfile.translations import (
    TRANSLATION_LANGUAGES,
    child_translation,
    translation_of,
)
from interviews.models import Answer, FollowUp, Question, Stage, StageFollowUp, StageQuestion
from interviews.realtime.events import emit

from .errors import InvalidInput, StateConflict

# Chinese and Japanese are written without spaces: each ideograph or kana counts as a word.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_WORD_RE = re.compile(rf"[{_CJK}]|(?:(?![{_CJK}])[^\W_])+")


def answer_word_count(text: str) -> int:
    """Words in a written answer: runs of letters or digits, and each CJK character."""
    return len(_WORD_RE.findall(text or ""))


def answer_words_of(stage: Stage, question_id: int | None) -> int:
    """Words the candidate has written for a question of the stage: the answer's text and
    its design notes (the whiteboard holds drawings, not words)."""
    if question_id is None:
        return 0
    answer = Answer.objects.filter(stage=stage, question_id=question_id).first()
    return 0 if answer is None else answer_words(answer)


def answer_words(answer: Answer) -> int:
    """Words in an answer already loaded: its text and its design notes."""
    notes = answer.notes if isinstance(answer.notes, dict) else {}
    written = [answer.text, *(v for v in notes.values() if isinstance(v, str))]
    return sum(answer_word_count(part) for part in written)


def follow_up_prompt_translations(follow_up: FollowUp) -> dict[str, str]:
    """The bank follow-up's prompt in every language it is translated into."""
    question = Question.objects.filter(pk=follow_up.question_id)
    i18n = question.values_list("i18n", flat=True).first() or {}
    found: dict[str, str] = {}
    for language in TRANSLATION_LANGUAGES:
        owner = translation_of(i18n, language)
        translation = child_translation(owner, "follow_ups", follow_up.position)
        prompt = translation.text("prompt", follow_up.prompt)
        if translation.translated:
            found[language] = prompt
    return found


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
        access_stage_as_coach(
            actor, stage, refusal=_("Only the stage's coach or an admin pushes follow-ups.")
        )
    if (follow_up is None) == (not text.strip()):
        raise InvalidInput(
            _("Give either a bank follow-up or a text."),
            errors={"non_field_errors": [_("Give either `follow_up` or `text`, not both.")]},
        )
    stage = Stage.objects.select_for_update().get(pk=stage.pk)
    if stage.status == Stage.Status.DONE:
        raise StateConflict(_("This stage is finished."), code="stage_finished")
    if follow_up is not None:
        in_stage = StageQuestion.objects.filter(
            stage=stage, question_id=follow_up.question_id
        ).exists()
        if not in_stage:
            raise InvalidInput(
                errors={"follow_up": [_("Not a follow-up of this stage's questions.")]}
            )
        if StageFollowUp.objects.filter(stage=stage, follow_up=follow_up).exists():
            raise StateConflict(_("This follow-up was already pushed."), code="follow_up_pushed")
        try:
            with transaction.atomic():
                pushed = StageFollowUp.objects.create(
                    stage=stage,
                    question_id=follow_up.question_id,
                    follow_up=follow_up,
                    text=follow_up.prompt,
                    unlocks_part=follow_up.unlocks_part,
                    pushed_by=actor,
                    answer_words=answer_words_of(stage, follow_up.question_id),
                )
        except IntegrityError as exc:  # a concurrent push of the same follow-up
            raise StateConflict(
                _("This follow-up was already pushed."), code="follow_up_pushed"
            ) from exc
    else:
        pushed = StageFollowUp.objects.create(stage=stage, text=text.strip(), pushed_by=actor)
    emit(
        stage,
        "follow_up",
        {
            "id": pushed.pk,
            "text": pushed.text,
            "translations": follow_up_prompt_translations(follow_up) if follow_up else {},
            "question": pushed.question_id,
            "unlocks_part": pushed.unlocks_part,
        },
        actor=actor,
    )
    return pushed
