"""The production compose file is valid and has what operations rely on."""

import os
import re
import shutil
import subprocess
from pathlib import Path

import yaml

from mockloop.env import BASE_DIR


def _compose_config(tmp_path) -> dict:
    shutil.copy(BASE_DIR / "docker-compose.yml", tmp_path / "docker-compose.yml")
    shutil.copy(BASE_DIR / ".env.example", tmp_path / ".env")
    shutil.copytree(BASE_DIR / "deploy", tmp_path / "deploy")  # build contexts must exist
    if shutil.which("docker-compose"):
        command = ["docker-compose", "config"]
    else:
        command = ["docker", "compose", "config"]
    out = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return yaml.safe_load(out.stdout)


def test_compose_config_is_valid_and_complete(tmp_path):
    config = _compose_config(tmp_path)
    services = config["services"]
    assert {"web", "worker", "beat", "redis", "postgres", "migrate", "images"} <= set(services)
    for name in ("web", "worker", "redis", "postgres"):
        assert "healthcheck" in services[name], name
        assert services[name]["restart"] == "unless-stopped", name
    assert "/var/run/docker.sock:/var/run/docker.sock" in str(services["worker"]["volumes"])
    assert "docker.sock" not in str(services["web"].get("volumes", ""))
    assert services["web"]["environment"]["REDIS_URL"] == "redis://redis:6379/0"
    assert "pgdata" in config["volumes"]
    depends = services["web"]["depends_on"]
    assert depends["postgres"]["condition"] == "service_healthy"


def test_the_call_relay_is_debians_coturn_with_the_webs_secret(tmp_path):
    """The `coturn` service builds from Debian's package and reads the TURN secret from the
    same .env as web (which issues credentials with it), never from its command line."""
    config = _compose_config(tmp_path)
    coturn = config["services"]["coturn"]
    assert coturn["restart"] == "unless-stopped"
    assert coturn["network_mode"] == "host"
    context = BASE_DIR / "deploy" / "coturn"
    assert Path(coturn["build"]["context"]).name == "coturn"
    dockerfile = (context / "Dockerfile").read_text()
    assert re.search(r"apt-get install .*\bcoturn\b", dockerfile)
    assert "use-auth-secret" in (context / "turnserver.conf").read_text()
    env = (BASE_DIR / ".env.example").read_text()
    assert "RTC_TURN_SECRET=" in env and "RTC_TURN_URLS=" in env
    secret = re.search(r"^RTC_TURN_SECRET=(.*)$", env, re.M).group(1)
    assert coturn["environment"]["RTC_TURN_SECRET"] == secret  # from .env, as web's
    assert config["services"]["web"]["environment"]["RTC_TURN_SECRET"] == secret
    assert secret not in str(coturn.get("command", ""))


def test_the_image_carries_the_bank_that_migrate_imports_and_not_its_generator():
    """compose's `migrate` imports the shipped bank from the image's working directory, so
    the Dockerfile copies that directory; the bank generator (tools/) stays out."""
    compose = yaml.safe_load((BASE_DIR / "docker-compose.yml").read_text())
    command = " ".join(compose["services"]["migrate"]["command"])
    bank = re.search(r"import_bank (\S+)", command).group(1)
    assert list((BASE_DIR / bank).glob("*.yaml"))
    dockerfile = (BASE_DIR / "Dockerfile").read_text()
    copies = re.findall(r"^COPY (?!--)(\S+) (\S+)$", dockerfile, re.M)
    assert (f"{bank}/", f"{bank}/") in copies
    assert not [source for source, _ in copies if source.startswith("tools")]
    assert "tools" in (BASE_DIR / ".dockerignore").read_text().split()


def test_the_offline_override_swaps_only_the_images(tmp_path):
    """deploy/offline/docker-compose.offline.yml runs the images deploy/offline/build.py
    makes (pinned by MOCKLOOP_OFFLINE_*_IMAGE) and keeps every command and health check."""
    base = _compose_config(tmp_path)["services"]
    env = {
        **os.environ,
        "MOCKLOOP_OFFLINE_APP_IMAGE": "mockloop-offline-app:abc",
        "MOCKLOOP_OFFLINE_POSTGRES_IMAGE": "mockloop-offline-postgres:def",
        "MOCKLOOP_OFFLINE_REDIS_IMAGE": "mockloop-offline-redis:123",
        "MOCKLOOP_OFFLINE_COTURN_IMAGE": "mockloop-offline-coturn:456",
    }
    files = ["-f", "docker-compose.yml", "-f", "deploy/offline/docker-compose.offline.yml"]
    out = subprocess.run(
        ["docker-compose", *files, "config"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    services = yaml.safe_load(out.stdout)["services"]
    for name in ("migrate", "web", "worker", "images", "beat"):
        assert services[name]["image"] == "mockloop-offline-app:abc", name
        assert services[name].get("command") == base[name].get("command"), name
    assert services["postgres"]["image"] == "mockloop-offline-postgres:def"
    assert services["redis"]["image"] == "mockloop-offline-redis:123"
    assert services["redis"]["command"] == base["redis"]["command"]
    assert services["coturn"]["image"] == "mockloop-offline-coturn:456"
    assert services["coturn"]["network_mode"] == "host"
    for name in ("web", "worker", "redis", "postgres"):
        assert services[name]["healthcheck"] == base[name]["healthcheck"], name
    assert services["web"]["environment"]["READY_CHECK_DOCKER"] == "0"
