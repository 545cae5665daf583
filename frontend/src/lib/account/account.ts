// The signed-in account on an instance that requires sign-in (OIDC_ISSUER, docs/security.md).
// GET /api/v1/auth/me says which: {"sign_in": false} (an anonymous, link-shared instance, nothing
// to show; older servers: 404), 401 (signed out) or the account. Any API call answered 401 "sign in
// first" (a session that ended) announces it too (lib/api/client.ts), so the app shows its
// sign-in screen instead of pages that cannot load.
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import type { QueryClient } from "@tanstack/react-query";

export const AUTH = "/api/v1/auth";
/** Where "Sign in" goes: the backend redirects to the organisation's provider. */
export const SIGN_IN_URL = `${AUTH}/login`;
export const ACCOUNT_KEY = ["account"] as const;

export type Account =
  | { state: "off" }
  | { state: "signed-out" }
  | { state: "in"; name: string; role: string };

export async function fetchAccount(fetcher: typeof fetch = fetch): Promise<Account> {
  const response = await fetcher(`${AUTH}/me`, { credentials: "same-origin" });
  if (response.status === 404) return { state: "off" };
  if (response.status === 401) return { state: "signed-out" };
  if (!response.ok) throw new Error(`${AUTH}/me answered ${response.status}`);
  const me = (await response.json()) as { name?: string; sub?: string; role?: string; sign_in?: boolean };
  // an instance without sign-in answers {"sign_in": false} (a 404 before: an error in the console on every page)
  if (me.sign_in === false) return { state: "off" };
  return { state: "in", name: me.name || me.sub || "signed in", role: me.role ?? "member" };
}

export function useAccount() {
  return useQuery({ queryKey: ACCOUNT_KEY, queryFn: () => fetchAccount(), staleTime: Infinity, retry: false });
}

const signInListeners = new Set<() => void>();

/** An API call was answered 401 "sign in first". */
export function announceSignInRequired() {
  for (const l of signInListeners) l();
}

/** Calls `l` whenever an API call is answered 401 "sign in first"; returns the unsubscribe. */
export function onSignInRequired(l: () => void): () => void {
  signInListeners.add(l);
  return () => {
    signInListeners.delete(l);
  };
}

/** Keeps the account query at "signed out" once any call says the session is gone. */
export function useSignInAnnouncements(queryClient: QueryClient) {
  useEffect(() => onSignInRequired(() => queryClient.setQueryData<Account>(ACCOUNT_KEY, { state: "signed-out" })), [queryClient]);
}

/** Ends the session; the app then shows its sign-in screen (not the provider: no instant re-sign-in). */
export async function signOut(queryClient: QueryClient) {
  await fetch(`${AUTH}/logout`, { method: "POST", credentials: "same-origin" });
  // the sign-in screen replaces the pages first; then nothing of the account stays cached
  queryClient.setQueryData<Account>(ACCOUNT_KEY, { state: "signed-out" });
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== ACCOUNT_KEY[0] });
}
