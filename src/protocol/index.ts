/** The A2A 1.0.1 data model: types, schemas, errors and the operation table. No I/O. */
export * from './task.js';
export * from './push.js';
export * from './card.js';
export * from './requests.js';
export * from './errors.js';
export * from './operations.js';
export * from './version.js';
export * from './schemas.js';
export * from './card-schema.js';
export * from './fast-check.js';
export * from './field-names.js';
export * from './logger.js';
