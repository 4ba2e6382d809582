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
