"""The server's catalogues (locale/*/LC_MESSAGES/django.po) translate every string the code
marks: `makemessages` run over the code (into a copy, never the real files) and merged
with each catalogue leaves nothing untranslated or fuzzy."""

import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command

from mockloop.env import BASE_DIR

CATALOGUES = ("zh_Hans", "zh_Hant")
#: Where marked strings live: the app and the settings package.
SOURCES = ("interviews", "mockloop")

pytestmark = pytest.mark.skipif(
    shutil.which("xgettext") is None, reason="GNU gettext is not installed (make setup)"
)


def _msgids(po_text: str) -> list[str]:
    """The msgids `msgattrib` printed (one per entry, continuation lines joined)."""
    ids, current = [], None
    for line in po_text.splitlines():
        if line.startswith("msgid "):
            current = [line[len("msgid ") :].strip('"')]
        elif current is not None and line.startswith('"'):
            current.append(line.strip('"'))
        elif current is not None:
            ids.append("".join(current))
            current = None
    return [msgid for msgid in ids if msgid]


@pytest.fixture
def extracted(tmp_path, settings, monkeypatch) -> Path:
    """A tree of links to the sources beside a copy of the catalogues; makemessages merges
    the code's msgids into the copy."""
    for name in SOURCES:
        (tmp_path / name).symlink_to(BASE_DIR / name)
    for catalogue in CATALOGUES:
        target = tmp_path / "locale" / catalogue / "LC_MESSAGES"
        target.mkdir(parents=True)
        shutil.copy(BASE_DIR / "locale" / catalogue / "LC_MESSAGES" / "django.po", target)
    settings.LOCALE_PATHS = [str(tmp_path / "locale")]
    monkeypatch.chdir(tmp_path)
    call_command(
        "makemessages",
        locale=list(CATALOGUES),
        extensions=["py", "html", "txt"],
        symlinks=True,
        no_location=True,
        no_obsolete=True,
        ignore_patterns=["migrations/*", "__pycache__/*"],
        verbosity=0,
    )
    return tmp_path / "locale"


@pytest.mark.parametrize("catalogue", CATALOGUES)
def test_every_marked_string_is_translated(extracted, catalogue):
    po = extracted / catalogue / "LC_MESSAGES" / "django.po"
    missing = {}
    for flag in ("--untranslated", "--only-fuzzy"):
        result = subprocess.run(
            ["msgattrib", flag, "--no-obsolete", str(po)],
            capture_output=True,
            text=True,
            check=True,
        )
        missing[flag] = _msgids(result.stdout)
    assert missing == {"--untranslated": [], "--only-fuzzy": []}, (
        "refresh and translate the catalogues: see docs/operations.md, 'Translations'"
    )


def test_the_check_sees_a_string_the_catalogues_lack(tmp_path, settings, monkeypatch):
    """The same extraction over a module with a new sentence reports it."""
    package = tmp_path / "newcode"
    package.mkdir()
    (package / "strings.py").write_text(
        "from django.utils.translation import gettext as _\n\n"
        'MESSAGE = _("A sentence nobody has translated yet.")\n'
    )
    target = tmp_path / "locale" / "zh_Hans" / "LC_MESSAGES"
    target.mkdir(parents=True)
    shutil.copy(BASE_DIR / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po", target)
    settings.LOCALE_PATHS = [str(tmp_path / "locale")]
    monkeypatch.chdir(tmp_path)
    call_command("makemessages", locale=["zh_Hans"], no_location=True, verbosity=0)
    result = subprocess.run(
        ["msgattrib", "--untranslated", str(target / "django.po")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert _msgids(result.stdout) == ["A sentence nobody has translated yet."]
