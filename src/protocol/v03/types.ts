/**
 * The A2A 0.3 data model in its JSON-RPC (JSON Schema) form, as 0.3 clients and agents put it on the
 * wire: `kind` discriminators, kebab-case states, lower-case roles, files nested under `file`, a card
 * with `url` / `preferredTransport` / `additionalInterfaces`. Only what the 1.0 model translates from
 * or to; the names are the 0.3 schema's, so a reader with that schema open finds each one.
 */

/** Arbitrary JSON object. */
export type Json03Object = { [key: string]: unknown };

/** The 0.3 task states (kebab-case); `unknown` is 0.3's catch-all. */
export type TaskState03 =
  | 'submitted'
  | 'working'
  | 'input-required'
  | 'completed'
  | 'canceled'
  | 'failed'
  | 'rejected'
  | 'auth-required'
  | 'unknown';

/** 0.3 roles. */
export type Role03 = 'user' | 'agent';

/** A file given by its bytes (base64) or by a URI. */
export type File03 =
  | { bytes: string; uri?: never; mimeType?: string; name?: string }
  | { uri: string; bytes?: never; mimeType?: string; name?: string };

/** 0.3 parts: `kind` says which. */
export type Part03 =
  | { kind: 'text'; text: string; metadata?: Json03Object }
  | { kind: 'file'; file: File03; metadata?: Json03Object }
  | { kind: 'data'; data: Json03Object; metadata?: Json03Object };

/** 0.3 Message. */
export interface Message03 {
  kind: 'message';
  messageId: string;
  role: Role03;
  parts: Part03[];
  contextId?: string;
  taskId?: string;
  metadata?: Json03Object;
  extensions?: string[];
  referenceTaskIds?: string[];
}

/** 0.3 TaskStatus. */
export interface TaskStatus03 {
  state: TaskState03;
  message?: Message03;
  timestamp?: string;
}

/** 0.3 Artifact. */
export interface Artifact03 {
  artifactId: string;
  name?: string;
  description?: string;
  parts: Part03[];
  metadata?: Json03Object;
  extensions?: string[];
}

/** 0.3 Task. */
export interface Task03 {
  kind: 'task';
  id: string;
  contextId: string;
  status: TaskStatus03;
  artifacts?: Artifact03[];
  history?: Message03[];
  metadata?: Json03Object;
}

/** 0.3 status-update event; `final` marks the last event of a stream. */
export interface TaskStatusUpdateEvent03 {
  kind: 'status-update';
  taskId: string;
  contextId: string;
  status: TaskStatus03;
  final: boolean;
  metadata?: Json03Object;
}

/** 0.3 artifact-update event. */
export interface TaskArtifactUpdateEvent03 {
  kind: 'artifact-update';
  taskId: string;
  contextId: string;
  artifact: Artifact03;
  append?: boolean;
  lastChunk?: boolean;
  metadata?: Json03Object;
}

/** What a 0.3 stream (and a 0.3 `message/send`) carries: one of four `kind`s. */
export type Event03 = Task03 | Message03 | TaskStatusUpdateEvent03 | TaskArtifactUpdateEvent03;

/** 0.3 push authentication: a list of schemes (the 1.0 form has one). */
export interface PushAuthentication03 {
  schemes: string[];
  credentials?: string;
}

/** 0.3 PushNotificationConfig (the webhook itself, without its task). */
export interface PushNotificationConfig03 {
  id?: string;
  url: string;
  token?: string;
  authentication?: PushAuthentication03;
}

/** 0.3 TaskPushNotificationConfig: the webhook nested under its task id. */
export interface TaskPushNotificationConfig03 {
  taskId: string;
  pushNotificationConfig: PushNotificationConfig03;
}

/** 0.3 MessageSendConfiguration. */
export interface MessageSendConfiguration03 {
  acceptedOutputModes?: string[];
  blocking?: boolean;
  historyLength?: number;
  pushNotificationConfig?: PushNotificationConfig03;
}

/** 0.3 MessageSendParams (`message/send`, `message/stream`). */
export interface MessageSendParams03 {
  message: Message03;
  configuration?: MessageSendConfiguration03;
  metadata?: Json03Object;
}

/** 0.3 AgentInterface: a transport at a URL (the version is the card's). */
export interface AgentInterface03 {
  url: string;
  transport: string;
}

/** 0.3 security schemes, OpenAPI style: `type` says which. */
export type SecurityScheme03 =
  | { type: 'apiKey'; name: string; in: 'header' | 'query' | 'cookie'; description?: string }
  | { type: 'http'; scheme: string; bearerFormat?: string; description?: string }
  | { type: 'oauth2'; flows: Json03Object; oauth2MetadataUrl?: string; description?: string }
  | { type: 'openIdConnect'; openIdConnectUrl: string; description?: string }
  | { type: 'mutualTLS'; description?: string };

/** 0.3 AgentCard (the members a 1.0 card translates to and from). */
export interface AgentCard03 {
  protocolVersion: string;
  name: string;
  description: string;
  url: string;
  preferredTransport?: string;
  additionalInterfaces?: AgentInterface03[];
  version: string;
  provider?: { organization: string; url: string };
  documentationUrl?: string;
  iconUrl?: string;
  capabilities: {
    streaming?: boolean;
    pushNotifications?: boolean;
    stateTransitionHistory?: boolean;
    extensions?: Json03Object[];
  };
  securitySchemes?: Record<string, SecurityScheme03>;
  security?: Array<Record<string, string[]>>;
  defaultInputModes: string[];
  defaultOutputModes: string[];
  skills: Json03Object[];
  supportsAuthenticatedExtendedCard?: boolean;
  signatures?: Array<{ protected: string; signature: string; header?: Json03Object }>;
}
