import createClient from "openapi-fetch";
import type { paths } from "./schema.gen";
import { ApiError, toApiError } from "./errors";

/** The generated, typed client. Relative URLs: the backend serves the app at the same origin. */
export const client = createClient<paths>({ baseUrl: "" });

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
