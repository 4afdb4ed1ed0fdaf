"""`manage.py import_bank FILE_OR_DIR [--no-verify | --verify-here]`: import a bank, all or
nothing. Reference solutions run on the judge worker (this process may have no Docker
engine, as the web container in production), or in this process with `--verify-here`."""

from django.core.management.base import BaseCommand, CommandError, CommandParser

from interviews.bankfile.format import BankValidationError
from interviews.judging.verification import VerificationUnavailable
from interviews.services.bank_import import bank_import


class Command(BaseCommand):
    help = (
        "Import questions, rubrics and loop templates from a bank YAML file or a directory "
        "of them. Everything is validated first and every problem is reported; nothing is "
        "imported unless all of it is valid (and, without --no-verify, unless every coding "
        "reference solution passes its hidden tests in the sandbox)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="a bank .yaml file, or a directory of them")
        parser.add_argument(
            "--no-verify",
            action="store_true",
            help="skip running reference solutions in the sandbox; versions stay unverified",
        )
        parser.add_argument(
            "--verify-here",
            action="store_true",
            help="run the reference solutions in this process's sandbox (needs the Docker "
            "engine) instead of on the judge worker, e.g. before any worker runs",
        )

    def handle(self, *args, path: str, no_verify: bool, verify_here: bool, **options) -> None:
        try:
            result = bank_import(path, verify=not no_verify, verify_here=verify_here)
        except BankValidationError as exc:
            for issue in exc.issues:
                self.stderr.write(str(issue))
            raise CommandError(exc.message) from exc
        except VerificationUnavailable as exc:
            raise CommandError(
                f"{exc.message} Rerun with --no-verify to import unverified versions."
            ) from exc
        self.stdout.write(f"Imported {path}")
        self.stdout.write(result.summary())
