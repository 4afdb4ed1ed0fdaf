"""`frontend/src/api/schema.d.ts` is what `npm run gen:api` (drf-spectacular's OpenAPI, then
openapi-typescript) writes from the API as it is now: CI fails while it is stale."""

import subprocess
from pathlib import Path

from django.conf import settings
from django.core.management import call_command

FRONTEND = Path(settings.BASE_DIR) / "frontend"


def test_the_frontends_api_types_are_current(tmp_path: Path):
    first, second = tmp_path / "schema.yaml", tmp_path / "again.yaml"
    call_command("spectacular", file=str(first))
    call_command("spectacular", file=str(second))
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
