"""`values()` querysets compiled to SQL once per database connection, then run again
with other parameter values.

Django compiles a queryset to SQL on every evaluation: for the small queries of a hot
read (stage detail's stage row, pushed follow-ups and answers) resolving lookups, joins
and ordering cost several times what running the SQL does (profiled: ~0.25 ms of CPU for
the compile of a one-table `values_list`, 0.015 ms for executing it). Django has no
prepared-query API, so this is the smallest one: the queryset is built once with a
sentinel value for each parameter, compiled by Django's own compiler for the calling
thread's connection, and the SQL is kept with the positions of the parameters; rows
come back through the same compiler's converters (datetimes, JSON, booleans), shaped as
`values()` shapes them. Queries still go through `connection.cursor()`, so they are
logged and counted like any other.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet

M = TypeVar("M", bound=Model)

#: Parameter placeholders while compiling: integers no id ever takes.
_SENTINEL_BASE = -(2**31) + 7_919
#: What an integer column holds; Django answers an equality lookup outside it with no rows.
_INT64 = range(-(2**63), 2**63)


@dataclass
class _Plan:
    sql: str
    #: For each SQL parameter: (True, name of a call parameter) or (False, a constant).
    slots: list[tuple[bool, Any]]
    names: list[str]
    compiler: Any


class CompiledValues:
    """`build(**params)` must return a `values()` queryset whose only varying inputs are
    `params`, integers matched for equality (ids), or strings matched for equality when
    named in `text` (e.g. a token's key); `rows(**params)` gives what evaluating it would
    — no rows for an id no column can hold, as Django's lookup gives."""

    def __init__(
        self, build: Callable[..., QuerySet], *params: str, text: tuple[str, ...] = ()
    ) -> None:
        if not set(text) <= set(params):
            raise ValueError(f"text parameters {text} must be among {params}")
        self.build = build
        self.params = params
        self.text = frozenset(text)
        # Per thread, as Django's connections are: a plan's compiler holds its thread's
        # connection, and both go when the thread ends.
        self._plans = threading.local()

    def _compile(self, using: str) -> _Plan:
        sentinels: dict[str, int | str] = {
            name: f"\x00compiled-parameter-{i}\x00" if name in self.text else _SENTINEL_BASE + i
            for i, name in enumerate(self.params)
        }
        queryset = self.build(**sentinels)
        query = queryset.query
        compiler = query.get_compiler(using)
        sql, params = compiler.as_sql()
        by_value = {(type(value), value): name for name, value in sentinels.items()}
        slots = [
            (True, by_value[(type(p), p)]) if (type(p), p) in by_value else (False, p)
            for p in params
        ]
        if sorted(name for named, name in slots if named) != sorted(self.params):
            raise ValueError(f"each parameter must appear once in the SQL: {sql}")
        if query.selected:
            names = list(query.selected)
        else:
            names = [*query.extra_select, *query.values_select, *query.annotation_select]
        return _Plan(sql=sql, slots=slots, names=names, compiler=compiler)

    def rows(self, using: str = DEFAULT_DB_ALIAS, **params: int | str) -> list[dict[str, Any]]:
        for name, value in params.items():
            if name in self.text:
                if not isinstance(value, str):
                    raise TypeError(f"{name} must be a string")
            elif value not in _INT64:
                return []
        connection = connections[using]
        plans: dict[str, _Plan] = self._plans.__dict__
        plan = plans.get(using)
        if plan is None or plan.compiler.connection is not connection:
            plan = plans[using] = self._compile(using)
        args = [params[value] if named else value for named, value in plan.slots]
        with connection.cursor() as cursor:
            cursor.execute(plan.sql, args)
            fetched = cursor.fetchall()
        names = plan.names
        return [dict(zip(names, row, strict=True)) for row in plan.compiler.results_iter([fetched])]


def instance_from_columns(
    model: type[M], columns: dict[str, Any], using: str = DEFAULT_DB_ALIAS
) -> M:
    """A model instance from some of its columns (by attname), e.g. a `CompiledValues`
    row: the others are deferred (loaded if touched), never silent defaults.
    `Model.from_db` takes the values in the model's field order, whatever order they
    were read in."""
    names = [f.attname for f in model._meta.concrete_fields if f.attname in columns]
    return model.from_db(using, names, [columns[name] for name in names])
