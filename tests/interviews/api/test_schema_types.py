"""`frontend/src/api/schema.d.ts` is what `npm run gen:api` (drf-spectacular's OpenAPI, then
openapi-typescript) writes from the API as it is now: CI fails while it is stale.

The schema is generated without `DATABASE_URL`, here and in `gen:api`: Django gives integer
fields the database's value range as validators (none on SQLite, 32/64-bit on PostgreSQL),
and drf-spectacular turns those into `format: int64`, so the file would depend on the
database the generator happened to see."""

import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

BASE_DIR = Path(settings.BASE_DIR)
FRONTEND = BASE_DIR / "frontend"


def _spectacular(target: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    subprocess.run(
        [sys.executable, "manage.py", "spectacular", "--file", str(target)],
        check=True,
        capture_output=True,
        cwd=BASE_DIR,
        env={**env, "MOCKLOOP_TESTING": "1"},
        timeout=120,
    )


def test_the_frontends_api_types_are_current(tmp_path: Path):
    first, second = tmp_path / "schema.yaml", tmp_path / "again.yaml"
    _spectacular(first)
    _spectacular(second)
    assert first.read_bytes() == second.read_bytes()
    generated = tmp_path / "schema.d.ts"
    subprocess.run(
        [FRONTEND / "node_modules/.bin/openapi-typescript", first, "-o", generated],
        check=True,
        capture_output=True,
        cwd=FRONTEND,
        timeout=120,
    )
    committed = (FRONTEND / "src/api/schema.d.ts").read_text(encoding="utf-8")
    assert committed == generated.read_text(encoding="utf-8"), (
        "frontend/src/api/schema.d.ts is stale: run `npm run gen:api` in frontend/"
    )
