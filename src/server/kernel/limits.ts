/** Request limits every binding applies by default (HTTP bodies and gRPC messages alike). */

/** Default request body limit: 4 MiB (messages may carry inline files). */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Default limit on how deeply a request body's JSON may nest. A2A messages nest a few levels; a body
 * nested thousands deep parses fine but cannot be serialised back (stack overflow), so it is refused at
 * the door.
 */
export const DEFAULT_MAX_JSON_DEPTH = 64;
