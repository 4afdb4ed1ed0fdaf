"""`CompiledValues` gives what evaluating its queryset gives, for any parameter value,
compiling once per thread; its queries are logged and counted like the ORM's."""

import threading

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from interviews import models as m
from interviews.selectors.compiled import CompiledValues
from interviews.services.answers import answer_save


def _answers(stage_id: int):
    return (
        m.Answer.objects.filter(stage_id=stage_id)
        .order_by("question__slug", "-question__version")
        .values("id", "question_id", "text", "notes", "scene", "updated_at")
    )


def test_rows_equal_the_orm_s_for_each_parameter(world):
    answer_save(stage=world.coding, actor=world.owner, question=world.coding_q, text="heap")
    answer_save(stage=world.coding, actor=world.owner, question=None, text="overall")
    compiled = CompiledValues(_answers, "stage_id")
    for stage in m.Stage.objects.all():
        assert compiled.rows(stage_id=stage.pk) == list(_answers(stage.pk))
    rows = compiled.rows(stage_id=world.coding.pk)
    assert {type(row["updated_at"]).__name__ for row in rows} == {"datetime"}
    assert compiled.rows(stage_id=-1) == []
    assert compiled.rows(stage_id=2**70) == []  # as the pk lookup: no OverflowError


def test_it_compiles_once_per_thread_and_its_queries_are_counted(world, monkeypatch):
    compiled = CompiledValues(_answers, "stage_id")
    compiles = []
    original = compiled._compile
    monkeypatch.setattr(
        compiled, "_compile", lambda using: compiles.append(using) or original(using)
    )
    with CaptureQueriesContext(connection) as queries:
        for _ in range(3):
            compiled.rows(stage_id=world.coding.pk)
    assert len(queries.captured_queries) == 3 and compiles == ["default"]
    other = threading.Thread(target=compiled.rows, kwargs={"stage_id": world.coding.pk})
    other.start()
    other.join()
    assert compiles == ["default", "default"]


def test_a_parameter_missing_from_the_sql_is_refused(db):
    compiled = CompiledValues(lambda stage_id: m.Answer.objects.values("id"), "stage_id")
    with pytest.raises(ValueError):
        compiled.rows(stage_id=1)


def test_a_text_parameter_is_matched_for_equality(world):
    """A string parameter (a token's key) is passed as given, never spliced into the SQL."""

    def build(slug):
        return m.Question.objects.filter(slug=slug).values("id")

    compiled = CompiledValues(build, "slug", text=("slug",))
    assert compiled.rows(slug=world.coding_q.slug) == list(build(world.coding_q.slug))
    assert compiled.rows(slug=world.coding_q.slug)
    assert compiled.rows(slug="x' OR '1'='1") == []
    assert compiled.rows(slug="") == []
    with pytest.raises(TypeError):
        compiled.rows(slug=1)
