"""JavaScript tests of a submission share one warm node, each in a fresh vm context
(sandbox/wrappers/warm_node.js): what one test leaves is invisible to the next, limits
still hold per test, programs behave as under ``node main.js``, and programs the harness
does not cover run the per-test way (real Docker, except the first test)."""

from __future__ import annotations

import pytest

from sandbox import UNCHECKED, Job, Limits, Test, run_tests, runner
from sandbox.engine import Engine

from .test_node_snapshot import SEMANTICS

LIMITS = Limits(time_limit_ms=1000, memory_limit_mb=128, wall_time_limit_ms=3000)
PID = "console.log(process.pid);\n"


@pytest.mark.parametrize(
    ("code", "warm"),
    [
        ("const fs = require('fs');\nconsole.log(fs.readFileSync(0, 'utf8'));\n", True),
        ("const rl = require('node:readline').createInterface({input: process.stdin});\n", True),
        ("if (require.main === module) main();\nmodule.exports = { main };\n", True),
        ("const processLine = (l) => l; process.stdout.write('x');\n", True),
        ("require('child_process').execSync('id');\n", False),
        ("require('./helper');\n", False),
        ("const r = require; r('fs');\n", False),
        ("import('fs');\n", False),
        ("console.log(process.execArgv);\n", False),
        ("const p = process; p.binding('fs');\n", False),
        ("console.log(module.constructor);\n", False),
        ("const c = new AbortController();\n", False),
        ("fetch('http://x');\n", False),
        ("// fetch the input, then AbortController-style cancel\nconsole.log(1);\n", True),
    ],
)
def test_which_programs_run_warm(code, warm, monkeypatch) -> None:
    monkeypatch.delenv("MOCKLOOP_NODE_WARM", raising=False)
    assert runner.node_warm_fits(code) is warm
    monkeypatch.setenv("MOCKLOOP_NODE_WARM", "0")
    assert runner.node_warm_fits(code) is False


@pytest.fixture(scope="module")
def per_test_engine(images):
    """An engine whose containers start a node per JavaScript test (the old path)."""
    eng = Engine(pool_size=0)
    eng.node_warm = False
    yield eng
    eng.close()


def _run(engine, code: str, tests: list[Test], limits: Limits = LIMITS, **job):
    job = Job(language="javascript", code=code, limits=limits, **job)
    return run_tests(job, tests, engine=engine)


@pytest.mark.integration
def test_the_tests_of_a_submission_share_one_node(clean_host, per_test_engine) -> None:
    warm = _run(clean_host, PID, [Test("", UNCHECKED)] * 3)
    assert len({t.output for t in warm.tests}) == 1, warm.tests
    cold = _run(per_test_engine, PID, [Test("", UNCHECKED)] * 3)
    assert len({t.output for t in cold.tests}) == 3, cold.tests


# Every test looks for what an earlier test could have left, then leaves all of it: a
# global, prototypes (its own realm's and, through Buffer, the host's), a patched fs,
# Buffer, process, console and util, inspect's defaults, an open file, open descriptors,
# a pending timer and interval, a pending fs callback and fs promise, a promise that
# rejects later, and process.exit while all that is pending.
LEAVE_AND_LOOK = """\
const fs = require('fs');
const util = require('util');
const attempt = (f) => { try { return f(); } catch { return undefined; } };
setTimeout(() => {  // a while in: an earlier test's timers would have fired by now
  const seen = [];
  const look = (name, found) => { if (found) seen.push(name); };
  look('global', globalThis.left);
  look('Array.prototype', [].left);
  look('Object.prototype', ({}).left);
  look('fs', fs.left || fs.readFileSync.left || fs.existsSync.left);
  look('Buffer', Buffer.left || Buffer.from('x').left || Buffer.prototype.left);
  look('Uint8Array.prototype', Object.getPrototypeOf(Buffer.prototype).left);
  look('Function.prototype', fs.existsSync.left2);
  look('process', process.hrtime.left || process.stdout.left || process.env.LEFT);
  look('console', console.left);
  look('util', util.left || util.inspect.left);
  look('file', fs.existsSync('/tmp/left'));
  look('descriptor', attempt(() => fs.fstatSync(20) && true));
  look('timer', fs.existsSync('/tmp/late-timer'));
  look('interval', fs.existsSync('/tmp/late-interval'));
  look('callback', fs.existsSync('/tmp/late-callback'));
  look('promise', fs.existsSync('/tmp/late-promise'));
  look('inspect defaults', util.inspect({ a: { b: { c: {} } } }) !== '{ a: { b: { c: {} } } }');
  console.log(process.pid, seen.join(',') || 'clean');
  globalThis.left = 1;
  Array.prototype.left = 1;
  Object.prototype.left = 1;
  attempt(() => { fs.left = 1; });
  attempt(() => { fs.readFileSync.left = 1; });
  attempt(() => { fs.existsSync.left = 1; });
  attempt(() => { Buffer.left = 1; });
  attempt(() => { Buffer.prototype.left = 1; });
  attempt(() => { Object.getPrototypeOf(Buffer.prototype).left = 1; });
  attempt(() => { Object.getPrototypeOf(fs.existsSync).left2 = 1; });
  attempt(() => { fs.existsSync.constructor('this.left = 1')(); });
  process.hrtime.left = 1;
  process.stdout.left = 1;
  process.env.LEFT = '1';
  console.left = 1;
  attempt(() => { util.left = 1; util.inspect.left = 1; });
  const hook = Symbol.for('nodejs.util.inspect.custom');
  const tamper = (depth, options, inspect) => { inspect.defaultOptions = { depth: 0 }; return ''; };
  console.log({ [hook]: tamper });
  fs.writeFileSync('/tmp/left', 'x');
  for (let i = 0; i < 20; i++) attempt(() => fs.openSync('/tmp/left', 'r'));
  setTimeout(() => fs.writeFileSync('/tmp/late-timer', 'x'), 5);
  setInterval(() => fs.writeFileSync('/tmp/late-interval', 'x'), 5);
  fs.readFile('/tmp/left', () => fs.writeFileSync('/tmp/late-callback', 'x'));
  fs.promises.readFile('/tmp/left').then(() => fs.writeFileSync('/tmp/late-promise', 'x'));
  new Promise((resolve, reject) => setTimeout(() => reject(new Error('late')), 5));
  Promise.resolve().then(() => { throw new Error('a rejection of an earlier test'); });
  process.exit(0);
}, 50);
"""


@pytest.mark.integration
def test_nothing_a_test_leaves_reaches_the_next(clean_host, per_test_engine) -> None:
    assert runner.node_warm_fits(LEAVE_AND_LOOK)
    for engine, nodes in ((clean_host, 1), (per_test_engine, 4)):
        result = _run(engine, LEAVE_AND_LOOK, [Test("", UNCHECKED)] * 4)
        pids, seen = zip(*(t.output.split() for t in result.tests), strict=True)
        assert seen == ("clean",) * 4, result.tests
        assert len(set(pids)) == nodes, pids
        assert [t.exit_code for t in result.tests] == [0] * 4
        assert not any(t.stderr for t in result.tests), result.tests


@pytest.mark.integration
def test_an_unhandled_rejection_ends_only_its_own_test(clean_host) -> None:
    code = (
        "const x = require('fs').readFileSync(0, 'utf8');\n"
        "if (x === 'reject') setTimeout(() => Promise.reject(new Error('nope')), 1);\n"
        "console.log('ok');\n"
    )
    tests = [Test("reject", "ok\n"), Test("", "ok\n"), Test("", "ok\n")]
    result = _run(clean_host, code, tests)
    assert [t.verdict for t in result.tests] == ["runtime_error", "accepted", "accepted"]
    assert "Error: nope" in result.tests[0].stderr
    assert not result.tests[1].stderr


@pytest.mark.integration
@pytest.mark.parametrize(
    ("trigger", "verdict"),
    [
        ("for (;;) {}", "time_limit"),
        ("const a = []; for (;;) a.push(new Array(1e6).fill(1));", "memory_limit"),
        ("const s = 'x'.repeat(1 << 16); for (;;) process.stdout.write(s);", "output_limit"),
        ("setInterval(() => {}, 1000);", "time_limit"),
    ],
)
def test_a_test_over_a_limit_ends_its_node_and_the_next_gets_a_new_one(
    trigger, verdict, clean_host
) -> None:
    code = (
        "if (require('fs').readFileSync(0, 'utf8') === 'bad') {\n"
        f"  {trigger}\n"
        "}\nconsole.log(process.pid);\n"
    )
    limits = Limits(time_limit_ms=500, memory_limit_mb=128, wall_time_limit_ms=1500)
    tests = [Test("", UNCHECKED), Test("bad", UNCHECKED), Test("", UNCHECKED)]
    result = _run(clean_host, code, tests, limits=limits, fail_fast=False)
    assert [t.verdict for t in result.tests] == ["accepted", verdict, "accepted"], result.tests
    assert result.tests[0].output != result.tests[2].output  # a new node after the bad test


@pytest.mark.integration
def test_an_infinite_loop_is_stopped_at_its_cpu_limit(clean_host) -> None:
    """The runner watches the warm node's CPU: the loop ends at its CPU limit, long before
    the (here generous) wall-clock limit, whatever the machine's load."""
    limits = Limits(time_limit_ms=500, memory_limit_mb=128, wall_time_limit_ms=20000)
    result = _run(clean_host, "for (;;) {}\n", [Test("", "")] * 3, limits=limits)
    first = result.tests[0]
    assert first.verdict == "time_limit", result.tests
    assert [t.verdict for t in result.tests[1:]] == ["skipped", "skipped"]
    assert first.wall_ms < 15000, first


@pytest.mark.integration
def test_function_mode_runs_warm(clean_host) -> None:
    code = (
        "let calls = 0;\n"
        "function solve(nums, k) { calls++; console.log('debug'); return [nums.length * k, calls,"
        " process.pid]; }\n"
    )
    tests = [Test([[1, 2], 3], UNCHECKED), Test([[1], 2], UNCHECKED)]
    result = _run(clean_host, code, tests, io="function", entrypoint="solve")
    outs = [t.output for t in result.tests]
    assert outs[0].startswith("[6,1,") and outs[1].startswith("[2,1,"), outs
    assert outs[0].split(",")[2] == outs[1].split(",")[2]  # one node
    assert all("debug" in t.stderr for t in result.tests)


WARM_SEMANTICS = {name: case for name, case in SEMANTICS.items() if runner.node_warm_fits(case[0])}


@pytest.mark.integration
@pytest.mark.parametrize("name", list(WARM_SEMANTICS))
def test_warm_node_runs_the_script_as_plain_node_does(name, clean_host, per_test_engine) -> None:
    code, stdin, verdict, exit_code, stdout, in_stderr = WARM_SEMANTICS[name]
    for how, engine in (("warm", clean_host), ("per test", per_test_engine)):
        test = _run(engine, code, [Test(stdin, UNCHECKED)] * 2).tests[1]
        assert (test.verdict, test.exit_code) == (verdict, exit_code), (how, test)
        if stdout is not None:
            assert test.output == stdout, (how, test)
        for text in in_stderr:
            assert text in test.stderr, (how, text, test.stderr)
