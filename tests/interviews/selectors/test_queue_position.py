"""A queued submission's place in the judge's queue: runs go ahead of submits."""

import pytest

from interviews.models import Submission
from interviews.selectors.submissions import submission_queue_position
from tests.interviews.world import World

pytestmark = pytest.mark.django_db


def _queued(world: World, mode: str, status: str = "queued") -> Submission:
    return Submission.objects.create(
        stage=world.coding,
        question=world.coding_q,
        part=1,
        author=world.owner,
        language="python",
        code="print(3)",
        mode=mode,
        status=status,
    )


def test_runs_are_ahead_of_submits_and_each_kind_in_order(world: World, as_user):
    first_submit = _queued(world, "submit")
    second_submit = _queued(world, "submit")
    _queued(world, "submit", status="running")  # being judged: not in the queue
    run = _queued(world, "run")
    later_run = _queued(world, "run")
    positions = [
        submission_queue_position(s) for s in (run, later_run, first_submit, second_submit)
    ]
    assert positions == [1, 2, 3, 4]
    assert submission_queue_position(world.submission) is None  # done

    owner = as_user(world.owner)
    assert owner.get(f"/api/v1/submissions/{second_submit.pk}/").json()["queue_position"] == 4
    assert owner.get(f"/api/v1/submissions/{world.submission.pk}/").json()["queue_position"] is None
