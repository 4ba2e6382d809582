/**
 * The A2A 1.0.1 data model: types, errors, the operation table and the cheap request rules. No I/O,
 * and no zod: the schemas (schemas.ts, card-schema.ts) are loaded on first use through lazy-schemas.ts.
 */
export * from './task.js';
export * from './push.js';
export * from './card.js';
export * from './requests.js';
export * from './errors.js';
export * from './operations.js';
export * from './version.js';
export * from './request-rules.js';
export * from './card-parse.js';
export * from './lazy-schemas.js';
export * from './fast-check.js';
export * from './field-names.js';
export * from './logger.js';
