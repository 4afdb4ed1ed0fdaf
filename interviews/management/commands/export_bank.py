"""`manage.py export_bank [PATH]`: write the bank (newest version of every question, every
rubric and loop template) as YAML to PATH, or to stdout."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandParser

from interviews.selectors.bank import bank_export_chunks


class Command(BaseCommand):
    help = "Export the bank as one YAML file (to PATH, or to stdout without one)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", nargs="?", help="file to write; stdout when omitted")

    def handle(self, *args, path: str | None, **options) -> None:
        # Chunk by chunk: a large bank is never held in memory whole.
        if path is None:
            for chunk in bank_export_chunks():
                self.stdout.write(chunk, ending="")
            return
        with Path(path).open("w", encoding="utf-8") as file:
            for chunk in bank_export_chunks():
                file.write(chunk)
        self.stderr.write(f"Wrote {path}")
