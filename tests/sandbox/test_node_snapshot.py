"""JavaScript tests start node from the image's start-up snapshot (sandbox/wrappers/
snapshot_node.js): the runner really takes that path (and plain node when there is no
snapshot for the heap size), and a program behaves as under plain ``node main.js``
(real Docker, except the first two tests)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sandbox import UNCHECKED, Job, Limits, Test, run_tests, runner
from sandbox.engine import Engine
from sandbox.images import build

LIMITS = Limits(time_limit_ms=1000, memory_limit_mb=128, wall_time_limit_ms=2000)
EXEC_ARGV = "console.log(JSON.stringify(process.execArgv));\n"


def test_runner_command_uses_the_snapshot_for_its_heap_size(tmp_path, monkeypatch) -> None:
    """Same flags with or without the snapshot (V8 refuses one built under other flags);
    plain node when the image has no snapshot for that heap size or it is turned off."""
    monkeypatch.delenv("MOCKLOOP_NODE_SNAPSHOT", raising=False)
    plain = ["/usr/bin/node", "--max-old-space-size=256"]
    assert runner.node_command(256, str(tmp_path)) == plain
    blob = Path(runner.node_snapshot(256, str(tmp_path)))
    blob.write_bytes(b"blob")
    assert runner.node_command(256, str(tmp_path)) == [*plain, "--snapshot-blob", str(blob)]
    assert runner.node_command(255, str(tmp_path)) == ["/usr/bin/node", "--max-old-space-size=255"]
    monkeypatch.setenv("MOCKLOOP_NODE_SNAPSHOT", "0")
    assert runner.node_command(256, str(tmp_path)) == plain


def test_snapshots_cover_the_usual_memory_limits() -> None:
    """The bank's default and the API's default limit both get a snapshot, and the
    JavaScript image builds them (the wrapper is a build input, so the tag follows it)."""
    from interviews.bankfile.format import DEFAULT_MEMORY_LIMIT_MB

    assert {DEFAULT_MEMORY_LIMIT_MB, Limits().memory_limit_mb} <= set(runner.NODE_SNAPSHOT_HEAPS_MB)
    assert "--build-node-snapshots" in build.runner_layer("javascript")
    assert "wrappers/snapshot_node.js" in build.RUNNER_INPUTS


@pytest.fixture(scope="module")
def plain_engine(images):
    """An engine whose containers run every JavaScript test with plain node."""
    eng = Engine(pool_size=0)
    eng.node_snapshot = False
    yield eng
    eng.close()


def _run(engine, code: str, tests: list[Test], limits: Limits = LIMITS, **job):
    job = Job(language="javascript", code=code, limits=limits, **job)
    return run_tests(job, tests, engine=engine)


@pytest.mark.integration
@pytest.mark.parametrize("memory_mb", runner.NODE_SNAPSHOT_HEAPS_MB)
def test_stdio_tests_start_from_the_snapshot(memory_mb, clean_host) -> None:
    """Every snapshot the image should have was built and loads (a build that failed
    leaves it out, and its jobs would silently run plain node)."""
    limits = Limits(time_limit_ms=1000, memory_limit_mb=memory_mb)
    result = _run(clean_host, EXEC_ARGV, [Test("", UNCHECKED)] * 2, limits=limits)
    blob = f"/opt/mockloop/node-snapshot/heap-{memory_mb}.blob"
    expected = f'["--max-old-space-size={memory_mb}","--snapshot-blob","{blob}"]\n'
    assert [t.output for t in result.tests] == [expected] * 2, result.tests


@pytest.mark.integration
def test_function_tests_start_from_the_snapshot(clean_host) -> None:
    code = "function flags() { return process.execArgv; }\n"
    result = _run(clean_host, code, [Test([], UNCHECKED)], io="function", entrypoint="flags")
    blob = "/opt/mockloop/node-snapshot/heap-128.blob"
    assert result.tests[0].output == f'["--max-old-space-size=128","--snapshot-blob","{blob}"]\n'


@pytest.mark.integration
def test_plain_node_without_a_snapshot(clean_host, plain_engine) -> None:
    """A heap size the image has no snapshot for, or snapshots turned off: plain node."""
    odd = Limits(time_limit_ms=1000, memory_limit_mb=200)
    result = _run(clean_host, EXEC_ARGV, [Test("", UNCHECKED)], limits=odd)
    assert result.tests[0].output == '["--max-old-space-size=200"]\n'
    result = _run(plain_engine, EXEC_ARGV, [Test("", UNCHECKED)])
    assert result.tests[0].output == '["--max-old-space-size=128"]\n'


# name: (code, stdin, verdict, exit code, stdout, strings stderr must contain)
SEMANTICS = {
    "main module": (
        "console.log(require.main === module, module.id, module.parent, require.main.filename);\n",
        "",
        "accepted",
        0,
        "true . null /work/main.js\n",
        (),
    ),
    "file names and cwd": (
        "console.log(__filename, __dirname, process.cwd(), require('path').resolve('x'));\n",
        "",
        "accepted",
        0,
        "/work/main.js /work /work /work/x\n",
        (),
    ),
    "argv": (
        "console.log(process.argv.length, JSON.stringify(process.argv), process.argv0);\n",
        "",
        "accepted",
        0,
        '2 ["/usr/bin/node","/work/main.js"] /usr/bin/node\n',
        (),
    ),
    "relative and builtin require": (
        "const fs = require('fs');\n"
        "fs.writeFileSync(__dirname + '/helper.js', 'exports.main = require.main.filename;"
        " exports.id = module.id; exports.parent = module.parent.id;');\n"
        "const h = require('./helper');\n"
        "console.log(h.main, h.id, h.parent, typeof require('readline').createInterface,"
        " require('node:fs') === fs);\n",
        "",
        "accepted",
        0,
        "/work/main.js /work/helper.js . function true\n",
        (),
    ),
    "stdin as a stream, to EOF": (
        "let n = 0;\nprocess.stdin.on('data', (c) => { n += c.length; });\n"
        "process.stdin.on('end', () => console.log(n));\n",
        "x" * 300_000 + "\n",
        "accepted",
        0,
        "300001\n",
        (),
    ),
    "stdin by readline": (
        "const rl = require('readline').createInterface({ input: process.stdin });\n"
        "let n = 0, sum = 0;\nrl.on('line', (l) => { n++; sum += Number(l); });\n"
        "rl.on('close', () => console.log(n, sum));\n",
        "".join(f"{i}\n" for i in range(1000)),
        "accepted",
        0,
        "1000 499500\n",
        (),
    ),
    "stdin read at once": (
        "console.log(require('fs').readFileSync(0, 'utf8').split('\\n').length);\n",
        "a\nb\nc",
        "accepted",
        0,
        "3\n",
        (),
    ),
    "uncaught throw": (
        "console.log('before');\nfunction f() { throw new Error('boom'); }\nf();\n",
        "",
        "runtime_error",
        1,
        "before\n",
        ("Error: boom", "at f (/work/main.js:2:", "Node.js v"),
    ),
    "uncaught throw later": (
        "setTimeout(() => { throw new TypeError('late'); }, 1);\n",
        "",
        "runtime_error",
        1,
        "",
        ("TypeError: late",),
    ),
    "process.exitCode": (
        "console.log('x');\nprocess.exitCode = 3;\n",
        "",
        "runtime_error",
        3,
        "x\n",
        (),
    ),
    "process.exit": (
        "console.log('y');\nprocess.exit(4);\nconsole.log('never');\n",
        "",
        "runtime_error",
        4,
        "y\n",
        (),
    ),
    "unhandled rejection": (
        "Promise.reject(new Error('nope'));\nsetTimeout(() => console.log('never'), 50);\n",
        "",
        "runtime_error",
        1,
        "",
        ("Error: nope", "at Object.<anonymous> (/work/main.js:1:"),
    ),
    "syntax error": (
        "function (\n",
        "",
        "runtime_error",
        1,
        "",
        ("SyntaxError", "/work/main.js:1"),
    ),
    "import statement in a CommonJS script": (
        "import fs from 'fs';\nconsole.log(typeof fs);\n",
        "",
        "runtime_error",
        1,
        "",
        ("Cannot use import statement outside a module",),
    ),
    "exit events": (
        "process.on('beforeExit', () => console.log('beforeExit'));\n"
        "process.on('exit', (code) => console.log('exit', code));\n",
        "",
        "accepted",
        0,
        "beforeExit\nexit 0\n",
        (),
    ),
    "start-up state": (
        "console.log(JSON.stringify([RegExp.$1, RegExp.lastMatch, Error.stackTraceLimit,"
        " typeof structuredClone, typeof fetch, process.title, process.exitCode]));\n",
        "",
        "accepted",
        0,
        '["","",10,"function","function","/usr/bin/node",null]\n',
        (),
    ),
    "worker thread": (
        "const { Worker, isMainThread, parentPort } = require('worker_threads');\n"
        "if (isMainThread) new Worker(__filename).on('message', (m) => console.log('got', m));\n"
        "else parentPort.postMessage(require.main === module);\n",
        "",
        "accepted",
        0,
        "got true\n",
        (),
    ),
    "forked child (execArgv passed on: the child starts from the snapshot too)": (
        "if (process.argv[2] === 'child') console.log('child', require.main === module);\n"
        "else require('child_process').fork(__filename, ['child'])"
        ".on('exit', (code) => console.log('exit', code));\n",
        "",
        "accepted",
        0,
        "child true\nexit 0\n",
        (),
    ),
    "dynamic import": (
        "import('fs').then((m) => console.log(typeof m.readFileSync));\n",
        "",
        "accepted",
        0,
        "function\n",
        (),
    ),
    "heap limit": (
        "console.log(require('v8').getHeapStatistics().heap_size_limit >> 20);\n",
        "",
        "accepted",
        0,
        None,  # about 128 + young generation; the same as plain node's
        (),
    ),
}
# node's own frames below the user's differ: run_main_module vs the snapshot's main
_INTERNAL_FRAME = re.compile(
    r"^\s+at .*(node:internal/main/run_main_module|snapshot_node\.js|deserializeMain).*\n",
    re.M,
)


def _normalized(stderr: str) -> str:
    return re.sub(r"\(node:\d+\)", "(node:PID)", _INTERNAL_FRAME.sub("", stderr))


@pytest.mark.integration
@pytest.mark.parametrize("name", list(SEMANTICS))
def test_snapshot_runs_the_script_as_plain_node_does(name, clean_host, plain_engine) -> None:
    code, stdin, verdict, exit_code, stdout, in_stderr = SEMANTICS[name]
    runs = {
        "snapshot": _run(clean_host, code, [Test(stdin, UNCHECKED)]).tests[0],
        "plain": _run(plain_engine, code, [Test(stdin, UNCHECKED)]).tests[0],
    }
    for how, test in runs.items():
        assert (test.verdict, test.exit_code) == (verdict, exit_code), (how, test)
        if stdout is not None:
            assert test.output == stdout, (how, test)
        for text in in_stderr:
            assert text in test.stderr, (how, text, test.stderr)
    snap, plain = runs["snapshot"], runs["plain"]
    assert snap.output == plain.output
    assert _normalized(snap.stderr) == _normalized(plain.stderr)


@pytest.mark.integration
def test_each_test_gets_fresh_randomness(clean_host) -> None:
    """Nothing random is frozen into the snapshot: Math.random and crypto differ per test."""
    code = "console.log(Math.random(), require('crypto').randomBytes(8).toString('hex'));\n"
    result = _run(clean_host, code, [Test("", UNCHECKED)] * 3)
    outputs = [t.output for t in result.tests]
    assert len(set(outputs)) == 3, outputs
    assert len({o.split()[0] for o in outputs}) == 3 and len({o.split()[1] for o in outputs}) == 3
