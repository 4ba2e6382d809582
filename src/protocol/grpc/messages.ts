/**
 * The protobuf messages of the A2A gRPC binding (§10, package `lf.a2a.v1`), written as a table of
 * facts from the specification: each field's ProtoJSON name, number and type. The codec maps these
 * straight between the ProtoJSON objects the rest of the library uses and protobuf bytes.
 *
 * A type is a scalar (`string`, `bytes`, `bool`, `int32`, `int64`, `double`), an enum or message
 * name from these tables, `Struct` / `Value` / `Timestamp` (well-known types, in their ProtoJSON
 * forms), or `map<T>` (string keys). Marks: `?` in front = the field has explicit presence
 * (`optional`, or a member of a oneof — named by the third element); `[]` after = repeated;
 * `!` after = filled with its default when absent on decoding: every member the protocol types
 * declare non-optional, so that a decoded object satisfies its type whichever proto3 encoder left the
 * default out (an empty `contextId` is `''`, never missing). Every other default stays absent, which
 * the rest of the library reads as the default; REQUIRED messages and enums are not filled, so a
 * peer that left them out is told so by the validators.
 */

/** One field: [number, type, oneof group]. */
export type FieldSpec = readonly [number, string] | readonly [number, string, string];
/** A message: its fields by ProtoJSON name. */
export type MessageSpec = Readonly<Record<string, FieldSpec>>;

/** Enums by name: value names in number order (a gap would be written as an empty name). */
export const A2A_ENUMS: Readonly<Record<string, readonly string[]>> = {
  TaskState: [
    'TASK_STATE_UNSPECIFIED',
    'TASK_STATE_SUBMITTED',
    'TASK_STATE_WORKING',
    'TASK_STATE_COMPLETED',
    'TASK_STATE_FAILED',
    'TASK_STATE_CANCELED',
    'TASK_STATE_INPUT_REQUIRED',
    'TASK_STATE_REJECTED',
    'TASK_STATE_AUTH_REQUIRED',
  ],
  Role: ['ROLE_UNSPECIFIED', 'ROLE_USER', 'ROLE_AGENT'],
};

const flow = (first: string): MessageSpec => ({
  [first]: [1, 'string!'],
  tokenUrl: [2, 'string!'],
  refreshUrl: [3, 'string'],
  scopes: [4, 'map<string>!'],
});

/** The messages of package `lf.a2a.v1`, by name. */
export const A2A_MESSAGES: Readonly<Record<string, MessageSpec>> = {
  // §4.1 core objects
  Task: {
    id: [1, 'string!'],
    contextId: [2, 'string!'],
    status: [3, 'TaskStatus'],
    artifacts: [4, 'Artifact[]'],
    history: [5, 'Message[]'],
    metadata: [6, 'Struct'],
  },
  TaskStatus: { state: [1, 'TaskState'], message: [2, 'Message'], timestamp: [3, 'Timestamp'] },
  Part: {
    text: [1, '?string', 'content'],
    raw: [2, '?bytes', 'content'],
    url: [3, '?string', 'content'],
    data: [4, '?Value', 'content'],
    metadata: [5, 'Struct'],
    filename: [6, 'string'],
    mediaType: [7, 'string'],
  },
  Message: {
    messageId: [1, 'string!'],
    contextId: [2, 'string'],
    taskId: [3, 'string'],
    role: [4, 'Role'],
    parts: [5, 'Part[]!'],
    metadata: [6, 'Struct'],
    extensions: [7, 'string[]'],
    referenceTaskIds: [8, 'string[]'],
  },
  Artifact: {
    artifactId: [1, 'string!'],
    name: [2, 'string'],
    description: [3, 'string'],
    parts: [4, 'Part[]!'],
    metadata: [5, 'Struct'],
    extensions: [6, 'string[]'],
  },
  // §4.2 streaming events
  TaskStatusUpdateEvent: {
    taskId: [1, 'string!'],
    contextId: [2, 'string!'],
    status: [3, 'TaskStatus'],
    metadata: [4, 'Struct'],
  },
  TaskArtifactUpdateEvent: {
    taskId: [1, 'string!'],
    contextId: [2, 'string!'],
    artifact: [3, 'Artifact'],
    append: [4, 'bool'],
    lastChunk: [5, 'bool'],
    metadata: [6, 'Struct'],
  },
  // §4.3 push notifications
  AuthenticationInfo: { scheme: [1, 'string!'], credentials: [2, 'string'] },
  TaskPushNotificationConfig: {
    tenant: [1, 'string'],
    id: [2, 'string'],
    taskId: [3, 'string'],
    url: [4, 'string!'],
    token: [5, 'string'],
    authentication: [6, 'AuthenticationInfo'],
  },
  // §4.4 discovery
  AgentInterface: {
    url: [1, 'string!'],
    protocolBinding: [2, 'string!'],
    tenant: [3, 'string'],
    protocolVersion: [4, 'string!'],
  },
  AgentCard: {
    name: [1, 'string!'],
    description: [2, 'string!'],
    supportedInterfaces: [3, 'AgentInterface[]!'],
    provider: [4, 'AgentProvider'],
    version: [5, 'string!'],
    documentationUrl: [6, '?string'],
    capabilities: [7, 'AgentCapabilities!'],
    securitySchemes: [8, 'map<SecurityScheme>'],
    securityRequirements: [9, 'SecurityRequirement[]'],
    defaultInputModes: [10, 'string[]!'],
    defaultOutputModes: [11, 'string[]!'],
    skills: [12, 'AgentSkill[]!'],
    signatures: [13, 'AgentCardSignature[]'],
    iconUrl: [14, '?string'],
  },
  AgentProvider: { url: [1, 'string!'], organization: [2, 'string!'] },
  AgentCapabilities: {
    streaming: [1, '?bool'],
    pushNotifications: [2, '?bool'],
    extensions: [3, 'AgentExtension[]'],
    extendedAgentCard: [4, '?bool'],
  },
  AgentExtension: {
    uri: [1, 'string'],
    description: [2, 'string'],
    required: [3, 'bool'],
    params: [4, 'Struct'],
  },
  AgentSkill: {
    id: [1, 'string!'],
    name: [2, 'string!'],
    description: [3, 'string!'],
    tags: [4, 'string[]!'],
    examples: [5, 'string[]'],
    inputModes: [6, 'string[]'],
    outputModes: [7, 'string[]'],
    securityRequirements: [8, 'SecurityRequirement[]'],
  },
  AgentCardSignature: {
    protected: [1, 'string!'],
    signature: [2, 'string!'],
    header: [3, 'Struct'],
  },
  // §4.5 security
  StringList: { list: [1, 'string[]!'] },
  SecurityRequirement: { schemes: [1, 'map<StringList>!'] },
  SecurityScheme: {
    apiKeySecurityScheme: [1, '?APIKeySecurityScheme', 'scheme'],
    httpAuthSecurityScheme: [2, '?HTTPAuthSecurityScheme', 'scheme'],
    oauth2SecurityScheme: [3, '?OAuth2SecurityScheme', 'scheme'],
    openIdConnectSecurityScheme: [4, '?OpenIdConnectSecurityScheme', 'scheme'],
    mtlsSecurityScheme: [5, '?MutualTlsSecurityScheme', 'scheme'],
  },
  APIKeySecurityScheme: {
    description: [1, 'string'],
    location: [2, 'string!'],
    name: [3, 'string!'],
  },
  HTTPAuthSecurityScheme: {
    description: [1, 'string'],
    scheme: [2, 'string!'],
    bearerFormat: [3, 'string'],
  },
  OAuth2SecurityScheme: {
    description: [1, 'string'],
    flows: [2, 'OAuthFlows'],
    oauth2MetadataUrl: [3, 'string'],
  },
  OpenIdConnectSecurityScheme: { description: [1, 'string'], openIdConnectUrl: [2, 'string!'] },
  MutualTlsSecurityScheme: { description: [1, 'string'] },
  OAuthFlows: {
    authorizationCode: [1, '?AuthorizationCodeOAuthFlow', 'flow'],
    clientCredentials: [2, '?ClientCredentialsOAuthFlow', 'flow'],
    implicit: [3, '?ImplicitOAuthFlow', 'flow'],
    password: [4, '?PasswordOAuthFlow', 'flow'],
    deviceCode: [5, '?DeviceCodeOAuthFlow', 'flow'],
  },
  AuthorizationCodeOAuthFlow: { ...flow('authorizationUrl'), pkceRequired: [5, 'bool'] },
  DeviceCodeOAuthFlow: flow('deviceAuthorizationUrl'),
  ClientCredentialsOAuthFlow: {
    tokenUrl: [1, 'string!'],
    refreshUrl: [2, 'string'],
    scopes: [3, 'map<string>!'],
  },
  ImplicitOAuthFlow: {
    authorizationUrl: [1, 'string'],
    refreshUrl: [2, 'string'],
    scopes: [3, 'map<string>'],
  },
  PasswordOAuthFlow: {
    tokenUrl: [1, 'string'],
    refreshUrl: [2, 'string'],
    scopes: [3, 'map<string>'],
  },
  // §3.2, §10.4 requests and responses
  SendMessageConfiguration: {
    acceptedOutputModes: [1, 'string[]'],
    taskPushNotificationConfig: [2, 'TaskPushNotificationConfig'],
    historyLength: [3, '?int32'],
    returnImmediately: [4, 'bool'],
  },
  SendMessageRequest: {
    tenant: [1, 'string'],
    message: [2, 'Message'],
    configuration: [3, 'SendMessageConfiguration'],
    metadata: [4, 'Struct'],
  },
  SendMessageResponse: { task: [1, '?Task', 'payload'], message: [2, '?Message', 'payload'] },
  StreamResponse: {
    task: [1, '?Task', 'payload'],
    message: [2, '?Message', 'payload'],
    statusUpdate: [3, '?TaskStatusUpdateEvent', 'payload'],
    artifactUpdate: [4, '?TaskArtifactUpdateEvent', 'payload'],
  },
  GetTaskRequest: { tenant: [1, 'string'], id: [2, 'string'], historyLength: [3, '?int32'] },
  ListTasksRequest: {
    tenant: [1, 'string'],
    contextId: [2, 'string'],
    status: [3, 'TaskState'],
    pageSize: [4, '?int32'],
    pageToken: [5, 'string'],
    historyLength: [6, '?int32'],
    statusTimestampAfter: [7, 'Timestamp'],
    includeArtifacts: [8, '?bool'],
  },
  ListTasksResponse: {
    tasks: [1, 'Task[]!'],
    nextPageToken: [2, 'string!'],
    pageSize: [3, 'int32!'],
    totalSize: [4, 'int32!'],
  },
  CancelTaskRequest: { tenant: [1, 'string'], id: [2, 'string'], metadata: [3, 'Struct'] },
  SubscribeToTaskRequest: { tenant: [1, 'string'], id: [2, 'string'] },
  GetTaskPushNotificationConfigRequest: {
    tenant: [1, 'string'],
    taskId: [2, 'string'],
    id: [3, 'string'],
  },
  DeleteTaskPushNotificationConfigRequest: {
    tenant: [1, 'string'],
    taskId: [2, 'string'],
    id: [3, 'string'],
  },
  ListTaskPushNotificationConfigsRequest: {
    tenant: [4, 'string'],
    taskId: [1, 'string'],
    pageSize: [2, 'int32'],
    pageToken: [3, 'string'],
  },
  ListTaskPushNotificationConfigsResponse: {
    configs: [1, 'TaskPushNotificationConfig[]!'],
    nextPageToken: [2, 'string!'],
  },
  GetExtendedAgentCardRequest: { tenant: [1, 'string'] },
  Empty: {},
};

/**
 * The google.rpc error model (`google.rpc.Status` and the detail messages bindings commonly send),
 * used for `grpc-status-details-bin` (§10.6). Keyed by full name so an `Any` type URL finds them.
 */
export const RPC_MESSAGES: Readonly<Record<string, MessageSpec>> = {
  'google.rpc.Status': {
    code: [1, 'int32'],
    message: [2, 'string'],
    details: [3, 'google.protobuf.Any[]'],
  },
  'google.protobuf.Any': { typeUrl: [1, 'string'], value: [2, 'bytes'] },
  'google.rpc.ErrorInfo': {
    reason: [1, 'string'],
    domain: [2, 'string'],
    metadata: [3, 'map<string>'],
  },
  'google.rpc.BadRequest': { fieldViolations: [1, 'google.rpc.BadRequest.FieldViolation[]!'] },
  'google.rpc.BadRequest.FieldViolation': {
    field: [1, 'string'],
    description: [2, 'string'],
    reason: [3, 'string'],
    localizedMessage: [4, 'google.rpc.LocalizedMessage'],
  },
  'google.rpc.LocalizedMessage': { locale: [1, 'string'], message: [2, 'string'] },
  'google.rpc.PreconditionFailure': {
    violations: [1, 'google.rpc.PreconditionFailure.Violation[]!'],
  },
  'google.rpc.PreconditionFailure.Violation': {
    type: [1, 'string'],
    subject: [2, 'string'],
    description: [3, 'string'],
  },
  'google.rpc.ResourceInfo': {
    resourceType: [1, 'string'],
    resourceName: [2, 'string'],
    owner: [3, 'string'],
    description: [4, 'string'],
  },
  'google.rpc.RequestInfo': { requestId: [1, 'string'], servingData: [2, 'string'] },
  'google.rpc.Help': { links: [1, 'google.rpc.Help.Link[]!'] },
  'google.rpc.Help.Link': { description: [1, 'string'], url: [2, 'string'] },
};
