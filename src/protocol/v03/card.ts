/**
 * Agent cards across versions. A 0.3 card names one endpoint (`url` + `preferredTransport`), lists the
 * others in `additionalInterfaces`, carries `protocolVersion` at the top, security schemes in OpenAPI
 * style (`type: "http"`) and requirements as plain maps; 1.0 puts every interface, with its version, in
 * `supportedInterfaces`. The 0.3 REST binding served cards in the proto's JSON form, whose schemes and
 * requirements look like 1.0's: both forms are read, and written on request.
 */
import type { AgentCard, AgentInterface, SecurityRequirement, SecurityScheme } from '../card.js';
import { majorMinor } from '../version.js';
import { V03 } from './enums.js';
import type { AgentCard03, Json03Object, SecurityScheme03 } from './types.js';
import { SIGNED_V03_FORM } from '../card-signed-form.js';

export { SIGNED_V03_FORM, keepSignedForm, signedForm } from '../card-signed-form.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a parsed card is a 0.3 card: no `supportedInterfaces`, and 0.3's `url` or top-level version. */
export function isV03Card(json: unknown): boolean {
  // `supportedInterfaces: null` is an unset field (ProtoJSON), as in a 0.3 writer's output.
  if (!isObj(json) || (json.supportedInterfaces !== undefined && json.supportedInterfaces !== null))
    return false;
  return (
    typeof json.url === 'string' ||
    typeof json.protocolVersion === 'string' ||
    json.preferredTransport !== undefined
  );
}

/** The `supportedInterfaces` entries that speak 0.3, in card order. */
export function v03Interfaces(card: AgentCard): AgentInterface[] {
  return card.supportedInterfaces.filter((i) => majorMinor(i.protocolVersion) === V03);
}

function schemeToV03(s: SecurityScheme): SecurityScheme03 | undefined {
  const d = (x: { description?: string }) => (x.description ? { description: x.description } : {});
  if ('apiKeySecurityScheme' in s) {
    const k = s.apiKeySecurityScheme;
    return {
      type: 'apiKey',
      name: k.name,
      in: (['query', 'cookie'].includes(k.location) ? k.location : 'header') as 'header',
      ...d(k),
    };
  }
  if ('httpAuthSecurityScheme' in s) {
    const h = s.httpAuthSecurityScheme;
    return {
      type: 'http',
      scheme: h.scheme,
      ...(h.bearerFormat ? { bearerFormat: h.bearerFormat } : {}),
      ...d(h),
    };
  }
  if ('oauth2SecurityScheme' in s) {
    const o = s.oauth2SecurityScheme;
    // 0.3 knows four flows and no PKCE flag.
    const flows: Json03Object = {};
    for (const name of [
      'authorizationCode',
      'clientCredentials',
      'implicit',
      'password',
    ] as const) {
      const f = o.flows[name] as Obj | undefined;
      if (f) {
        const { pkceRequired: _pkce, ...rest } = f;
        flows[name] = rest;
      }
    }
    return {
      type: 'oauth2',
      flows,
      ...(o.oauth2MetadataUrl ? { oauth2MetadataUrl: o.oauth2MetadataUrl } : {}),
      ...d(o),
    };
  }
  if ('openIdConnectSecurityScheme' in s)
    return {
      type: 'openIdConnect',
      openIdConnectUrl: s.openIdConnectSecurityScheme.openIdConnectUrl,
      ...d(s.openIdConnectSecurityScheme),
    };
  if ('mtlsSecurityScheme' in s) return { type: 'mutualTLS', ...d(s.mtlsSecurityScheme) };
  return undefined;
}

/** 0.3's `in` of an API key; anything unknown reads as a header, where most keys travel. */
function apiKeyLocation(v: unknown): 'header' | 'query' | 'cookie' {
  return v === 'query' || v === 'cookie' ? v : 'header';
}

function schemeFromV03(s: unknown): SecurityScheme | undefined {
  if (!isObj(s)) return undefined;
  if (s.type === undefined) return s as unknown as SecurityScheme; // the proto's JSON form is 1.0's
  const d =
    typeof s.description === 'string' && s.description ? { description: s.description } : {};
  switch (s.type) {
    case 'apiKey':
      return {
        apiKeySecurityScheme: { location: apiKeyLocation(s.in), name: String(s.name ?? ''), ...d },
      };
    case 'http':
      return {
        httpAuthSecurityScheme: {
          scheme: String(s.scheme ?? ''),
          ...(typeof s.bearerFormat === 'string' ? { bearerFormat: s.bearerFormat } : {}),
          ...d,
        },
      };
    case 'oauth2':
      return {
        oauth2SecurityScheme: {
          flows: isObj(s.flows) ? s.flows : {},
          ...(typeof s.oauth2MetadataUrl === 'string'
            ? { oauth2MetadataUrl: s.oauth2MetadataUrl }
            : {}),
          ...d,
        },
      };
    case 'openIdConnect':
      return {
        openIdConnectSecurityScheme: { openIdConnectUrl: String(s.openIdConnectUrl ?? ''), ...d },
      };
    case 'mutualTLS':
      return { mtlsSecurityScheme: { ...d } };
    default:
      return undefined;
  }
}

const requirementToV03 = (r: SecurityRequirement): Record<string, string[]> =>
  Object.fromEntries(
    Object.entries(r.schemes ?? {}).map(([name, scopes]) => [name, scopes.list ?? []]),
  );

function requirementFromV03(r: unknown): SecurityRequirement {
  if (isObj(r) && isObj(r.schemes)) return r as unknown as SecurityRequirement; // proto JSON form
  const entries = isObj(r) ? Object.entries(r) : [];
  return {
    schemes: Object.fromEntries(
      entries.map(([name, list]) => [name, { list: Array.isArray(list) ? list.map(String) : [] }]),
    ),
  };
}

/** What {@link cardToV03} writes: the JSON-RPC schema's form (the well-known card), or the proto's (0.3 REST `GET /v1/card`). */
export type V03CardForm = 'json' | 'proto';

/**
 * The 0.3 form of a 1.0 card, built from its 0.3 interfaces (undefined when it lists none): the first
 * is `url` / `preferredTransport`, all of them are `additionalInterfaces` (0.3 asks for the main one
 * to be repeated there). Signatures are left out: they cover the 1.0 form, so the 0.3 form is signed
 * on its own.
 */
export function cardToV03(card: AgentCard, form: V03CardForm = 'json'): AgentCard03 | undefined {
  const interfaces = v03Interfaces(card);
  const main = interfaces[0];
  if (!main) return undefined;
  const proto = form === 'proto';
  const schemes = card.securitySchemes ?? {};
  const securitySchemes = proto
    ? schemes
    : Object.fromEntries(
        Object.entries(schemes).flatMap(([n, s]) => {
          const v = schemeToV03(s);
          return v ? [[n, v]] : [];
        }),
      );
  const reqs = (list: SecurityRequirement[] | undefined) =>
    list?.length ? (proto ? list : list.map(requirementToV03)) : undefined;
  const caps = card.capabilities;
  const security = reqs(card.securityRequirements);
  const out: AgentCard03 = {
    protocolVersion: main.protocolVersion,
    name: card.name,
    description: card.description,
    url: main.url,
    preferredTransport: main.protocolBinding,
    additionalInterfaces: interfaces.map((i) => ({ url: i.url, transport: i.protocolBinding })),
    version: card.version,
    ...(card.provider ? { provider: card.provider } : {}),
    ...(card.documentationUrl ? { documentationUrl: card.documentationUrl } : {}),
    ...(card.iconUrl ? { iconUrl: card.iconUrl } : {}),
    capabilities: {
      ...(caps.streaming !== undefined ? { streaming: caps.streaming } : {}),
      ...(caps.pushNotifications !== undefined
        ? { pushNotifications: caps.pushNotifications }
        : {}),
      ...(caps.extensions?.length ? { extensions: caps.extensions as Json03Object[] } : {}),
    },
    ...(Object.keys(securitySchemes).length > 0
      ? { securitySchemes: securitySchemes as AgentCard03['securitySchemes'] }
      : {}),
    ...(security ? { security: security as AgentCard03['security'] } : {}),
    defaultInputModes: card.defaultInputModes,
    defaultOutputModes: card.defaultOutputModes,
    skills: card.skills.map(({ securityRequirements, ...skill }) => {
      const s = reqs(securityRequirements);
      return { ...skill, ...(s ? { security: s } : {}) };
    }),
    ...(caps.extendedAgentCard !== undefined
      ? { supportsAuthenticatedExtendedCard: caps.extendedAgentCard }
      : {}),
  };
  return out;
}

/**
 * The 1.0 model of a 0.3 card (either form): `url` / `preferredTransport` first, then the other
 * `additionalInterfaces`, each with the card's `protocolVersion` as Major.Minor (`0.3` when it says
 * none). Not validated here: the caller checks the result like any card. The 0.3 form stays
 * reachable through {@link signedForm} for signature checks.
 */
export function cardFromV03(json: unknown): AgentCard {
  const c = isObj(json) ? json : {};
  const version = majorMinor(c.protocolVersion) ?? V03;
  const main: AgentInterface = {
    url: String(c.url ?? ''),
    protocolBinding: typeof c.preferredTransport === 'string' ? c.preferredTransport : 'JSONRPC',
    protocolVersion: version,
  };
  const seen = new Set([`${main.protocolBinding} ${main.url}`]);
  const supportedInterfaces = [main];
  for (const i of Array.isArray(c.additionalInterfaces) ? c.additionalInterfaces : []) {
    if (!isObj(i) || typeof i.url !== 'string' || typeof i.transport !== 'string') continue;
    const key = `${i.transport} ${i.url}`;
    if (seen.has(key)) continue;
    seen.add(key);
    supportedInterfaces.push({
      url: i.url,
      protocolBinding: i.transport,
      protocolVersion: version,
    });
  }
  const caps = isObj(c.capabilities) ? c.capabilities : {};
  const schemes = isObj(c.securitySchemes) ? c.securitySchemes : {};
  const securitySchemes = Object.fromEntries(
    Object.entries(schemes).flatMap(([n, s]) => {
      const v = schemeFromV03(s);
      return v ? [[n, v]] : [];
    }),
  );
  const reqs = (list: unknown) =>
    Array.isArray(list) && list.length > 0
      ? { securityRequirements: list.map(requirementFromV03) }
      : {};
  const skills = (Array.isArray(c.skills) ? c.skills : []).map((s) => {
    if (!isObj(s)) return s;
    const { security, ...rest } = s;
    return { ...rest, ...reqs(security) };
  });
  const card = {
    name: c.name,
    description: c.description,
    supportedInterfaces,
    ...(c.provider !== undefined ? { provider: c.provider } : {}),
    version: c.version,
    ...(typeof c.documentationUrl === 'string' && c.documentationUrl
      ? { documentationUrl: c.documentationUrl }
      : {}),
    ...(typeof c.iconUrl === 'string' && c.iconUrl ? { iconUrl: c.iconUrl } : {}),
    capabilities: {
      ...(typeof caps.streaming === 'boolean' ? { streaming: caps.streaming } : {}),
      ...(typeof caps.pushNotifications === 'boolean'
        ? { pushNotifications: caps.pushNotifications }
        : {}),
      ...(Array.isArray(caps.extensions) && caps.extensions.length > 0
        ? { extensions: caps.extensions }
        : {}),
      ...(typeof c.supportsAuthenticatedExtendedCard === 'boolean'
        ? { extendedAgentCard: c.supportsAuthenticatedExtendedCard }
        : {}),
    },
    ...(Object.keys(securitySchemes).length > 0 ? { securitySchemes } : {}),
    ...reqs(c.security),
    defaultInputModes: c.defaultInputModes,
    defaultOutputModes: c.defaultOutputModes,
    skills,
    ...(Array.isArray(c.signatures) && c.signatures.length > 0 ? { signatures: c.signatures } : {}),
  } as unknown as AgentCard;
  Object.defineProperty(card, SIGNED_V03_FORM, { value: json, enumerable: false });
  return card;
}
