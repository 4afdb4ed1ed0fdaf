"""Answer autosaves write only what they were given."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from interviews import models as m
from interviews.services.answers import answer_save

SCENE = {"elements": [{"id": f"box{n}", "type": "rectangle"} for n in range(200)]}


def test_a_text_autosave_keeps_and_does_not_rewrite_the_whiteboard(world):
    stage, question = world.coding, world.coding_q
    first = answer_save(stage=stage, actor=world.owner, question=question, scene=SCENE)
    with CaptureQueriesContext(connection) as ctx:
        answer_save(stage=stage, actor=world.owner, question=question, text="typed")
    updates = [q["sql"] for q in ctx.captured_queries if q["sql"].startswith("UPDATE")]
    answer_updates = [sql for sql in updates if '"interviews_answer"' in sql]
    assert len(answer_updates) == 1
    assignments = answer_updates[0].split(" WHERE ")[0]  # the update returns the whole row
    assert '"text"' in assignments and '"scene"' not in assignments
    answer = m.Answer.objects.get(pk=first.pk)
    assert (answer.text, answer.scene) == ("typed", SCENE)


def test_a_new_answer_is_created_with_what_was_given(world):
    answer = answer_save(
        stage=world.coding, actor=world.owner, question=world.coding_q, notes={"a": "b"}
    )
    answer.refresh_from_db()
    assert (answer.text, answer.notes, answer.scene) == ("", {"a": "b"}, {})
