import { client, unwrap } from "./client";
import { loadMine, ownerTokens, rememberScenario } from "../localWork/localWork";
import { onSignInRequired } from "../account/account";

const OWN = "A".repeat(32);
const MINTED = "m".repeat(32);
const BASE = "http://localhost";

/** A fetch that records the requests and answers `body` as JSON with `status`. */
function fakeFetch(body: unknown, status = 201) {
  const seen: Request[] = [];
  const fetch = async (request: Request) => {
    seen.push(request);
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  };
  return { seen, fetch: fetch as unknown as typeof globalThis.fetch };
}

describe("the API client and owner tokens", () => {
  beforeEach(() => window.localStorage.clear());

  it("sends no token before the browser holds one, and keeps the one a creation returns", async () => {
    const { seen, fetch } = fakeFetch({ data: [], count: 0, owner_token: MINTED });
    await unwrap(client.POST("/api/v1/runs", { body: { scenario_id: "abc", seeds: [1], engine: "packet" }, fetch, baseUrl: BASE }));
    expect(seen[0].headers.get("X-Owner-Token")).toBeNull();
    expect(ownerTokens()).toEqual([MINTED]);
    expect(loadMine().tokens).toEqual([MINTED]);
  });

  it("sends every token it holds, the kept (own) ones before the scenarios', on reads and owner actions", async () => {
    rememberScenario({ id: "s1", name: "mine", owner_token: OWN, created_at: "2026-01-01T00:00:00Z" });
    const { seen, fetch } = fakeFetch({ data: [], count: 0, owner_token: MINTED });
    await unwrap(client.POST("/api/v1/runs", { body: { scenario_id: "s1", seeds: [1], engine: "packet" }, fetch, baseUrl: BASE }));
    await unwrap(client.GET("/api/v1/runs", { fetch, baseUrl: BASE }));
    await unwrap(client.POST("/api/v1/runs/{id}/cancel", { params: { path: { id: "r1" } }, fetch, baseUrl: BASE }));
    expect(seen.map((r) => r.headers.get("X-Owner-Token"))).toEqual([OWN, `${MINTED},${OWN}`, `${MINTED},${OWN}`]);
  });

  it("keeps nothing from a failed call or a malformed token", async () => {
    await unwrap(client.POST("/api/v1/runs", { body: { scenario_id: "x", seeds: [1], engine: "packet" }, fetch: fakeFetch({ owner_token: MINTED, detail: "no" }, 404).fetch, baseUrl: BASE })).catch(() => undefined);
    await unwrap(client.POST("/api/v1/runs", { body: { scenario_id: "x", seeds: [1], engine: "packet" }, fetch: fakeFetch({ data: [], count: 0, owner_token: "short" }).fetch, baseUrl: BASE }));
    expect(ownerTokens()).toEqual([]);
  });

  it("announces that sign-in is needed when the instance requires it, and only then", async () => {
    const heard = vi.fn();
    const stop = onSignInRequired(heard);
    const ask = (detail: string) => unwrap(client.GET("/api/v1/runs", { fetch: fakeFetch({ detail }, 401).fetch, baseUrl: BASE })).catch(() => undefined);
    await ask("X-Owner-Token: each token is 22-64 URL-safe characters (A-Z a-z 0-9 _ -)");
    expect(heard).not.toHaveBeenCalled();
    await ask("sign in first: this instance requires it (/api/v1/auth/login)");
    expect(heard).toHaveBeenCalledTimes(1);
    stop();
  });
});
