"""Correct, wrong and slow solutions in each language get the right verdicts (real Docker)."""

from __future__ import annotations

import pytest

from sandbox import UNCHECKED, Job, Limits, Test, run_tests

pytestmark = pytest.mark.integration

LIMITS = Limits(time_limit_ms=1000, memory_limit_mb=128, wall_time_limit_ms=2000)

# stdio: read n, then n integers; print their sum and max on two lines
STDIO_TESTS = [
    Test("3\n1 2 3\n", "6\n3\n"),
    Test("1\n-5\n", "-5\n-5\n"),
    Test("4\n10 20 30 40\n", "100\n40\n"),
]
STDIO = {
    "python": {
        "correct": "n = int(input())\nxs = list(map(int, input().split()))\n"
        "print(sum(xs))\nprint(max(xs))\n",
        "wrong": "n = int(input())\nxs = list(map(int, input().split()))\n"
        "print(sum(xs))\nprint(min(xs))\n",
        "slow": "n = int(input())\nxs = list(map(int, input().split()))\nwhile True:\n    pass\n",
    },
    "javascript": {
        "correct": "const [n, ...xs] = require('fs').readFileSync(0, 'utf8').trim().split(/\\s+/)"
        ".map(Number);\nconsole.log(xs.reduce((a, b) => a + b, 0));\n"
        "console.log(Math.max(...xs));\n",
        "wrong": "const [n, ...xs] = require('fs').readFileSync(0, 'utf8').trim().split(/\\s+/)"
        ".map(Number);\nconsole.log(xs.reduce((a, b) => a + b, 0) + 1);\n"
        "console.log(Math.max(...xs));\n",
        "slow": "let x = 0; for (;;) { x++; }\n",
    },
    "cpp": {
        "correct": "#include <bits/stdc++.h>\nusing namespace std;\nint main(){ int n; cin >> n;"
        " long long s = 0, m = LLONG_MIN; for (int i = 0; i < n; i++) { long long x; cin >> x;"
        " s += x; m = max(m, x); } cout << s << '\\n' << m << '\\n'; }\n",
        "wrong": "#include <bits/stdc++.h>\nusing namespace std;\nint main(){ int n; cin >> n;"
        " long long s = 0; for (int i = 0; i < n; i++) { long long x; cin >> x; s += x; }"
        " cout << s << '\\n' << 0 << '\\n'; }\n",
        "slow": "int main(){ volatile unsigned long x = 0; for (;;) x++; }\n",
    },
    "go": {
        "correct": 'package main\n\nimport (\n\t"bufio"\n\t"fmt"\n\t"os"\n)\n\n'
        "func main() {\n\tr := bufio.NewReader(os.Stdin)\n\tvar n int\n\tfmt.Fscan(r, &n)\n"
        "\ts, m := 0, -1<<62\n\tfor i := 0; i < n; i++ {\n\t\tvar x int\n\t\tfmt.Fscan(r, &x)\n"
        "\t\ts += x\n\t\tif x > m {\n\t\t\tm = x\n\t\t}\n\t}\n\tfmt.Println(s)\n"
        "\tfmt.Println(m)\n}\n",
        "wrong": 'package main\n\nimport "fmt"\n\nfunc main() {\n\tvar n, s int\n'
        "\tfmt.Scan(&n)\n\tfor i := 0; i < n; i++ {\n\t\tvar x int\n\t\tfmt.Scan(&x)\n"
        "\t\ts += x\n\t}\n\tfmt.Println(s)\n\tfmt.Println(0)\n}\n",
        "slow": "package main\n\nfunc main() {\n\tx := 0\n\tfor {\n\t\tx++\n\t}\n}\n",
    },
}
EXPECTED = {"correct": "accepted", "wrong": "wrong_answer", "slow": "time_limit"}


@pytest.mark.parametrize("kind", ["correct", "wrong", "slow"])
@pytest.mark.parametrize("language", ["python", "javascript", "cpp", "go"])
def test_stdio_solutions(language, kind, clean_host):
    job = Job(language=language, code=STDIO[language][kind], limits=LIMITS, checker="exact")
    tests = STDIO_TESTS[:1] if kind == "slow" else STDIO_TESTS
    result = run_tests(job, tests, engine=clean_host)
    assert result.verdict == EXPECTED[kind], (result.error, result.tests, result.compile_output)
    if kind == "correct":
        assert result.passed == result.total == 3
        assert all(t.time_ms < LIMITS.time_limit_ms and t.memory_kb > 0 for t in result.tests)
    if kind == "wrong":
        assert result.tests[0].message


# function: two_sum(nums, target) -> sorted indices of the pair
FUNCTION_TESTS = [
    Test([[2, 7, 11, 15], 9], [0, 1]),
    Test("[[3, 2, 4], 6]", [1, 2]),  # JSON text input is accepted too
    Test([[1, 5, 5], 10], [1, 2]),
]
FUNCTION = {
    "python": {
        "correct": "def two_sum(nums, target):\n    seen = {}\n    print('debug output is fine')\n"
        "    for i, x in enumerate(nums):\n        if target - x in seen:\n"
        "            return [seen[target - x], i]\n        seen[x] = i\n",
        "wrong": "def two_sum(nums, target):\n    return [0, 0]\n",
        "slow": "def two_sum(nums, target):\n    while True:\n        pass\n",
    },
    "javascript": {
        "correct": "function two_sum(nums, target) {\n  console.log('debug output is fine');\n"
        "  const seen = new Map();\n  for (let i = 0; i < nums.length; i++) {\n"
        "    if (seen.has(target - nums[i])) return [seen.get(target - nums[i]), i];\n"
        "    seen.set(nums[i], i);\n  }\n}\n",
        "wrong": "module.exports = { two_sum: (nums, target) => [0, 0] };\n",
        "slow": "module.exports = { two_sum() { for (;;) {} } };\n",
    },
    # Compiled languages: the parameters' types say how the JSON arguments convert.
    "cpp": {
        "correct": "#include <bits/stdc++.h>\nusing namespace std;\n"
        "vector<int> two_sum(const vector<long long>& nums, long long target) {\n"
        '  cout << "debug output is fine" << endl;\n  unordered_map<long long, int> seen;\n'
        "  for (int i = 0; i < (int)nums.size(); i++) {\n"
        "    auto it = seen.find(target - nums[i]);\n"
        "    if (it != seen.end()) return {it->second, i};\n    seen[nums[i]] = i;\n  }\n"
        "  return {};\n}\n",
        "wrong": "#include <vector>\nstd::vector<int> two_sum(std::vector<int> nums, int target)"
        " { return {0, 0}; }\n",
        "slow": "#include <vector>\nstd::vector<int> two_sum(std::vector<int> nums, int target)"
        " { volatile unsigned long x = 0; for (;;) x++; }\n",
    },
    "go": {
        "correct": 'package main\n\nimport "fmt"\n\nfunc two_sum(nums []int, target int) []int {\n'
        '\tfmt.Println("debug output is fine")\n\tseen := map[int]int{}\n'
        "\tfor i, x := range nums {\n\t\tif j, ok := seen[target-x]; ok {\n"
        "\t\t\treturn []int{j, i}\n\t\t}\n\t\tseen[x] = i\n\t}\n\treturn nil\n}\n",
        "wrong": "package main\n\nfunc two_sum(nums []int, target int) []int {\n"
        "\treturn []int{0, 0}\n}\n",
        "slow": "package main\n\nfunc two_sum(nums []int, target int) []int {\n"
        "\tx := 0\n\tfor {\n\t\tx++\n\t}\n}\n",
    },
}


@pytest.mark.parametrize("kind", ["correct", "wrong", "slow"])
@pytest.mark.parametrize("language", ["python", "javascript", "cpp", "go"])
def test_function_solutions(language, kind, clean_host):
    job = Job(
        language=language,
        code=FUNCTION[language][kind],
        io="function",
        entrypoint="two_sum",
        limits=LIMITS,
    )
    tests = FUNCTION_TESTS[:1] if kind == "slow" else FUNCTION_TESTS
    result = run_tests(job, tests, engine=clean_host)
    assert result.verdict == EXPECTED[kind], (result.error, result.tests)
    if kind == "correct":
        assert "debug output is fine" in result.tests[0].stderr


def test_function_flavours(clean_host):
    """Solution class (Python), module.exports function, async function, float tolerance."""
    cases = [
        ("python", "class Solution:\n    def area(self, r):\n        return 3.14159265 * r * r\n"),
        ("javascript", "module.exports = (r) => Math.PI * r * r;\n"),
        ("javascript", "async function area(r) { return Math.PI * r * r; }\n"),
        ("javascript", "const area = (r) => Math.PI * r * r;\n"),
    ]
    for language, code in cases:
        job = Job(
            language=language,
            code=code,
            io="function",
            entrypoint="area",
            checker="float:1e-6",
            limits=LIMITS,
        )
        result = run_tests(job, [Test([2], 12.566370614359172)], engine=clean_host)
        assert result.verdict == "accepted", (language, code, result.tests)


COMPILED_TALLY = {
    # Mixed lists come in as nlohmann::json; a std::map goes back as a JSON object.
    "cpp": "#include <map>\n#include <nlohmann/json.hpp>\n#include <string>\n"
    "using json = nlohmann::json;\n"
    "std::map<std::string, long long> tally(const json& ops, int scale) {\n"
    "  std::map<std::string, long long> out;\n"
    "  for (const auto& op : ops)\n"
    "    out[op[0].get<std::string>()] += op[1].get<long long>() * scale;\n"
    "  return out;\n}\n",
    "go": "package main\n\nfunc tally(ops [][]interface{}, scale int) map[string]int {\n"
    "\tout := map[string]int{}\n\tfor _, op := range ops {\n"
    "\t\tout[op[0].(string)] += int(op[1].(float64)) * scale\n\t}\n\treturn out\n}\n",
}


@pytest.mark.parametrize("language", ["cpp", "go"])
def test_compiled_function_mode_converts_json_both_ways(language, clean_host):
    job = Job(
        language=language,
        code=COMPILED_TALLY[language],
        io="function",
        entrypoint="tally",
        checker="exact",
        limits=LIMITS,
    )
    test = Test([[["a", 1], ["b", 2], ["a", 3]], 10], {"a": 40, "b": 20})
    result = run_tests(job, [test], engine=clean_host)
    assert result.verdict == "accepted", (result.compile_output, result.tests)


@pytest.mark.parametrize(
    ("language", "code", "says"),
    [
        ("cpp", "int other() { return 1; }\n", "solve"),
        ("go", "package main\n\nfunc other() int { return 1 }\n", "undefined: solve"),
    ],
)
def test_compiled_function_mode_without_the_entrypoint_does_not_compile(
    language, code, says, clean_host
):
    job = Job(language=language, code=code, io="function", entrypoint="solve", limits=LIMITS)
    result = run_tests(job, [Test([], None)], engine=clean_host)
    assert result.verdict == "compile_error"
    assert says in result.compile_output


@pytest.mark.parametrize(
    ("language", "code"),
    [
        ("cpp", "int solve(int a) { return a; }\n"),
        ("go", "package main\n\nfunc solve(a int) int { return a }\n"),
    ],
)
def test_compiled_function_mode_says_when_the_arguments_do_not_fit(language, code, clean_host):
    job = Job(language=language, code=code, io="function", entrypoint="solve", limits=LIMITS)
    result = run_tests(job, [Test([1, 2], 1), Test(["x"], 1)], engine=clean_host)
    assert result.verdict == "runtime_error"
    assert "takes 1 arguments; the test passes 2" in result.tests[0].stderr


def test_function_missing_entrypoint_is_a_runtime_error(clean_host):
    job = Job(
        language="python",
        code="def other():\n    pass\n",
        io="function",
        entrypoint="solve",
        limits=LIMITS,
    )
    result = run_tests(job, [Test([], None)], engine=clean_host)
    assert result.verdict == "runtime_error"
    assert "no function named 'solve'" in result.tests[0].stderr


def test_python_syntax_error_is_a_compile_error(clean_host):
    job = Job(language="python", code="def f(:\n    pass\n", limits=LIMITS)
    result = run_tests(job, [Test("", ""), Test("", "")], engine=clean_host)
    assert result.verdict == "compile_error"
    assert "SyntaxError" in result.compile_output
    assert [t.verdict for t in result.tests] == ["compile_error", "compile_error"]


def test_unchecked_run_shows_the_output(clean_host):
    job = Job(language="python", code="print(input()[::-1])\n", limits=LIMITS)
    result = run_tests(job, [Test("abc\n", UNCHECKED)], engine=clean_host)
    assert result.verdict == "accepted"
    assert result.tests[0].output == "cba\n"


def test_each_test_is_judged_and_reported_in_order(clean_host):
    code = "x = int(input())\nif x == 2:\n    raise SystemExit(1)\nprint(x * 2)\n"
    job = Job(language="python", code=code, limits=LIMITS)
    tests = [Test("1\n", "2\n"), Test("2\n", "4\n"), Test("3\n", "7\n"), Test("4\n", "8\n")]
    seen = []
    result = run_tests(job, tests, engine=clean_host, on_test=lambda t: seen.append(t.index))
    assert [t.verdict for t in result.tests] == [
        "accepted",
        "runtime_error",
        "wrong_answer",
        "accepted",
    ]
    assert result.verdict == "runtime_error"
    assert seen == [0, 1, 2, 3]
    assert (result.passed, result.total) == (2, 4)


def test_large_input_and_output_round_trip(clean_host):
    data = "\n".join(str(i) for i in range(300_000)) + "\n"
    job = Job(
        language="python", code="import sys\nsys.stdout.write(sys.stdin.read())\n", limits=LIMITS
    )
    result = run_tests(job, [Test(data, data)], engine=clean_host)
    assert result.verdict == "accepted"
    assert result.tests[0].output_truncated


def test_memory_is_measured(clean_host):
    code = "x = bytearray(60 * 1024 * 1024)\nfor i in range(0, len(x), 4096):\n    x[i] = 1\n"
    job = Job(language="python", code=code, limits=LIMITS)
    result = run_tests(job, [Test("", "")], engine=clean_host)
    assert result.verdict == "accepted"
    assert 60 * 1024 < result.tests[0].memory_kb < 100 * 1024
    low = Limits(time_limit_ms=1000, memory_limit_mb=40)
    result = run_tests(
        Job(language="python", code=code, limits=low), [Test("", "")], engine=clean_host
    )
    assert result.verdict == "memory_limit"


def test_go_runs_on_the_container_cpus_without_the_compilers_files(clean_host):
    """GOMAXPROCS follows the container's CPU quota (Go 1.19 would size it from the
    host's CPUs); the build cache is gone and no build setting reaches the program."""
    code = (
        'package main\n\nimport (\n\t"fmt"\n\t"os"\n\t"runtime"\n\t"sort"\n)\n\n'
        'func main() {\n\td, _ := os.ReadDir("/tmp")\n\tw, _ := os.ReadDir("/work")\n'
        "\tnames := []string{}\n\tfor _, e := range append(d, w...) {\n"
        "\t\tnames = append(names, e.Name())\n\t}\n\tsort.Strings(names)\n"
        '\tfmt.Println(runtime.GOMAXPROCS(0), os.Getenv("GOCACHE") == "", names)\n}\n'
    )
    job = Job(language="go", code=code, limits=Limits(time_limit_ms=1000, cpus=1.0))
    result = run_tests(job, [Test("", "1 true [main main.go]\n")], engine=clean_host)
    assert result.verdict == "accepted", (result.tests, result.compile_output)


def test_go_goroutines_fit_in_the_pids_limit(clean_host):
    """10,000 goroutines that sleep, send and allocate (GC on) run on a handful of
    threads: the pids limit (64, threads included) leaves a normal Go program alone."""
    code = (
        'package main\n\nimport (\n\t"fmt"\n\t"os"\n\t"strings"\n\t"sync"\n\t"time"\n)\n\n'
        "func main() {\n\tvar wg sync.WaitGroup\n\tc := make(chan int, 100)\n"
        "\tfor i := 0; i < 10000; i++ {\n\t\twg.Add(1)\n\t\tgo func(i int) {\n"
        "\t\t\tdefer wg.Done()\n\t\t\ttime.Sleep(time.Millisecond)\n"
        "\t\t\t_ = make([]byte, 64<<10)\n\t\t\tc <- i\n\t\t}(i)\n\t}\n"
        "\tgo func() { wg.Wait(); close(c) }()\n\ts := 0\n\tfor v := range c {\n\t\ts += v\n\t}\n"
        '\tstatus, _ := os.ReadFile("/proc/self/status")\n\tthreads := 0\n'
        '\tfor _, l := range strings.Split(string(status), "\\n") {\n'
        '\t\tif strings.HasPrefix(l, "Threads:") {\n\t\t\tfmt.Sscan(l[8:], &threads)\n\t\t}\n\t}\n'
        '\tfmt.Println(s)\n\tfmt.Fprintln(os.Stderr, "threads", threads)\n}\n'
    )
    job = Job(language="go", code=code, limits=LIMITS)
    result = run_tests(job, [Test("", "49995000\n")], engine=clean_host)
    assert result.verdict == "accepted", (result.tests, result.compile_output)
    threads = int(result.tests[0].stderr.split()[1])
    assert threads < 16, result.tests[0].stderr
