"""The live room never carries model answers to the candidate: not while the stage runs,
not in the events of finishing it, not in a resync afterwards."""

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from interviews.models import StageQuestion
from interviews.services.stages import stage_finish
from tests.factories import CoachFactory, FollowUpFactory, PartFactory, StageFactory, UserFactory
from tests.interviews.realtime.test_consumer import connect, drain

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

REFERENCE = "SENTINEL-ws-reference-5120"
STRONG = "SENTINEL-ws-strong-answer-5121"


@database_sync_to_async
def make_room():
    owner = UserFactory()
    stage = StageFactory(
        loop__candidate=owner, coach=CoachFactory(), status="live", started_at=timezone.now()
    )
    stage.deadline = stage.started_at + timezone.timedelta(minutes=60)
    stage.save()
    part = PartFactory(question__reference={"python": f"# {REFERENCE}\n"})
    FollowUpFactory(question=part.question, coach_notes=STRONG)
    StageQuestion.objects.create(stage=stage, question=part.question, position=1)
    return stage, owner


async def test_no_model_answer_reaches_the_candidate_before_or_at_finish():
    stage, owner = await make_room()
    candidate, connected, _ = await connect(stage, owner)
    assert connected
    got = await drain(candidate)
    await database_sync_to_async(stage_finish)(stage=stage, actor=owner)
    got += await drain(candidate)
    await candidate.send_json_to({"type": "resync", "after": 0})
    got += await drain(candidate)
    assert "stage.status" in [m["type"] for m in got]
    assert REFERENCE not in str(got) and STRONG not in str(got)
    await candidate.disconnect()
