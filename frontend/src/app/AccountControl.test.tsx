// Issue 23: the header's account control and the sign-in screen follow GET /api/v1/auth/me
// (404: sign-in is off; 401: signed out; 200: the account), and "Sign out" ends the session.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { AccountControl, SignInGate } from "./AccountControl";
import { announceSignInRequired, fetchAccount, useSignInAnnouncements } from "../lib/account/account";

function answering(me: { status: number; body?: unknown }) {
  const calls: { url: string; method: string }[] = [];
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    calls.push({ url, method: init?.method ?? "GET" });
    if (url.endsWith("/logout")) return new Response(null, { status: 204 });
    return new Response(JSON.stringify(me.body ?? { detail: "x" }), { status: me.status, headers: { "content-type": "application/json" } });
  });
  vi.stubGlobal("fetch", fetch);
  return calls;
}

function Announcements({ client }: { client: QueryClient }) {
  useSignInAnnouncements(client);
  return null;
}

function shell() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <Announcements client={client} />
      <header><AccountControl /></header>
      <SignInGate><p>the pages</p></SignInGate>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("the account control", () => {
  it("reads /auth/me: off, signed out or the account", async () => {
    const fake = (status: number, body?: unknown) => (async () => new Response(JSON.stringify(body ?? {}), { status })) as unknown as typeof fetch;
    expect(await fetchAccount(fake(200, { sign_in: false }))).toEqual({ state: "off" });
    expect(await fetchAccount(fake(404))).toEqual({ state: "off" });
    expect(await fetchAccount(fake(401))).toEqual({ state: "signed-out" });
    expect(await fetchAccount(fake(200, { sub: "a", name: "Ada", role: "instructor" }))).toEqual({ state: "in", name: "Ada", role: "instructor" });
    await expect(fetchAccount(fake(500))).rejects.toThrow("500");
  });

  it("shows nothing on an anonymous instance, and the pages", async () => {
    answering({ status: 200, body: { sign_in: false } });
    shell();
    expect(await screen.findByText("the pages")).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 0));
    expect(screen.queryByRole("link", { name: "Sign in" })).toBeNull();
  });

  it("offers Sign in instead of the pages when signed out", async () => {
    answering({ status: 401 });
    shell();
    expect(await screen.findAllByRole("link", { name: "Sign in" })).toHaveLength(2);
    expect(screen.getAllByRole("link", { name: "Sign in" })[0]).toHaveAttribute("href", "/api/v1/auth/login");
    expect(screen.queryByText("the pages")).toBeNull();
  });

  it("shows the account's name and role; Sign out ends the session and offers Sign in", async () => {
    const calls = answering({ status: 200, body: { sub: "ada", name: "Ada Lovelace", role: "instructor", groups: [] } });
    shell();
    expect(await screen.findByTestId("account-name")).toHaveTextContent("Ada Lovelace");
    expect(screen.getByText("instructor")).toBeInTheDocument();
    expect(screen.getByText("the pages")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Sign out" }));
    await waitFor(() => expect(screen.getAllByRole("link", { name: "Sign in" })).toHaveLength(2));
    expect(screen.queryByTestId("account-name")).toBeNull();
    expect(calls).toContainEqual({ url: "/api/v1/auth/logout", method: "POST" });
  });

  it("a call answered 'sign in first' (a session that ended) shows the sign-in screen", async () => {
    answering({ status: 200, body: { sub: "ada", name: "Ada", role: "member" } });
    shell();
    expect(await screen.findByTestId("account-name")).toBeInTheDocument();
    announceSignInRequired();
    expect(await screen.findByRole("heading", { name: "Sign in to FabricTwin" })).toBeInTheDocument();
  });
});
