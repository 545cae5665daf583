"""A local OpenID Connect provider stand-in for the sign-in tests (no outside network): discovery,
an authorization endpoint that signs in the user the test chose (`next_user`) at once, a token
endpoint that checks the client's secret and the code, RS256 ID tokens and their JWKS. The app's
real Authlib client talks to it over HTTP; nothing of the library is mocked.

`signed_stack` starts it with an API server that requires sign-in against it, and `sign_in` is a
browser signed in as whoever the test names.

Run as a program (`python -m tests.oidc_provider --port P --client-secret S`, on loopback; the
Playwright sign-in spec's provider, scripts/test.sh) it asks who signs in on a small form
instead, as a real provider's sign-in page would."""

import base64
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from html import escape
from typing import Any
from urllib.parse import parse_qs, urlencode

import httpx
import uvicorn
from joserfc import jwt
from joserfc.jwk import RSAKey
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse
from starlette.routing import Route

from tests.support import Stack, free_port, wait_until

CLIENT_ID = "fabrictwin-test"
CLIENT_SECRET = secrets.token_urlsafe(16)


class Provider:
    """The provider's state and its Starlette app, served by uvicorn in a thread."""

    def __init__(self, port: int | None = None, client_secret: str = CLIENT_SECRET) -> None:
        self.port = port or free_port()
        self.issuer = f"http://127.0.0.1:{self.port}"
        self.client_secret = client_secret
        self.key = RSAKey.generate_key(2048, parameters={"kid": "k1", "use": "sig"})
        # who the next sign-in is; None: ask on a form (the program's mode)
        self.next_user: dict[str, Any] | None = {"sub": "nobody"}
        self.codes: dict[str, dict[str, Any]] = {}
        self.app = Starlette(routes=[
            Route("/.well-known/openid-configuration", self.discovery),
            Route("/authorize", self.authorize, methods=["GET", "POST"]),
            Route("/token", self.token, methods=["POST"]), Route("/jwks", self.jwks)])
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port,
                                                    log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> "Provider":
        self.thread.start()
        wait_until(lambda: self.server.started, 30, what="the OIDC provider to start")
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)

    async def discovery(self, _request: Request) -> JSONResponse:
        return JSONResponse({
            "issuer": self.issuer, "authorization_endpoint": f"{self.issuer}/authorize",
            "token_endpoint": f"{self.issuer}/token", "jwks_uri": f"{self.issuer}/jwks",
            "response_types_supported": ["code"], "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "token_endpoint_auth_methods_supported": ["client_secret_basic",
                                                      "client_secret_post"]})

    async def jwks(self, _request: Request) -> JSONResponse:
        return JSONResponse({"keys": [self.key.as_dict(private=False)]})

    async def authorize(self, request: Request) -> HTMLResponse | RedirectResponse | JSONResponse:
        q = dict(request.query_params)
        if request.method == "POST":  # the form below, answered
            q.update({k: v[0] for k, v in parse_qs((await request.body()).decode()).items()})
        if q.get("client_id") != CLIENT_ID or q.get("response_type") != "code" or \
                not q.get("redirect_uri"):
            return JSONResponse({"error": "invalid_request"}, status_code=400)
        user = self.next_user
        if user is None and request.method == "POST" and q.get("sub"):
            user = {"sub": q["sub"], "name": q.get("name") or q["sub"],
                    "roles": [q.get("role") or "member"],
                    "groups": [g.strip() for g in q.get("groups", "").split(",") if g.strip()]}
        if user is None:
            return HTMLResponse(self._form(q))
        code = secrets.token_urlsafe(16)
        self.codes[code] = {"user": dict(user), "nonce": q.get("nonce"),
                            "redirect_uri": q["redirect_uri"]}
        return RedirectResponse(f"{q['redirect_uri']}?{urlencode({'code': code, 'state': q.get('state', '')})}",
                                status_code=302)

    @staticmethod
    def _form(q: dict[str, str]) -> str:
        """The provider's sign-in page: who signs in (no password: a test stand-in)."""
        kept = "".join(f'<input type="hidden" name="{escape(k)}" value="{escape(v)}">'
                       for k, v in q.items() if k in ("client_id", "response_type", "redirect_uri",
                                                      "state", "nonce", "scope"))
        return ("<!doctype html><html><head><meta charset='utf-8'><title>Test provider: sign in"
                "</title></head><body><h1>Test provider: sign in</h1>"
                f"<form method='post' action='/authorize'>{kept}"
                "<p><label>User <input name='sub' required></label></p>"
                "<p><label>Name <input name='name'></label></p>"
                "<p><label>Role <select name='role'><option>member</option><option>instructor"
                "</option><option>admin</option></select></label></p>"
                "<p><label>Groups <input name='groups'></label></p>"
                "<button type='submit'>Sign in</button></form></body></html>")

    async def token(self, request: Request) -> JSONResponse:
        form = {k: v[0] for k, v in parse_qs((await request.body()).decode()).items()}
        auth = request.headers.get("authorization", "")
        basic = base64.b64encode(f"{CLIENT_ID}:{self.client_secret}".encode()).decode()
        if auth != f"Basic {basic}" and form.get("client_secret") != self.client_secret:
            return JSONResponse({"error": "invalid_client"}, status_code=401)
        grant = self.codes.pop(str(form.get("code")), None)
        if grant is None or grant["redirect_uri"] != form.get("redirect_uri"):
            return JSONResponse({"error": "invalid_grant"}, status_code=400)
        now = int(time.time())
        claims = {"iss": self.issuer, "aud": CLIENT_ID, "iat": now, "exp": now + 300,
                  "nonce": grant["nonce"], **grant["user"]}
        id_token = jwt.encode({"alg": "RS256", "kid": "k1"}, claims, self.key)
        return JSONResponse({"access_token": secrets.token_urlsafe(16), "token_type": "Bearer",
                             "expires_in": 300, "id_token": id_token})


@contextmanager
def signed_stack(name: str, env: dict[str, str]) -> Iterator[tuple[Stack, Provider]]:
    """A provider and an API server (`env`: its database, broker and runs directory) that
    requires sign-in against it."""
    provider = Provider().start()
    stack = Stack(name, {**env, "OIDC_ISSUER": provider.issuer, "OIDC_CLIENT_ID": CLIENT_ID,
                         "OIDC_CLIENT_SECRET": CLIENT_SECRET,
                         "SESSION_SECRET": secrets.token_urlsafe(32),
                         "SESSION_COOKIE_SECURE": "false"})
    try:
        stack.start_server()
        yield stack, provider
    finally:
        stack.stop()
        provider.stop()


def sign_in(stack: Stack, provider: Provider, sub: str, roles: list[str] | None = None,
            groups: list[str] | None = None) -> httpx.Client:
    """A browser signed in as `sub` (the provider signs in whoever the test names)."""
    provider.next_user = {"sub": sub, "name": f"user {sub}", **({"roles": roles} if roles else {}),
                          **({"groups": groups} if groups else {})}
    client = httpx.Client(base_url=stack.base_url, timeout=30, follow_redirects=True)
    response = client.get("/auth/login")
    assert response.status_code == 200 and str(response.url).endswith("/"), response.text[:300]
    client.follow_redirects = False
    return client


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="the local OIDC provider stand-in, on 127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--client-secret", required=True)
    args = parser.parse_args()
    provider = Provider(args.port, args.client_secret)
    provider.next_user = None  # ask on the form
    provider.server.run()
