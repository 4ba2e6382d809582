/**
 * The canonical form of an AgentCard (spec §8.4.1): the bytes a card signature covers. No Node
 * built-ins here: the browser client verifies signatures with it (the served bytes and their ETag are
 * the server's, in server/card/served-bytes.ts).
 *
 * Field presence matters for the canonical form, and JSON alone cannot tell us which members the
 * proto declares `REQUIRED`, `optional` or neither, so that knowledge lives in {@link CARD_FIELD_RULES}.
 */
import canonicalize from 'canonicalize';
import type { AgentCard } from './card.js';

/**
 * How a proto field is treated when default values are removed:
 * - `required`: `REQUIRED` in the proto; kept whenever present, even holding a default. A missing one is
 *   not filled in: the §8.4.1 worked example leaves absent REQUIRED members absent, and the canonical
 *   form has to reproduce that example byte for byte.
 * - `explicit`: has explicit presence (`optional` keyword, or a oneof member); kept whenever it is
 *   present, whatever its value. A oneof member must survive even as `{}` (e.g. `mtlsSecurityScheme: {}`)
 *   because its presence *is* the choice.
 * - `implicit`: everything else; dropped when it holds a default (`""`, `0`, `false`, `[]`, `{}`).
 *   Singular message fields such as `provider` or `params` fall here: an empty one is dropped.
 */
export type FieldPresence = 'required' | 'explicit' | 'implicit';
/** `scalar` single value, `list` repeated, `map` proto map, `message` singular sub-message. */
export type FieldShape = 'scalar' | 'list' | 'map' | 'message';
/** A nested message name from the table, or `opaque` for content copied verbatim (Struct, map<string,string>). */
export type FieldType = CardMessage | 'opaque';

export interface FieldRule {
  presence: FieldPresence;
  shape: FieldShape;
  /** Element / value / message type; absent for scalars and lists of scalars. */
  type?: FieldType;
}

export type CardMessage =
  | 'AgentCard'
  | 'AgentInterface'
  | 'AgentProvider'
  | 'AgentCapabilities'
  | 'AgentExtension'
  | 'AgentSkill'
  | 'SecurityRequirement'
  | 'StringList'
  | 'SecurityScheme'
  | 'APIKeySecurityScheme'
  | 'HTTPAuthSecurityScheme'
  | 'OAuth2SecurityScheme'
  | 'OpenIdConnectSecurityScheme'
  | 'MutualTlsSecurityScheme'
  | 'OAuthFlows'
  | 'AuthorizationCodeOAuthFlow'
  | 'ClientCredentialsOAuthFlow'
  | 'ImplicitOAuthFlow'
  | 'PasswordOAuthFlow'
  | 'DeviceCodeOAuthFlow';

const r = (shape: FieldShape, type?: FieldType): FieldRule => ({
  presence: 'required',
  shape,
  type,
});
const x = (shape: FieldShape, type?: FieldType): FieldRule => ({
  presence: 'explicit',
  shape,
  type,
});
const i = (shape: FieldShape, type?: FieldType): FieldRule => ({
  presence: 'implicit',
  shape,
  type,
});
const S = 'scalar';

/** Presence knowledge from a2a.proto (v1.0.1), by message, keyed by ProtoJSON member name. */
export const CARD_FIELD_RULES: Readonly<Record<CardMessage, Readonly<Record<string, FieldRule>>>> =
  {
    AgentCard: {
      name: r(S),
      description: r(S),
      supportedInterfaces: r('list', 'AgentInterface'),
      provider: i('message', 'AgentProvider'),
      version: r(S),
      documentationUrl: x(S),
      capabilities: r('message', 'AgentCapabilities'),
      securitySchemes: i('map', 'SecurityScheme'),
      securityRequirements: i('list', 'SecurityRequirement'),
      defaultInputModes: r('list'),
      defaultOutputModes: r('list'),
      skills: r('list', 'AgentSkill'),
      iconUrl: x(S),
      // `signatures` is never part of the canonical form; see canonicalCardObject.
    },
    AgentInterface: { url: r(S), protocolBinding: r(S), tenant: i(S), protocolVersion: r(S) },
    AgentProvider: { url: r(S), organization: r(S) },
    AgentCapabilities: {
      streaming: x(S),
      pushNotifications: x(S),
      extensions: i('list', 'AgentExtension'),
      extendedAgentCard: x(S),
    },
    AgentExtension: {
      uri: i(S),
      description: i(S),
      required: i(S),
      params: i('message', 'opaque'),
    },
    AgentSkill: {
      id: r(S),
      name: r(S),
      description: r(S),
      tags: r('list'),
      examples: i('list'),
      inputModes: i('list'),
      outputModes: i('list'),
      securityRequirements: i('list', 'SecurityRequirement'),
    },
    SecurityRequirement: { schemes: i('map', 'StringList') },
    StringList: { list: i('list') },
    SecurityScheme: {
      apiKeySecurityScheme: x('message', 'APIKeySecurityScheme'),
      httpAuthSecurityScheme: x('message', 'HTTPAuthSecurityScheme'),
      oauth2SecurityScheme: x('message', 'OAuth2SecurityScheme'),
      openIdConnectSecurityScheme: x('message', 'OpenIdConnectSecurityScheme'),
      mtlsSecurityScheme: x('message', 'MutualTlsSecurityScheme'),
    },
    APIKeySecurityScheme: { description: i(S), location: r(S), name: r(S) },
    HTTPAuthSecurityScheme: { description: i(S), scheme: r(S), bearerFormat: i(S) },
    OAuth2SecurityScheme: {
      description: i(S),
      flows: r('message', 'OAuthFlows'),
      oauth2MetadataUrl: i(S),
    },
    OpenIdConnectSecurityScheme: { description: i(S), openIdConnectUrl: r(S) },
    MutualTlsSecurityScheme: { description: i(S) },
    OAuthFlows: {
      authorizationCode: x('message', 'AuthorizationCodeOAuthFlow'),
      clientCredentials: x('message', 'ClientCredentialsOAuthFlow'),
      implicit: x('message', 'ImplicitOAuthFlow'),
      password: x('message', 'PasswordOAuthFlow'),
      deviceCode: x('message', 'DeviceCodeOAuthFlow'),
    },
    AuthorizationCodeOAuthFlow: {
      authorizationUrl: r(S),
      tokenUrl: r(S),
      refreshUrl: i(S),
      scopes: r('map', 'opaque'),
      pkceRequired: i(S),
    },
    ClientCredentialsOAuthFlow: { tokenUrl: r(S), refreshUrl: i(S), scopes: r('map', 'opaque') },
    ImplicitOAuthFlow: { authorizationUrl: i(S), refreshUrl: i(S), scopes: i('map', 'opaque') },
    PasswordOAuthFlow: { tokenUrl: i(S), refreshUrl: i(S), scopes: i('map', 'opaque') },
    DeviceCodeOAuthFlow: {
      deviceAuthorizationUrl: r(S),
      tokenUrl: r(S),
      refreshUrl: i(S),
      scopes: r('map', 'opaque'),
    },
  };

type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function isDefault(v: Json): boolean {
  if (v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  return isObject(v) && Object.keys(v).length === 0;
}

function canonicalValue(v: Json, rule: FieldRule): Json {
  const t = rule.type;
  if (!t || t === 'opaque') return v;
  if (rule.shape === 'list')
    return Array.isArray(v) ? v.map((e) => (isObject(e) ? canonicalMessage(e, t) : e)) : v;
  if (rule.shape === 'map' && isObject(v)) {
    const out: Record<string, Json> = {};
    // Map entries always exist once written, so their values are processed but never dropped.
    for (const [k, e] of Object.entries(v)) out[k] = isObject(e) ? canonicalMessage(e, t) : e;
    return out;
  }
  return isObject(v) ? canonicalMessage(v, t) : v;
}

function canonicalMessage(obj: Record<string, Json>, type: CardMessage): Record<string, Json> {
  const rules = CARD_FIELD_RULES[type];
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(obj)) {
    const rule = rules[key];
    if (!rule) {
      // Members the proto we know does not declare (a newer revision, a vendor addition) are kept
      // verbatim: a serializer only emits a default for a field with presence, and keeping them means
      // the signature still covers them, so they cannot be slipped into a signed card unnoticed.
      if (value !== undefined) out[key] = value;
      continue;
    }
    // ProtoJSON reads `null` as "not set".
    if (value === undefined || value === null) continue;
    const v = canonicalValue(value, rule);
    if (rule.presence === 'implicit' && isDefault(v)) continue;
    out[key] = v;
  }
  return out;
}

/**
 * The card as the §8.4.1 rules want it before JCS: `signatures` removed, default-valued members
 * removed unless REQUIRED or explicitly present (`optional` keyword or oneof member), recursively.
 */
export function canonicalCardObject(
  card: AgentCard | Record<string, unknown>,
): Record<string, unknown> {
  const { signatures: _signatures, ...rest } = card as Record<string, unknown>;
  return canonicalMessage(rest, 'AgentCard');
}

/** RFC 8785 text of `canonicalCardObject`. */
export function canonicalCardJson(card: AgentCard | Record<string, unknown>): string {
  const text = canonicalize(canonicalCardObject(card));
  if (text === undefined) throw new TypeError('agent card cannot be canonicalised');
  return text;
}

/** §8.4.1 canonical bytes (UTF-8 of the JCS text): the detached JWS payload of every card signature. */
export function canonicalCardBytes(card: AgentCard | Record<string, unknown>): Uint8Array {
  return new TextEncoder().encode(canonicalCardJson(card));
}
