"""The built frontend is served compressed, and its hashed assets with immutable caching:
the 829 KB main script went uncompressed with `max-age=0` on every page load."""

import re

import pytest
from django.conf import settings

pytestmark = pytest.mark.skipif(
    not (settings.FRONTEND_DIST / "index.html").exists(), reason="frontend not built"
)


def _main_script(client) -> str:
    shell = client.get("/")
    assert shell.status_code == 200
    assert "no-cache" in shell["Cache-Control"]  # the shell names this build's assets
    match = re.search(r'<script[^>]+src="(/static/assets/[^"]+\.js)"', shell.content.decode())
    assert match, "index.html names no hashed script"
    return match.group(1)


@pytest.mark.parametrize("encoding", ["br", "gzip"])
def test_hashed_assets_are_compressed_and_cached_for_a_year(client, encoding):
    url = _main_script(client)
    plain = client.get(url)
    assert plain.status_code == 200
    size = len(b"".join(plain.streaming_content))

    response = client.get(url, HTTP_ACCEPT_ENCODING=f"{encoding}, identity")

    assert response.status_code == 200
    assert response["Content-Encoding"] == encoding, (
        "no compressed copy beside the build: scripts/setup.sh runs whitenoise.compress"
    )
    assert "Accept-Encoding" in response["Vary"]
    assert len(b"".join(response.streaming_content)) < size / 2
    cache = response["Cache-Control"]
    assert "immutable" in cache
    assert int(re.search(r"max-age=(\d+)", cache).group(1)) >= 365 * 24 * 3600


def test_unhashed_files_are_not_cached_as_immutable(client):
    """Only Vite's `<name>-<hash>.<ext>` files are forever; a fixed name may change."""
    fonts = settings.FRONTEND_DIST / "excalidraw-assets"
    unhashed = next((p for p in fonts.rglob("*") if p.is_file()), None) if fonts.exists() else None
    if unhashed is None:
        pytest.skip("no unhashed static file in this build")
    url = "/static/" + unhashed.relative_to(settings.FRONTEND_DIST).as_posix()
    response = client.get(url)
    assert response.status_code == 200
    assert "immutable" not in response["Cache-Control"]
