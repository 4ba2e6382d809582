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

/** SecurityRequirement: scheme name → required scopes (an empty scope list may be omitted, as ProtoJSON does). */
export interface SecurityRequirement {
  schemes: Record<string, { list?: string[] }>;
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

/** §4.5.2 API key security scheme. */
export interface APIKeySecurityScheme {
  description?: string;
  /** Where the key travels. */
  location: 'header' | 'query' | 'cookie';
  name: string;
}
/** §4.5.3 HTTP authentication security scheme. */
export interface HTTPAuthSecurityScheme {
  description?: string;
  /** e.g. `Bearer`, `Basic`. */
  scheme: string;
  bearerFormat?: string;
}
/** Members every OAuth flow has; `scopes` (name → description) is REQUIRED in the current flows, optional in the deprecated ones. */
export interface OAuthFlowCommon {
  refreshUrl?: string;
  scopes?: Record<string, string>;
}
/** §4.5.7 OAuthFlows: a oneof, exactly one flow is set. */
export interface OAuthFlows {
  authorizationCode?: OAuthFlowCommon & {
    authorizationUrl: string;
    tokenUrl: string;
    scopes: Record<string, string>;
    pkceRequired?: boolean;
  };
  clientCredentials?: OAuthFlowCommon & { tokenUrl: string; scopes: Record<string, string> };
  /** Deprecated by the spec. */
  implicit?: OAuthFlowCommon & { authorizationUrl?: string };
  /** Deprecated by the spec. */
  password?: OAuthFlowCommon & { tokenUrl?: string };
  deviceCode?: OAuthFlowCommon & {
    deviceAuthorizationUrl: string;
    tokenUrl: string;
    scopes: Record<string, string>;
  };
}
/** §4.5.4 OAuth 2.0 security scheme. */
export interface OAuth2SecurityScheme {
  description?: string;
  flows: OAuthFlows;
  oauth2MetadataUrl?: string;
}
/** §4.5.5 OpenID Connect security scheme. */
export interface OpenIdConnectSecurityScheme {
  description?: string;
  openIdConnectUrl: string;
}
/** §4.5.6 Mutual TLS security scheme. */
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

/** What `parseAgentCard` returns: the card, or every problem found. */
export type ParseAgentCardResult =
  { ok: true; card: AgentCard } | { ok: false; problems: string[] };
