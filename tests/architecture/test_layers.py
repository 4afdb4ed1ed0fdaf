"""The import graph keeps its layers one-way (grimp reads every import, including the
ones inside functions, which is where circles used to hide):

- `sandbox` is a library: nothing in it imports `interviews` or `mockloop` (or Django);
- `interviews.judging` imports the sandbox, never the services above it;
- no module of ours is in an import circle.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import grimp
import pytest

from mockloop.env import BASE_DIR

PACKAGES = ("interviews", "mockloop", "sandbox")


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(*PACKAGES, include_external_packages=True, cache_dir=None)


def import_cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iteratively)."""
    modules = sorted(m for m in graph.modules if m.split(".")[0] in PACKAGES)
    edges = {m: sorted(graph.find_modules_directly_imported_by(m) & set(modules)) for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    for root in modules:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, child = work.pop()
            if child == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            for position in range(child, len(edges[node])):
                target = edges[node][position]
                if target not in index:
                    work.append((node, position + 1))
                    work.append((target, 0))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        cycles.append(sorted(component))
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
    return cycles


def test_no_import_circles(graph):
    assert import_cycles(graph) == []


def test_the_cycle_finder_finds_a_circle():
    graph = grimp.ImportGraph()
    for name in ("interviews.a", "interviews.b", "interviews.c", "interviews.d"):
        graph.add_module(name)
    graph.add_import(importer="interviews.a", imported="interviews.b")
    graph.add_import(importer="interviews.b", imported="interviews.c")
    graph.add_import(importer="interviews.c", imported="interviews.a")
    graph.add_import(importer="interviews.d", imported="interviews.a")
    assert import_cycles(graph) == [["interviews.a", "interviews.b", "interviews.c"]]


@pytest.mark.parametrize("upper", ["interviews", "mockloop", "django", "rest_framework", "celery"])
def test_the_sandbox_imports_nothing_above_it(graph, upper):
    assert graph.find_shortest_chain(importer="sandbox", imported=upper, as_packages=True) is None


def test_judging_does_not_import_the_layers_above_it(graph):
    for upper in ("interviews.api", "interviews.realtime.consumers", "interviews.services.live"):
        chain = graph.find_shortest_chain(
            importer="interviews.judging", imported=upper, as_packages=True
        )
        assert chain is None, chain


@pytest.mark.integration
def test_the_sandbox_runs_a_job_with_django_unconfigured():
    """A fresh interpreter with no settings module imports nothing but `sandbox` and
    judges a job in the real Docker engine."""
    script = textwrap.dedent(
        """
        import os, sys
        os.environ.pop("DJANGO_SETTINGS_MODULE", None)
        import sandbox
        result = sandbox.run_tests(
            sandbox.Job(language="python", code="print(sum(map(int, input().split())))"),
            [sandbox.Test(input="1 2\\n", expected="3\\n"),
             sandbox.Test(input="2 2\\n", expected="5\\n")],
        )
        ours = sorted(m.split(".")[0] for m in sys.modules if m.split(".")[0] in
                      ("django", "interviews", "mockloop", "celery", "rest_framework"))
        print(result.verdict, [t.verdict for t in result.tests], sorted(set(ours)))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=BASE_DIR, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[-2] == "wrong_answer ['accepted', 'wrong_answer'] []"
