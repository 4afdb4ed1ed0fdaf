"""Each module of the API package imports on its own, first, in a fresh interpreter.

The circle `errors` → DRF's views → DRF's settings → `parsers` → `errors` broke only when
`errors` was imported before anything else loaded DRF's views; a fresh process per module
is what finds such circles.
"""

import pkgutil
import subprocess
import sys

import pytest

import interviews.api

MODULES = sorted(
    info.name for info in pkgutil.iter_modules(interviews.api.__path__, "interviews.api.")
)
SCRIPT = "import django, importlib, sys; django.setup(); importlib.import_module(sys.argv[1])"


@pytest.mark.parametrize("module", MODULES)
def test_module_imports_first(module: str):
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, module], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr[-2000:]
