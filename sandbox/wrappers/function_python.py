"""Function-mode wrapper for Python: ``python3 function_python.py ENTRYPOINT SOURCE``.

Reads the JSON array of arguments from stdin, runs SOURCE (with ``__name__`` set to
``"solution"`` so a ``__main__`` guard does not fire), calls the top-level function
ENTRYPOINT (or ``Solution().ENTRYPOINT``), and writes its JSON return value to stdout.
Anything the solution prints goes to stderr, so it cannot corrupt the answer.
"""

import json
import os
import sys


def _jsonable(value):
    if isinstance(value, set | frozenset):
        return sorted(value, key=repr)
    if hasattr(value, "__iter__") and not isinstance(value, str | bytes | dict):
        return list(value)
    raise TypeError(f"return value of type {type(value).__name__} is not JSON serialisable")


def main() -> int:
    name, path = sys.argv[1], sys.argv[2]
    args = json.loads(sys.stdin.buffer.read() or b"[]")
    answer_fd = os.dup(1)
    os.dup2(2, 1)  # the solution's prints land on stderr
    sys.argv = [path]
    with open(path, encoding="utf-8") as fh:
        code = compile(fh.read(), path, "exec")
    namespace = {"__name__": "solution", "__file__": path, "__builtins__": __builtins__}
    exec(code, namespace)
    fn = namespace.get(name)
    if not callable(fn) and isinstance(namespace.get("Solution"), type):
        fn = getattr(namespace["Solution"](), name, None)
    if not callable(fn):
        print(f"no function named {name!r} is defined", file=sys.stderr)
        return 1
    result = fn(*args) if isinstance(args, list) else fn(args)
    sys.stdout.flush()
    text = json.dumps(result, default=_jsonable)
    os.write(answer_fd, text.encode() + b"\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
