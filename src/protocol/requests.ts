/**
 * Request and response objects of the eleven operations (spec §3.1, proto messages), and the maps
 * from each operation to its request and result types that carry them typed through the server.
 */
import type { AgentCard } from './card.js';
import type { OperationName } from './operations.js';
import type {
  JsonObject,
  Message,
  SendMessageResponse,
  StreamResponse,
  Task,
  TaskState,
} from './task.js';
import type { TaskPushNotificationConfig } from './push.js';

/** §3.2.2 SendMessageConfiguration. */
export interface SendMessageConfiguration {
  acceptedOutputModes?: string[];
  taskPushNotificationConfig?: TaskPushNotificationConfig;
  historyLength?: number;
  returnImmediately?: boolean;
}

/** §3.2.1 SendMessageRequest (SendMessage and SendStreamingMessage). */
export interface SendMessageRequest {
  tenant?: string;
  message: Message;
  configuration?: SendMessageConfiguration;
  metadata?: JsonObject;
}

/** §3.1.3 GetTask: one task, with at most `historyLength` messages of history. */
export interface GetTaskRequest {
  tenant?: string;
  id: string;
  historyLength?: number;
}

/** §3.1.4 ListTasks: filters and paging. */
export interface ListTasksRequest {
  tenant?: string;
  contextId?: string;
  status?: TaskState;
  pageSize?: number;
  pageToken?: string;
  historyLength?: number;
  /** ISO 8601; inclusive lower bound on the status timestamp. */
  statusTimestampAfter?: string;
  includeArtifacts?: boolean;
}

/** ListTasks answer: one page of tasks. */
export interface ListTasksResponse {
  tasks: Task[];
  nextPageToken: string;
  pageSize: number;
  totalSize: number;
}

/** §3.1.5 CancelTask. */
export interface CancelTaskRequest {
  tenant?: string;
  id: string;
  metadata?: JsonObject;
}

/** §3.1.6 SubscribeToTask. */
export interface SubscribeToTaskRequest {
  tenant?: string;
  id: string;
}

/** §3.1.8 GetTaskPushNotificationConfig: one config of one task. */
export interface GetTaskPushNotificationConfigRequest {
  tenant?: string;
  taskId: string;
  id: string;
}

/** §3.1.10 DeleteTaskPushNotificationConfig: same members as the Get request. */
export type DeleteTaskPushNotificationConfigRequest = GetTaskPushNotificationConfigRequest;

/** §3.1.9 ListTaskPushNotificationConfigs. */
export interface ListTaskPushNotificationConfigsRequest {
  tenant?: string;
  taskId: string;
  pageSize?: number;
  pageToken?: string;
}

/** ListTaskPushNotificationConfigs answer. */
export interface ListTaskPushNotificationConfigsResponse {
  configs: TaskPushNotificationConfig[];
  nextPageToken?: string;
}

/** §3.1.11 GetExtendedAgentCard. */
export interface GetExtendedAgentCardRequest {
  tenant?: string;
}

/** §3.1.7 CreateTaskPushNotificationConfig: the config itself, with the task it belongs to. */
export interface CreateTaskPushNotificationConfigRequest extends TaskPushNotificationConfig {
  taskId: string;
}

/** The two operations that answer with a stream of {@link StreamResponse} events. */
export type StreamingOperationName = 'SendStreamingMessage' | 'SubscribeToTask';
/** The operations that answer once. */
export type UnaryOperationName = Exclude<OperationName, StreamingOperationName>;

/** Each operation's request, as it is after validation. */
export interface OperationRequests {
  SendMessage: SendMessageRequest;
  SendStreamingMessage: SendMessageRequest;
  GetTask: GetTaskRequest;
  ListTasks: ListTasksRequest;
  CancelTask: CancelTaskRequest;
  SubscribeToTask: SubscribeToTaskRequest;
  CreateTaskPushNotificationConfig: CreateTaskPushNotificationConfigRequest;
  GetTaskPushNotificationConfig: GetTaskPushNotificationConfigRequest;
  ListTaskPushNotificationConfigs: ListTaskPushNotificationConfigsRequest;
  DeleteTaskPushNotificationConfig: DeleteTaskPushNotificationConfigRequest;
  GetExtendedAgentCard: GetExtendedAgentCardRequest;
}

/** Each operation's answer; for the two streaming operations, the type of each event. */
export interface OperationResults {
  SendMessage: SendMessageResponse;
  SendStreamingMessage: StreamResponse;
  GetTask: Task;
  ListTasks: ListTasksResponse;
  CancelTask: Task;
  SubscribeToTask: StreamResponse;
  CreateTaskPushNotificationConfig: TaskPushNotificationConfig;
  GetTaskPushNotificationConfig: TaskPushNotificationConfig;
  ListTaskPushNotificationConfigs: ListTaskPushNotificationConfigsResponse;
  /** google.protobuf.Empty. */
  DeleteTaskPushNotificationConfig: Record<string, never>;
  GetExtendedAgentCard: AgentCard;
}
