/**
 * What in a request body is A2A 0.3 rather than 1.0. Used only to word errors: a 1.0 request that
 * fails validation because it carries 0.3 shapes (`kind` on parts, `role: "user"`, `blocking`) gets
 * told so, instead of a bare "role must be ROLE_USER or ROLE_AGENT". Looks at a bounded number of
 * members; never throws.
 */
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const V03_STATE_SPELLINGS = new Set([
  'submitted',
  'working',
  'input-required',
  'completed',
  'canceled',
  'failed',
  'rejected',
  'auth-required',
]);
const MAX_PARTS = 32;

function messageTraits(m: unknown, at: string, out: string[]): void {
  if (!isObj(m)) return;
  if (m.kind === 'message') out.push(`${at}.kind "message" (1.0 messages have no kind)`);
  if (m.role === 'user' || m.role === 'agent')
    out.push(`${at}.role "${m.role}" (1.0 spells it ROLE_${m.role.toUpperCase()})`);
  const parts = Array.isArray(m.parts) ? m.parts.slice(0, MAX_PARTS) : [];
  parts.forEach((p, i) => {
    if (!isObj(p)) return;
    if (typeof p.kind === 'string')
      out.push(
        `${at}.parts[${i}].kind "${p.kind.slice(0, 20)}" (1.0 parts are {"text"}, {"url"}, {"raw"} or {"data"}, without kind)`,
      );
    if (isObj(p.file))
      out.push(
        `${at}.parts[${i}].file (1.0 puts a file's "url" or "raw" bytes on the part itself)`,
      );
  });
}

/** The 0.3 traits of a request's params (message, configuration, push config, status filter), as short notes. */
export function v03Traits(params: unknown): string[] {
  const out: string[] = [];
  if (!isObj(params)) return out;
  messageTraits(params.message, 'message', out);
  const cfg = params.configuration;
  if (isObj(cfg)) {
    if (cfg.blocking !== undefined) out.push('configuration.blocking (1.0 says returnImmediately)');
    if (cfg.pushNotificationConfig !== undefined)
      out.push('configuration.pushNotificationConfig (1.0 says taskPushNotificationConfig)');
  }
  if (isObj(params.pushNotificationConfig))
    out.push(
      'pushNotificationConfig (1.0 puts url, token and authentication on the config itself)',
    );
  if (typeof params.status === 'string' && V03_STATE_SPELLINGS.has(params.status)) {
    out.push(
      `status "${params.status}" (1.0 spells states TASK_STATE_${params.status.toUpperCase().replace('-', '_')})`,
    );
  }
  return out;
}
