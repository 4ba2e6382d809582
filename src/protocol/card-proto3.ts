/**
 * A received card read as ProtoJSON reads it (§5.5, SPEC-NOTES 17): a `null` member is an unset
 * field, and a member a ProtoJSON writer left out because it held its default holds that default. A
 * conforming writer (the Python SDK's, protobuf's `MessageToJson`) omits `"skills": []`, an empty
 * security requirement's `"schemes": {}` and an empty `description`; other writers put `null` where
 * a field is unset. Both describe a valid card, so both are made explicit here, once, before the card
 * is validated. Unknown members and the contents of Struct members are never touched.
 */
import { CARD_FIELD_RULES, type CardMessage } from './card-canonical.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The members that are filled when absent: REQUIRED lists, maps and descriptions whose default value
 * the card schema accepts (an empty skill list, no scopes), and the one non-REQUIRED member the schema
 * cannot do without (a requirement's `schemes`: `{}` means anonymous access). A REQUIRED member whose
 * default is refused anyway (`name`, `version`, a URL) stays absent, so its error says "is required".
 */
const OMITTED_DEFAULTS: Partial<Record<CardMessage, Readonly<Record<string, () => unknown>>>> = {
  AgentCard: {
    description: () => '',
    defaultInputModes: () => [],
    defaultOutputModes: () => [],
    skills: () => [],
  },
  AgentSkill: { description: () => '', tags: () => [] },
  SecurityRequirement: { schemes: () => ({}) },
  AuthorizationCodeOAuthFlow: { scopes: () => ({}) },
  ClientCredentialsOAuthFlow: { scopes: () => ({}) },
  DeviceCodeOAuthFlow: { scopes: () => ({}) },
};

/** `v` as message `type` with ProtoJSON's defaults explicit; the same object when nothing changes. */
function message(v: unknown, type: CardMessage): unknown {
  if (!isObj(v)) return v;
  const rules = CARD_FIELD_RULES[type];
  let out: Obj | undefined;
  const set = (key: string, value: unknown): void => {
    out ??= { ...v };
    if (value === undefined) delete out[key];
    else out[key] = value;
  };
  for (const key of Object.keys(v)) {
    const rule = rules[key];
    if (!rule) continue;
    const value = v[key];
    if (value === null) {
      set(key, undefined);
      continue;
    }
    const t = rule.type;
    if (t === undefined || t === 'opaque') continue;
    let next: unknown = value;
    if (rule.shape === 'list' && Array.isArray(value)) {
      const items = value.map((e) => message(e, t));
      if (items.some((e, i) => e !== value[i])) next = items;
    } else if (rule.shape === 'map' && isObj(value)) {
      let changed = false;
      const entries = Object.entries(value).map(([k, e]) => {
        const m = message(e, t);
        changed ||= m !== e;
        return [k, m] as const;
      });
      if (changed) next = Object.fromEntries(entries);
    } else {
      next = message(value, t);
    }
    if (next !== value) set(key, next);
  }
  const fills = OMITTED_DEFAULTS[type];
  if (fills)
    for (const [key, fill] of Object.entries(fills))
      if ((out ?? v)[key] === undefined) set(key, fill());
  return out ?? v;
}

/** `signatures` is not among the canonical rules (it is never signed); its members are strings and a Struct. */
function signatures(card: unknown): unknown {
  if (!isObj(card) || !('signatures' in card)) return card;
  const list = card.signatures;
  if (list === null) {
    const { signatures: _null, ...rest } = card;
    return rest;
  }
  if (!Array.isArray(list) || !list.some((s) => isObj(s) && Object.values(s).includes(null)))
    return card;
  const cleaned = list.map((s) =>
    isObj(s) ? Object.fromEntries(Object.entries(s).filter(([, x]) => x !== null)) : s,
  );
  return { ...card, signatures: cleaned };
}

/**
 * The card `json` with `null` members removed and the defaults a ProtoJSON writer omits filled in
 * (see the module comment); `json` itself when it needs neither, so the usual card is not copied.
 * Never changes the card's canonical form except by the filled REQUIRED members, which is why a
 * parsed card keeps its received form for signature checks.
 */
export function cardWithProto3Defaults(json: unknown): unknown {
  return signatures(message(json, 'AgentCard'));
}
