"""`manage.py generate_event_types [--output PATH]`: write the browser's TypeScript types
for the live-room protocol from `interviews/realtime/event_types.py` (by default to
frontend/src/ws/events.gen.ts, which the frontend imports)."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from interviews.realtime import typescript


class Command(BaseCommand):
    help = "Generate frontend/src/ws/events.gen.ts from the declared event types."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--output", help=f"file to write (default: {typescript.OUTPUT} in the project)"
        )

    def handle(self, *args, output: str | None, **options) -> None:
        path = Path(output) if output else Path(settings.BASE_DIR) / typescript.OUTPUT
        path.write_text(typescript.render(), encoding="utf-8")
        self.stderr.write(f"Wrote {path}")
