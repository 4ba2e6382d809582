/**
 * The request rules that need no schema library: the bounds and patterns shared by the zod schemas
 * (schemas.ts, loaded on first use) and the hand-written fast checks (fast-check.ts, always loaded).
 */

/** Ids and tenants are bounded: a client-chosen id is stored and echoed in every answer and event. */
export const MAX_ID_LENGTH = 256;

/** Base64 text of a `raw` part, standard or URL-safe alphabet. */
export const BASE64_PATTERN = /^[A-Za-z0-9+/_-]*={0,2}$/;
