"""Issue 13: /docs offline (defect 5), security headers and a CSP the real pages run under,
CORS closed, owner tokens hashed, share ids of 72 random bits, crafted ids, JSON depth, no token
in logs."""

import base64
import hashlib
import re
import subprocess
from collections import Counter
from html.parser import HTMLParser

import httpx
from sqlalchemy import text

from app.scenarios.service import new_id
from tests.helpers import create_scenario, start_run, wait_final
from tests.scenarios_data import incast, two_hosts
from tests.support import LOGS

CHROMIUM = "/usr/bin/chromium"


class _Assets(HTMLParser):
    """Every src/href of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.urls += [v for k, v in attrs if k in ("src", "href") and v]


def _root(stack) -> str:
    return stack.base_url.removesuffix("/api/v1")


def test_docs_reference_only_local_assets_which_load(stack):
    page = httpx.get(f"{_root(stack)}/docs")
    assert page.status_code == 200
    parser = _Assets()
    parser.feed(page.text)
    assert len(parser.urls) >= 3, parser.urls
    for url in parser.urls:
        assert url.startswith("/") and not url.startswith("//"), url  # same origin, no CDN
        asset = httpx.get(f"{_root(stack)}{url}")
        assert asset.status_code == 200 and len(asset.content) > 100, url
    kinds = {u.rsplit(".", 1)[-1] for u in parser.urls}
    assert {"js", "css"} <= kinds
    assert "cdn." not in page.text and "http" not in page.text.replace("http-equiv", "")


def _chromium_violations(url: str) -> tuple[str, list[str]]:
    """Load `url` in headless Chromium: (rendered DOM, CSP violation messages)."""
    proc = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                           "--enable-logging=stderr", "--v=0", "--virtual-time-budget=10000",
                           "--dump-dom", url], capture_output=True, text=True, timeout=120,
                          check=False)
    violations = [ln for ln in proc.stderr.splitlines() if "Content Security Policy" in ln]
    return proc.stdout, violations


def test_pages_render_under_the_csp_in_chromium(stack, api):
    scenario = create_scenario(api, two_hosts(name="csp run page"))
    run = start_run(api, scenario["id"])[0]
    assert wait_final(api, run["id"])["status"] == "SUCCEEDED"
    dom, violations = _chromium_violations(f"{_root(stack)}/docs")
    assert violations == [] and 'data-path="/api/v1/runs"' in dom  # Swagger UI rendered
    for path, marker in (("/", "Presets"), ("/editor", "Scenario name"),
                         (f"/runs/{run['id']}", "SUCCEEDED")):
        dom, violations = _chromium_violations(f"{_root(stack)}{path}")
        assert violations == [], (path, violations)
        assert marker in dom, (path, dom[:2000])


def test_security_headers_on_api_frontend_and_errors(stack, api):
    for response in (api.get("/health"), httpx.get(f"{_root(stack)}/"),
                     httpx.get(f"{_root(stack)}/docs"), api.get("/runs/nope")):
        csp = response.headers["content-security-policy"]
        assert "default-src 'self'" in csp and "script-src 'self'" in csp
        assert "unsafe-inline" not in csp and "*" not in csp
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "no-referrer"


def test_cors_closed_by_default(api):
    preflight = api.options("/scenarios", headers={
        "Origin": "https://elsewhere.example", "Access-Control-Request-Method": "POST"})
    assert "access-control-allow-origin" not in preflight.headers
    simple = api.get("/health", headers={"Origin": "https://elsewhere.example"})
    assert "access-control-allow-origin" not in simple.headers


def test_owner_token_stored_hashed_and_checked(api, engine, stack):
    created = create_scenario(api, incast(name="owned"))
    token = created["owner_token"]
    with engine.connect() as connection:
        stored = connection.execute(text("SELECT owner_token_hash FROM scenarios WHERE id = :i"),
                                    {"i": created["id"]}).scalar_one()
    assert stored == hashlib.sha256(token.encode()).hexdigest() and token not in stored
    assert "owner_token" not in api.get(f"/scenarios/{created['id']}").json()
    with stack.client() as stranger:
        for wrong in (None, "", token[:-1], token + "x", stored):
            headers = {} if wrong is None else {"X-Owner-Token": wrong}
            assert stranger.delete(f"/scenarios/{created['id']}",
                                   headers=headers).status_code == 403
        assert stranger.delete(f"/scenarios/{created['id']}",
                               headers={"X-Owner-Token": token}).status_code == 204
    # No token, nor its hash, in the API's log.
    log = (LOGS / "pg-api.log").read_text()
    assert token not in log and stored not in log


def test_share_ids_carry_72_random_bits():
    ids = [new_id() for _ in range(20_000)]
    assert len(set(ids)) == len(ids)
    for item in ids[:200]:
        assert re.fullmatch(r"[A-Za-z0-9_-]{12}", item)
        assert len(base64.urlsafe_b64decode(item)) == 9  # 72 bits
    # Every base64url symbol about equally likely in each position (expected 312.5 of 20,000):
    # a counter or clock-based id would fail this, a CSPRNG passes (bounds at ~9 sigma).
    for position in (0, 5, 11):
        counts = Counter(item[position] for item in ids)
        assert len(counts) == 64 and min(counts.values()) > 150 and max(counts.values()) < 480


def test_crafted_ids_never_reach_files(stack, api):
    root = _root(stack)
    for crafted in ("..", "..%2F..%2Fetc%2Fpasswd", "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
                    "a%00b", "x" * 65, "..\\..\\windows"):
        for path in ("", "/result", "/flows.csv", "/series", "/events"):
            response = httpx.get(f"{root}/api/v1/runs/{crafted}{path}")
            assert response.status_code in (404, 422), (crafted, path, response.status_code)
            assert "root:" not in response.text
    for crafted in ("/..%2F..%2F..%2Fetc%2Fpasswd", "/assets/..%2F..%2F..%2Fbackend%2Fapp%2Fmain.py",
                    "/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/docs-assets/vendor/..%2F..%2F__init__.py"):
        response = httpx.get(f"{root}{crafted}")
        assert "root:" not in response.text and "import" not in response.text, crafted


def test_json_nesting_depth_refused_before_parsing(api):
    deep = b'{"scenario": ' + b"[" * 5000 + b"]" * 5000 + b"}"
    response = api.post("/scenarios/validate", content=deep,
                        headers={"content-type": "application/json"})
    assert response.status_code == 422
    assert "nested deeper than" in response.json()["detail"][0]["msg"]
    # Brackets inside strings do not count.
    document = incast(description="[" * 100 + "\\\"{" * 50)
    assert api.post("/scenarios/validate", json={"scenario": document}).status_code == 200
