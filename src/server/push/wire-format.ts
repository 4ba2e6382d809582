/**
 * Which body a webhook gets. Every config gets the 1.0 StreamResponse of each event (§4.3.3) unless a
 * wire format says otherwise for it: the 0.3 compatibility layer sends webhooks registered over 0.3
 * the 0.3 body they were written for. Without a format nothing here runs.
 */
import type { StreamResponse, Task, TaskPushNotificationConfig } from '../../protocol/index.js';

/** A body other than the event's 1.0 JSON, with the media type it goes out as. */
export interface PushBody {
  body: string;
  contentType: string;
}

/** Chooses the body per webhook; the compatibility layer is the one implementation. */
export interface PushWireFormat {
  /** Called when a config is registered, inside the call that registers it. */
  tag(config: TaskPushNotificationConfig): void;
  /** The body for `config` at this event of `task`, or undefined for the 1.0 StreamResponse. */
  body(config: TaskPushNotificationConfig, task: Task, event: StreamResponse): PushBody | undefined;
}
