"""The TLS recipe of docs/security.md, as an operator pastes it: the nginx this machine has (Debian's) must accept
it, and its port-80 server must leave certbot's webroot challenges unredirected."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs" / "security.md"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def recipe() -> str:
    blocks = re.findall(r"```nginx\n(.*?)```", DOCS.read_text(), re.S)
    (tls,) = [b for b in blocks if "listen 443" in b]
    return tls


def test_the_port_80_server_answers_certbots_challenge_and_redirects_the_rest() -> None:
    http = recipe().split("listen 80;")[1]
    assert re.search(r"location /\.well-known/acme-challenge/ \{\s*root [^;]+;\s*\}", http)
    assert re.search(r"location / \{\s*return 301 https://", http)  # the redirect only outside the challenge


@pytest.mark.skipif(not Path(NGINX).exists(), reason="no nginx on this machine")
def test_nginx_accepts_the_tls_recipe(tmp_path: Path) -> None:
    cert, key = tmp_path / "fullchain.pem", tmp_path / "privkey.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=games.example.org",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    servers = recipe().replace("/etc/nginx/certs/fullchain.pem", str(cert))
    servers = servers.replace("/etc/nginx/certs/privkey.pem", str(key))
    servers = servers.replace("listen 443", "listen 127.0.0.1:18443").replace("listen 80;", "listen 127.0.0.1:18080;")
    conf = tmp_path / "nginx.conf"
    conf.write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{\n  access_log off;\n  limit_conn_zone $binary_remote_addr zone=rajas_conn:1m;\n{servers}\n}}\n"
    )
    test = [NGINX, "-t", "-c", str(conf), "-p", str(tmp_path)]
    out = subprocess.run(test, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
