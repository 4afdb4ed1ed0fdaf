"""The production compose file is valid and has what operations rely on."""

import shutil
import subprocess

import yaml

from mockloop.env import BASE_DIR


def _compose_config(tmp_path) -> dict:
    shutil.copy(BASE_DIR / "docker-compose.yml", tmp_path / "docker-compose.yml")
    shutil.copy(BASE_DIR / ".env.example", tmp_path / ".env")
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
