/**
 * A2A 0.3 next to 1.0, as pure data translation (no I/O): the 0.3 model, enum spellings, the 0.3
 * method names and routes, cards in both shapes, and the proto JSON dialect of 0.3's HTTP+JSON
 * binding. The server's compatibility layer and the client's 0.3 transports both build on it.
 */
export * from './types.js';
export * from './enums.js';
export { V03Reader } from './to-v10.js';
export * from './from-v10.js';
export * from './methods.js';
export * from './card.js';
export * as proto03 from './proto.js';
export { v03Traits } from './detect.js';
