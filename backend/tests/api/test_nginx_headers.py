"""Issue 13: the compose deployment's nginx sends the same security headers as the app.

No nginx binary here, so the configuration is read as text: every location nginx answers itself
(no proxy_pass) includes the snippet, the Dockerfile installs the snippet at that path, and the
snippet's headers are exactly app.core.security.HEADERS (names, values, `always`).
"""

import re
from pathlib import Path

from app.core.security import HEADERS

FRONTEND = Path(__file__).resolve().parents[3] / "frontend"
SNIPPET_PATH = "/etc/nginx/snippets/security-headers.conf"


def _locations(conf: str) -> dict[str, str]:
    """Maps each `location X {` to its body (the config has no nested blocks)."""
    return {m.group(1): m.group(2) for m in re.finditer(r"location\s+(\S+)\s*\{([^}]*)\}", conf)}


def _add_headers(text: str) -> dict[str, tuple[str, bool]]:
    found = {}
    for m in re.finditer(r'^\s*add_header\s+(\S+)\s+"([^"]*)"(\s+always)?\s*;', text, re.M):
        found[m.group(1).lower()] = (m.group(2), bool(m.group(3)))
    return found


def test_snippet_headers_equal_the_apps():
    snippet = _add_headers((FRONTEND / "security-headers.conf").read_text())
    expected = {name.decode(): (value.decode(), True) for name, value in HEADERS}
    assert snippet == expected


def test_every_static_location_includes_the_snippet_and_api_is_proxied():
    locations = _locations((FRONTEND / "nginx.conf").read_text())
    assert {"/", "/assets/", "/api/"} <= set(locations)
    for path, body in locations.items():
        if "proxy_pass" in body:
            # The backend adds the headers itself; nginx adding them too would duplicate them.
            assert "security-headers.conf" not in body, path
            assert "add_header" not in body, path
        else:
            assert f"include {SNIPPET_PATH};" in body, path


def test_dockerfile_installs_the_snippet_where_nginx_conf_includes_it():
    dockerfile = (FRONTEND / "Dockerfile").read_text()
    assert f"COPY security-headers.conf {SNIPPET_PATH}" in dockerfile
