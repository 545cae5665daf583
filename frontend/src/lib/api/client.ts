import createClient from "openapi-fetch";
import type { paths } from "./schema.gen";
import { ApiError, toApiError } from "./errors";
import { ownerTokens, rememberToken } from "../localWork/localWork";
import { announceSignInRequired } from "../account/account";

/** The generated, typed client. Relative URLs: the backend serves the app at the same origin. */
export const client = createClient<paths>({ baseUrl: "" });

const SIGN_IN = "/api/v1/auth/";

/** An instance that requires sign-in (OIDC_ISSUER) answers 401 "sign in first": the app shows its
 * sign-in screen (lib/account; not a redirect to the provider, which would sign straight back in
 * after "Sign out"). */
async function signInIfAsked(response: Response) {
  try {
    const body = (await response.clone().json()) as { detail?: unknown };
    if (typeof body?.detail === "string" && body.detail.startsWith("sign in first")) announceSignInRequired();
  } catch {
    /* not the sign-in answer */
  }
}

/**
 * Owner tokens (docs/security.md): every call sends this browser's tokens in X-Owner-Token, so
 * lists show its own work and it may cancel, apply or delete it; a token a creation returns is
 * kept (the first one then owns everything this browser creates).
 */
client.use({
  onRequest({ request }) {
    const tokens = ownerTokens();
    if (tokens.length) request.headers.set("X-Owner-Token", tokens.join(","));
    return request;
  },
  async onResponse({ request, response }) {
    if (response.status === 401 && !new URL(request.url).pathname.startsWith(SIGN_IN)) {
      await signInIfAsked(response);
      return response;
    }
    if (request.method !== "POST" || !response.ok || !response.headers.get("content-type")?.includes("application/json")) return response;
    try {
      const body = (await response.clone().json()) as { owner_token?: unknown };
      if (typeof body?.owner_token === "string") rememberToken(body.owner_token);
    } catch {
      /* not JSON after all: nothing to keep */
    }
    return response;
  },
});

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Resolves to the data of a successful call, or throws an ApiError with message and fields. */
export async function unwrap<T>(call: Promise<FetchResult<T>>): Promise<NonNullable<T>> {
  let result: FetchResult<T>;
  try {
    result = await call;
  } catch (e) {
    throw new ApiError(0, `Cannot reach the server: ${(e as Error).message}`);
  }
  if (!result.response.ok || result.error !== undefined) {
    throw toApiError(result.response.status, result.error);
  }
  return result.data as NonNullable<T>;
}
