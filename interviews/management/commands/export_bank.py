"""`manage.py export_bank [PATH]`: write the bank (newest version of every question, every
rubric and loop template) as YAML to PATH, or to stdout."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandParser

from interviews.selectors.bank import bank_export_yaml


class Command(BaseCommand):
    help = "Export the bank as one YAML file (to PATH, or to stdout without one)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", nargs="?", help="file to write; stdout when omitted")

    def handle(self, *args, path: str | None, **options) -> None:
        text = bank_export_yaml()
        if path is None:
            self.stdout.write(text, ending="")
            return
        Path(path).write_text(text, encoding="utf-8")
        self.stderr.write(f"Wrote {path}")
