"""The browser's event types are generated from `event_types.py`, deterministically, and
the committed file is what the generator writes now (CI fails while it is stale: run
`python manage.py generate_event_types`)."""

from pathlib import Path

from django.conf import settings
from django.core.management import call_command

from interviews.realtime import typescript


def test_generated_event_types_are_current(tmp_path: Path):
    first, second = tmp_path / "first.ts", tmp_path / "second.ts"
    call_command("generate_event_types", output=str(first))
    call_command("generate_event_types", output=str(second))
    assert first.read_bytes() == second.read_bytes()
    committed = Path(settings.BASE_DIR) / typescript.OUTPUT
    assert committed.read_text(encoding="utf-8") == first.read_text(encoding="utf-8"), (
        f"{typescript.OUTPUT} is stale: run `python manage.py generate_event_types`"
    )


def test_every_logged_and_unlogged_type_has_a_typescript_type():
    text = typescript.render()
    for name in ("LoggedEvent", "ServerMessage", "ClientMessage", "StageStatusEvent"):
        assert f"export type {name} =" in text
    integrity = 'type: "integrity"; private: true } & (PasteSignal | BlurSignal);'
    assert f"export type IntegrityEvent = EventEnvelope & {{ {integrity}" in text
