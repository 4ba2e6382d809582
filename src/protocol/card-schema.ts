/**
 * Runtime schema for a full AgentCard (spec §4.4, §4.5) and {@link parseAgentCard}, which turns
 * a received card into either a typed card or a list of problems a person can act on.
 *
 * Loaded on first use (lazy-schemas.ts), never by an entry point's import: it brings zod. The public
 * parse is the asynchronous one in card-parse.ts, which loads this module and calls this one.
 *
 * Objects are loose: unknown members are not checked and are passed through untouched, because a
 * card's signature covers them (see card-canonical.ts) and a parse must not change signed content.
 * For the same reason the schema applies no defaults and no transforms.
 */
import { z } from 'zod';
import type { AgentCard, ParseAgentCardResult } from './card.js';
import type { JsonValue } from './task.js';
import { cardWithProto3Defaults } from './card-proto3.js';
import { rememberSignedForm } from './card-signed-form.js';

type Issue = { input?: unknown };
const typed = (what: string) => (iss: Issue) =>
  iss.input === undefined ? 'is required' : `must be ${what}`;

const str = () => z.string({ error: typed('a string') });
const nonEmpty = () => str().min(1, 'must not be empty');
const bool = () => z.boolean({ error: typed('true or false') });
const strList = () => z.array(str(), { error: typed('an array of strings') });
// Values of a Struct are taken on trust (a card is JSON), typed as JsonValue to match the protocol types.
const struct = () => z.record(z.string(), z.custom<JsonValue>(), { error: typed('a JSON object') });
const obj = <T extends z.core.$ZodLooseShape>(shape: T) =>
  z.looseObject(shape, { error: typed('an object') });

function isAbsoluteUrl(u: string): boolean {
  try {
    new URL(u);
    return /^[a-z][a-z0-9+.-]*:\/\//i.test(u);
  } catch {
    return false;
  }
}
const url = () => str().refine(isAbsoluteUrl, 'must be an absolute URL');
/** Optional URL members: an explicitly empty string is tolerated (it means "not set" in ProtoJSON). */
const optUrl = () =>
  str()
    .refine((u) => u === '' || isAbsoluteUrl(u), 'must be an absolute URL')
    .optional();
const scopes = () =>
  z.record(z.string(), str(), { error: typed('an object mapping scope names to descriptions') });

const HTTP_BINDINGS = new Set(['JSONRPC', 'HTTP+JSON']);

/**
 * A gRPC channel target `host:port` (`[v6]:port` too). Not a URL, but what the gRPC entries of the
 * reference SDKs' cards hold; a client can still reach it, so it is accepted for GRPC interfaces.
 */
const isGrpcTarget = (u: string): boolean => /^(?:\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d{1,5}$/i.test(u);

/** §4.4.6 AgentInterface (an HTTP binding needs an http(s) URL). */
export const AgentInterfaceSchema = obj({
  // Checked here so that the problem is reported with the others; whether a target fits the binding, below.
  url: str().refine((u) => isAbsoluteUrl(u) || isGrpcTarget(u), 'must be an absolute URL'),
  protocolBinding: nonEmpty(),
  tenant: str().optional(),
  protocolVersion: str().regex(/^\d+\.\d+(\.\d+)?$/, 'must be a version such as "1.0"'),
}).superRefine((i, ctx) => {
  if (isGrpcTarget(i.url) && !isAbsoluteUrl(i.url) && i.protocolBinding.toUpperCase() !== 'GRPC') {
    ctx.addIssue({ code: 'custom', path: ['url'], message: 'must be an absolute URL' });
  }
  if (
    HTTP_BINDINGS.has(i.protocolBinding) &&
    isAbsoluteUrl(i.url) &&
    !/^https?:\/\//i.test(i.url)
  ) {
    ctx.addIssue({
      code: 'custom',
      path: ['url'],
      message: `must be an http or https URL for ${i.protocolBinding}`,
    });
  }
});

/** §4.4.2 AgentProvider. */
export const AgentProviderSchema = obj({ url: url(), organization: nonEmpty() });

/** §4.4.4 AgentExtension. */
export const AgentExtensionSchema = obj({
  uri: str().optional(),
  description: str().optional(),
  required: bool().optional(),
  params: struct().optional(),
});

/** §4.4.3 AgentCapabilities. */
export const AgentCapabilitiesSchema = obj({
  streaming: bool().optional(),
  pushNotifications: bool().optional(),
  extensions: z.array(AgentExtensionSchema, { error: typed('an array of extensions') }).optional(),
  extendedAgentCard: bool().optional(),
});

/** SecurityRequirement: scheme name → scopes. */
export const SecurityRequirementSchema = obj({
  schemes: z.record(z.string(), obj({ list: strList().optional() }), {
    error: typed('an object of scheme names'),
  }),
});
const requirements = () =>
  z.array(SecurityRequirementSchema, { error: typed('an array') }).optional();

/** §4.4.5 AgentSkill. */
export const AgentSkillSchema = obj({
  id: nonEmpty(),
  name: nonEmpty(),
  description: str(),
  // §5.7 wants required arrays non-empty; real cards often publish skills without tags, so `[]` is accepted.
  tags: strList(),
  examples: strList().optional(),
  inputModes: strList().optional(),
  outputModes: strList().optional(),
  securityRequirements: requirements(),
});

/** §4.4.7 AgentCardSignature (base64url members). */
export const AgentCardSignatureSchema = obj({
  protected: nonEmpty().regex(/^[A-Za-z0-9_-]+$/, 'must be base64url without padding'),
  signature: nonEmpty().regex(/^[A-Za-z0-9_-]+$/, 'must be base64url without padding'),
  header: struct().optional(),
});

/** Check that exactly one member of a oneof is present. */
function oneOf(members: readonly string[], what: string) {
  return (v: Record<string, unknown>, ctx: z.core.$RefinementCtx) => {
    const present = members.filter((m) => v[m] !== undefined && v[m] !== null);
    if (present.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        message:
          present.length === 0
            ? `must contain exactly one ${what} (${members.join(', ')})`
            : `must contain exactly one ${what}, found ${present.join(' and ')}`,
      });
    }
  };
}

const flowCommon = { refreshUrl: optUrl(), scopes: scopes() };
/** §4.5.7 OAuthFlows: exactly one flow. */
export const OAuthFlowsSchema = obj({
  authorizationCode: obj({
    ...flowCommon,
    authorizationUrl: url(),
    tokenUrl: url(),
    pkceRequired: bool().optional(),
  }).optional(),
  clientCredentials: obj({ ...flowCommon, tokenUrl: url() }).optional(),
  implicit: obj({
    ...flowCommon,
    authorizationUrl: optUrl(),
    scopes: scopes().optional(),
  }).optional(),
  password: obj({ ...flowCommon, tokenUrl: optUrl(), scopes: scopes().optional() }).optional(),
  deviceCode: obj({ ...flowCommon, deviceAuthorizationUrl: url(), tokenUrl: url() }).optional(),
}).superRefine(
  oneOf(['authorizationCode', 'clientCredentials', 'implicit', 'password', 'deviceCode'], 'flow'),
);

const description = () => str().optional();
/** §4.5.1 SecurityScheme: exactly one scheme. */
export const SecuritySchemeSchema = obj({
  apiKeySecurityScheme: obj({
    description: description(),
    location: z.enum(['header', 'query', 'cookie'], {
      error: typed('one of header, query, cookie'),
    }),
    name: nonEmpty(),
  }).optional(),
  httpAuthSecurityScheme: obj({
    description: description(),
    scheme: nonEmpty(),
    bearerFormat: str().optional(),
  }).optional(),
  oauth2SecurityScheme: obj({
    description: description(),
    flows: OAuthFlowsSchema,
    oauth2MetadataUrl: optUrl(),
  }).optional(),
  openIdConnectSecurityScheme: obj({
    description: description(),
    openIdConnectUrl: url(),
  }).optional(),
  mtlsSecurityScheme: obj({ description: description() }).optional(),
}).superRefine(
  oneOf(
    [
      'apiKeySecurityScheme',
      'httpAuthSecurityScheme',
      'oauth2SecurityScheme',
      'openIdConnectSecurityScheme',
      'mtlsSecurityScheme',
    ],
    'security scheme',
  ),
);

/** §4.4.1 AgentCard. */
export const AgentCardSchema = obj({
  name: nonEmpty(),
  description: str(),
  // Strict on §5.7's "at least one element" here: a card with no interface cannot be used at all.
  supportedInterfaces: z
    .array(AgentInterfaceSchema, { error: typed('an array of interfaces') })
    .min(1, 'must list at least one interface'),
  provider: AgentProviderSchema.optional(),
  version: nonEmpty(),
  documentationUrl: optUrl(),
  capabilities: AgentCapabilitiesSchema,
  securitySchemes: z
    .record(z.string(), SecuritySchemeSchema, { error: typed('an object of named schemes') })
    .optional(),
  securityRequirements: requirements(),
  // Lenient on emptiness (not on presence) for these REQUIRED arrays: cards in the wild, and the spec's
  // own §8.4.1 example, publish `skills: []`; an empty mode list simply means "nothing declared".
  defaultInputModes: strList(),
  defaultOutputModes: strList(),
  skills: z.array(AgentSkillSchema, { error: typed('an array of skills') }),
  signatures: z
    .array(AgentCardSignatureSchema, { error: typed('an array of signatures') })
    .optional(),
  iconUrl: optUrl(),
}).superRefine((card, ctx) => {
  // A requirement naming an undeclared scheme can never be satisfied by a client.
  const declared = new Set(Object.keys(card.securitySchemes ?? {}));
  const check = (
    reqs: Array<{ schemes: Record<string, unknown> }> | undefined,
    at: (string | number)[],
  ) =>
    reqs?.forEach((req, n) => {
      for (const name of Object.keys(req.schemes)) {
        if (!declared.has(name)) {
          ctx.addIssue({
            code: 'custom',
            path: [...at, n, 'schemes', name],
            message: `refers to security scheme "${name}", which securitySchemes does not declare`,
          });
        }
      }
    });
  check(card.securityRequirements, ['securityRequirements']);
  card.skills.forEach((s, n) =>
    check(s.securityRequirements, ['skills', n, 'securityRequirements']),
  );
});

export type { ParseAgentCardResult };

/** `supportedInterfaces[1].url`, `securitySchemes["my scheme"]`, `(card)` for the root. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (typeof seg === 'string' && /^[A-Za-z_$][\w$]*$/.test(seg))
      out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(String(seg))}]`;
  }
  return out || '(card)';
}

/**
 * Validate a received AgentCard (a parsed value, or JSON text), read as ProtoJSON: `null` members are
 * unset and the REQUIRED lists, maps and descriptions a ProtoJSON writer omits when empty are filled
 * in (see card-proto3.ts). On success the card is returned otherwise unchanged (unknown members
 * included; signatures still verify against the received form); on failure every problem is listed
 * as `path: what is wrong`.
 */
export function parseAgentCard(json: unknown): ParseAgentCardResult {
  let value = json;
  if (typeof json === 'string') {
    try {
      value = JSON.parse(json);
    } catch (e) {
      return { ok: false, problems: [`(card): is not valid JSON (${(e as Error).message})`] };
    }
  }
  // nulls and omitted defaults made explicit first: a conforming ProtoJSON writer's card is valid as written.
  const read = cardWithProto3Defaults(value);
  const r = AgentCardSchema.safeParse(read);
  // The oneOf refinements make each security scheme and flow set one member of its union, which the
  // output type cannot express; test/protocol-shapes.test.ts proves every other field agrees.
  if (r.success) {
    const card = r.data as AgentCard;
    // What was filled in is not what was signed: signatures are checked against the card as received.
    return { ok: true, card: read === value ? card : rememberSignedForm(card, value as object) };
  }
  return {
    ok: false,
    problems: r.error.issues.map((iss) => `${formatPath(iss.path)}: ${iss.message}`),
  };
}
