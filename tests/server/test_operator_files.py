"""What an operator deploys from: every setting in reach of the compose file, and an image whose packages do not
change between two builds of one commit."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from rajas.server.config import FIELDS, variable

ROOT = Path(__file__).resolve().parents[2]


def test_the_example_environment_names_every_setting_with_its_default() -> None:
    example = (ROOT / "deploy" / "env.example").read_text()
    for flag, field in FIELDS.items():
        line = re.search(rf"^# {variable(flag)}=(.*)$", example, re.M)
        assert line, f"{variable(flag)} is missing from deploy/env.example"
        default = field.default
        if default is not None:
            assert float(line[1]) == default if isinstance(default, float) else line[1] == str(default), flag


def test_compose_hands_every_setting_and_the_mail_settings_to_the_nodes() -> None:
    compose = (ROOT / "docker-compose.yml").read_text()
    assert re.search(r"env_file:\s*\n\s*- path: \.env\s*\n\s*required: false", compose)
    for name in ("RAJAS_PUBLIC_URL", "RAJAS_SMTP_URL", "RAJAS_SMTP_FROM"):
        assert f"{name}: ${{{name}:-}}" in compose


def test_the_image_installs_every_dependency_at_one_locked_version() -> None:
    lock = {}
    for line in (ROOT / "deploy" / "requirements.lock").read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"not pinned: {line}"
            lock[re.sub(r"[-_.]+", "-", name).lower()] = version
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for dependency in project["dependencies"]:
        req = Requirement(dependency)
        name = re.sub(r"[-_.]+", "-", req.name).lower()
        assert name in lock, f"{req.name} is not in deploy/requirements.lock"
        assert req.specifier.contains(lock[name]), f"the lock's {req.name} {lock[name]} is outside {req.specifier}"
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    assert "pip install --no-cache-dir -r deploy/requirements.lock" in dockerfile
    installs = [line for line in dockerfile.splitlines() if "pip install" in line and " ." in line]
    assert installs and all("--no-deps" in line for line in installs)  # nothing beside the lock's versions
