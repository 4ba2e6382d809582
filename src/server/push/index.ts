/** Push-notification delivery: the sender, its SSRF guard, retry policy, transport and optional signing. */
export * from './sender.js';
export * from './options.js';
export * from './ssrf.js';
export * from './retry.js';
export * from './signing.js';
export type {
  DeliveryRequest,
  DeliveryResponse,
  DeliveryTransport,
  FetchLike,
} from './transport.js';
