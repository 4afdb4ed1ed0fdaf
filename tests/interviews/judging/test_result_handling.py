"""Whatever a program writes, its submission ends: judged in the real sandbox (in this
process, through the Celery task), never left `running`."""

import pytest

from interviews.judging import tasks
from interviews.models import Submission
from tests.factories import CodingQuestionFactory, PartFactory, TestCaseFactory
from tests.interviews.world import World

pytestmark = pytest.mark.integration

# The function-mode answer goes to the test's stdout memfd, which the wrapper keeps on a
# spare descriptor; write 200 000 "[" to it directly and skip the wrapper's own answer.
DEEP_ANSWER = (
    "import os\n"
    "def solve(x):\n"
    "    for fd in range(3, 64):\n"
    "        try:\n"
    "            if 'memfd:stdout' in os.readlink(f'/proc/self/fd/{fd}'):\n"
    "                os.write(fd, b'[' * 200000)\n"
    "        except OSError:\n"
    "            pass\n"
    "    os._exit(0)\n"
)


@pytest.mark.django_db
def test_a_function_answer_nested_200000_deep_gets_a_verdict(world: World):
    question = CodingQuestionFactory(
        io="function", entrypoint="solve", languages=["python"], checker="exact"
    )
    part = PartFactory(question=question, position=1)
    TestCaseFactory(part=part, visibility="hidden", position=0, input="[1]", output="1")
    submission = Submission.objects.create(
        stage=world.coding,
        question=question,
        part=1,
        author=world.owner,
        language="python",
        code=DEEP_ANSWER,
        mode="submit",
    )
    tasks.judge_submission.apply(args=[submission.pk])
    submission.refresh_from_db()
    assert submission.status == "done", (submission.status, submission.error)
    assert submission.verdict == "wrong_answer"
    assert submission.tests.get().verdict == "wrong_answer"
