/**
 * zod and the schemas built with it, and jose, loaded on first use rather than at import: zod alone
 * takes longer to import than the rest of the server or the client together, jose about as long.
 * Each module is loaded once; callers that arrive while it loads share the same promise.
 */

/** A module loaded on first use: `now()` once it has loaded, `load()` to load it (once). */
export interface Lazy<T> {
  /** The module when it has loaded, else `undefined` (a synchronous caller's fast path). */
  now(): T | undefined;
  /** The module, loaded on the first call; concurrent and later calls get the same promise. */
  load(): Promise<T>;
}

function lazy<T>(importer: () => Promise<T>): Lazy<T> {
  let value: T | undefined;
  let pending: Promise<T> | undefined;
  return {
    now: () => value,
    load: () =>
      (pending ??= importer().then(
        (m) => (value = m),
        (err: unknown) => {
          // A failed load (a broken install) is tried again by the next caller, not cached forever.
          pending = undefined;
          throw err;
        },
      )),
  };
}

/** The request schemas of every operation (schemas.ts). */
export const requestSchemas: Lazy<typeof import('./schemas.js')> = lazy(
  () => import('./schemas.js'),
);

/** The agent card schema and its synchronous parse (card-schema.ts). */
export const cardSchemas: Lazy<typeof import('./card-schema.js')> = lazy(
  () => import('./card-schema.js'),
);

/** jose (JWS and JWT), loaded by the first signature made or checked, not by an entry point's import. */
export const jose: Lazy<typeof import('jose')> = lazy(() => import('jose'));
