/**
 * The one operation table (spec §5.3): each operation with its JSON-RPC method, HTTP+JSON route,
 * the capability it needs (§3.3.4) and whether it streams. Every binding is driven by it.
 */

export type OperationName =
  | 'SendMessage'
  | 'SendStreamingMessage'
  | 'GetTask'
  | 'ListTasks'
  | 'CancelTask'
  | 'SubscribeToTask'
  | 'CreateTaskPushNotificationConfig'
  | 'GetTaskPushNotificationConfig'
  | 'ListTaskPushNotificationConfigs'
  | 'DeleteTaskPushNotificationConfig'
  | 'GetExtendedAgentCard';

/** Card capability flags an operation can depend on. */
export type Capability = 'streaming' | 'pushNotifications' | 'extendedAgentCard';
/** HTTP verbs the HTTP+JSON routes use. */
export type HttpVerb = 'GET' | 'POST' | 'DELETE';

/** An operation's HTTP+JSON route. */
export interface RestRoute {
  /** Verbs accepted on the path (the first is the canonical one). */
  verbs: HttpVerb[];
  /** Path below the interface URL (and below `/{tenant}`); `{name}` is one path segment. */
  path: string;
  /** Whether the request object comes from the JSON body (otherwise from path + query). */
  body: boolean;
}

/** One row of the operation table; `N` narrows it to one operation, which types its request and result. */
export interface Operation<N extends OperationName = OperationName> {
  name: N;
  /** JSON-RPC method name (§9.4). */
  method: string;
  rest: RestRoute;
  /** Capability flag that must be true on the card, or the capability error comes first. */
  capability?: Capability;
  /** Answers with an SSE stream of StreamResponse. */
  streaming: boolean;
}

const op = <N extends OperationName>(
  name: N,
  rest: RestRoute,
  streaming = false,
  capability?: Capability,
): Operation<N> => ({
  name,
  method: name,
  rest,
  streaming,
  ...(capability ? { capability } : {}),
});

/** Every operation, in the spec's order. */
export const OPERATIONS = [
  op('SendMessage', { verbs: ['POST'], path: '/message:send', body: true }),
  op(
    'SendStreamingMessage',
    { verbs: ['POST'], path: '/message:stream', body: true },
    true,
    'streaming',
  ),
  op('GetTask', { verbs: ['GET'], path: '/tasks/{id}', body: false }),
  op('ListTasks', { verbs: ['GET'], path: '/tasks', body: false }),
  op('CancelTask', { verbs: ['POST'], path: '/tasks/{id}:cancel', body: true }),
  // The proto says GET, the spec text says POST: accept both.
  op(
    'SubscribeToTask',
    { verbs: ['GET', 'POST'], path: '/tasks/{id}:subscribe', body: false },
    true,
    'streaming',
  ),
  op(
    'CreateTaskPushNotificationConfig',
    { verbs: ['POST'], path: '/tasks/{taskId}/pushNotificationConfigs', body: true },
    false,
    'pushNotifications',
  ),
  op(
    'GetTaskPushNotificationConfig',
    { verbs: ['GET'], path: '/tasks/{taskId}/pushNotificationConfigs/{id}', body: false },
    false,
    'pushNotifications',
  ),
  op(
    'ListTaskPushNotificationConfigs',
    { verbs: ['GET'], path: '/tasks/{taskId}/pushNotificationConfigs', body: false },
    false,
    'pushNotifications',
  ),
  op(
    'DeleteTaskPushNotificationConfig',
    { verbs: ['DELETE'], path: '/tasks/{taskId}/pushNotificationConfigs/{id}', body: false },
    false,
    'pushNotifications',
  ),
  op(
    'GetExtendedAgentCard',
    { verbs: ['GET'], path: '/extendedAgentCard', body: false },
    false,
    'extendedAgentCard',
  ),
] as const satisfies readonly Operation[];

/** Operations by JSON-RPC method name. */
export const OPERATIONS_BY_METHOD: ReadonlyMap<string, Operation> = new Map(
  OPERATIONS.map((o) => [o.method, o]),
);
/** Each operation by name, typed to that operation. */
export const OPERATIONS_BY_NAME = Object.fromEntries(OPERATIONS.map((o) => [o.name, o])) as {
  readonly [N in OperationName]: Operation<N>;
};

/** The error kind a missing capability produces (§3.3.4). */
export const CAPABILITY_ERROR = {
  streaming: 'UnsupportedOperation',
  pushNotifications: 'PushNotificationNotSupported',
  extendedAgentCard: 'UnsupportedOperation',
} as const;

/** Protocol version this implementation speaks (Major.Minor; patch numbers never matter, §3.6). */
export const PROTOCOL_VERSION = '1.0';
/** Service parameter naming the protocol version (§3.2.6); service parameter names are case-insensitive on the wire. */
export const HEADER_VERSION = 'A2A-Version';
/** Service parameter listing the extensions a client requests. */
export const HEADER_EXTENSIONS = 'A2A-Extensions';
/** Media type of A2A JSON bodies (§14.1). */
export const A2A_MEDIA_TYPE = 'application/a2a+json';
/** The well-known card path (§8.2), exactly. */
export const WELL_KNOWN_CARD_PATH = '/.well-known/agent-card.json';
