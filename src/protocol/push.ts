/** Push-notification objects (spec §4.3). */

/** §4.3.2 AuthenticationInfo: sent as `Authorization: <scheme> <credentials>`. */
export interface AuthenticationInfo {
  scheme: string;
  credentials?: string;
}

/** §4.3.1 TaskPushNotificationConfig (one webhook of one task). */
export interface TaskPushNotificationConfig {
  tenant?: string;
  id?: string;
  taskId?: string;
  url: string;
  token?: string;
  authentication?: AuthenticationInfo;
}

/** Header carrying the config's `token` on every notification (the header most SDKs use; the spec names none). */
export const PUSH_TOKEN_HEADER = 'X-A2A-Notification-Token';
/** a2a-kit addition: one id per notification, the same on every retry, for de-duplication. */
export const PUSH_ID_HEADER = 'X-A2A-Notification-Id';
/** a2a-kit addition: detached JWS over the body when the agent signs its notifications. */
export const PUSH_SIGNATURE_HEADER = 'X-A2A-Notification-Signature';
/** Where an agent that signs notifications publishes its public keys. */
export const PUSH_JWKS_PATH = '/.well-known/a2a-push-jwks.json';
