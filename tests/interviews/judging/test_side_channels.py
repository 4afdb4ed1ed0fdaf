"""Hidden tests must not leak their inputs through resource figures (issue 16).

The attack: a submission allocates ``(input[0] + 1) × 512 KiB`` and reads each hidden
test's memory back from the API, one input byte per test per submit. Judged here in the
real sandbox (in this process), read back through the real API.
"""

import pytest

from interviews.judging.submissions import submission_judge
from interviews.models import Submission, TestCase
from tests.interviews.world import World

pytestmark = pytest.mark.integration

MEMORY_PROBE = (
    "import sys\n"
    "data = sys.stdin.buffer.read()\n"
    "block = bytearray((data[0] - 47) * 8 * 512 * 1024)\n"  # '0' → 8 × 512 KiB, '9' → 80 ×
    "for i in range(0, len(block), 4096):\n"
    "    block[i] = 1\n"
    "print('x')\n"
)


@pytest.mark.django_db
def test_two_hidden_inputs_cannot_be_told_apart_by_time_or_memory(world: World, as_user):
    part = world.coding_q.parts.get(position=1)
    TestCase.objects.filter(part=part, visibility="hidden").delete()
    for position, text in enumerate(["0\n", "9\n"]):
        TestCase.objects.create(
            part=part, visibility="hidden", position=position, input=text, output="x\n"
        )
    submission = Submission.objects.create(
        stage=world.coding,
        question=world.coding_q,
        part=1,
        author=world.owner,
        language="python",
        code=MEMORY_PROBE,
        mode="submit",
    )
    submission_judge(submission.pk)

    data = as_user(world.owner).get(f"/api/v1/submissions/{submission.pk}/").json()
    assert data["verdict"] == "accepted", data
    first, second = data["tests"]
    # the sandbox really saw ~40 MB apart (so the probe works) ...
    stored = list(submission.tests.order_by("index").values_list("memory_kb", flat=True))
    assert stored[1] - stored[0] > 30 * 1024
    # ... and the API shows nothing that tells the two inputs apart
    assert {k: v for k, v in first.items() if k != "index"} == {
        k: v for k, v in second.items() if k != "index"
    }
    # the part's maximum over all its tests is fine
    assert data["max_memory_kb"] >= stored[1]
    assert data["max_time_ms"] >= 0
