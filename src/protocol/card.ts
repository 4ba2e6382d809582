/** Agent discovery and security objects (spec §4.4, §4.5), ProtoJSON form. */
import type { JsonObject } from './task.js';

/** Binding names used in `AgentInterface.protocolBinding`. */
export const BINDINGS = { JSONRPC: 'JSONRPC', HTTP_JSON: 'HTTP+JSON', GRPC: 'GRPC' } as const;

/** §4.4.6 AgentInterface. */
export interface AgentInterface {
  url: string;
  protocolBinding: string;
  tenant?: string;
  protocolVersion: string;
}

/** §4.4.2 AgentProvider. */
export interface AgentProvider {
  url: string;
  organization: string;
}

/** §4.4.4 AgentExtension. */
export interface AgentExtension {
  uri?: string;
  description?: string;
  required?: boolean;
  params?: JsonObject;
}

/** §4.4.3 AgentCapabilities. */
export interface AgentCapabilities {
  streaming?: boolean;
  pushNotifications?: boolean;
  extensions?: AgentExtension[];
  extendedAgentCard?: boolean;
}

/** SecurityRequirement: scheme name → required scopes. */
export interface SecurityRequirement {
  schemes: Record<string, { list: string[] }>;
}

/** §4.4.5 AgentSkill. */
export interface AgentSkill {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples?: string[];
  inputModes?: string[];
  outputModes?: string[];
  securityRequirements?: SecurityRequirement[];
}

/** §4.4.7 AgentCardSignature (JWS, flattened: protected header + signature, detached payload). */
export interface AgentCardSignature {
  protected: string;
  signature: string;
  header?: JsonObject;
}

export interface APIKeySecurityScheme {
  description?: string;
  /** `header`, `query` or `cookie`. */
  location: string;
  name: string;
}
export interface HTTPAuthSecurityScheme {
  description?: string;
  /** e.g. `Bearer`, `Basic`. */
  scheme: string;
  bearerFormat?: string;
}
export interface OAuthFlowCommon {
  refreshUrl?: string;
  scopes?: Record<string, string>;
}
export interface OAuthFlows {
  authorizationCode?: OAuthFlowCommon & { authorizationUrl: string; tokenUrl: string; pkceRequired?: boolean };
  clientCredentials?: OAuthFlowCommon & { tokenUrl: string };
  implicit?: OAuthFlowCommon & { authorizationUrl?: string };
  password?: OAuthFlowCommon & { tokenUrl?: string };
  deviceCode?: OAuthFlowCommon & { deviceAuthorizationUrl: string; tokenUrl: string };
}
export interface OAuth2SecurityScheme {
  description?: string;
  flows: OAuthFlows;
  oauth2MetadataUrl?: string;
}
export interface OpenIdConnectSecurityScheme {
  description?: string;
  openIdConnectUrl: string;
}
export interface MutualTlsSecurityScheme {
  description?: string;
}

/** §4.5.1 SecurityScheme: a oneof, serialised as its member name. */
export type SecurityScheme =
  | { apiKeySecurityScheme: APIKeySecurityScheme }
  | { httpAuthSecurityScheme: HTTPAuthSecurityScheme }
  | { oauth2SecurityScheme: OAuth2SecurityScheme }
  | { openIdConnectSecurityScheme: OpenIdConnectSecurityScheme }
  | { mtlsSecurityScheme: MutualTlsSecurityScheme };

/** §4.4.1 AgentCard. */
export interface AgentCard {
  name: string;
  description: string;
  supportedInterfaces: AgentInterface[];
  provider?: AgentProvider;
  version: string;
  documentationUrl?: string;
  capabilities: AgentCapabilities;
  securitySchemes?: Record<string, SecurityScheme>;
  securityRequirements?: SecurityRequirement[];
  defaultInputModes: string[];
  defaultOutputModes: string[];
  skills: AgentSkill[];
  signatures?: AgentCardSignature[];
  iconUrl?: string;
}
