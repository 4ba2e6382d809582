/**
 * The client on another runtime (`bun` / `deno run`): exercises the echo agent at argv[2] and prints
 * one line per step, then `ok`. A2A_TRUST_JWK holds the public JWK (with its kid) the card must be
 * signed with.
 */
import type { CardTrust } from 'a2a-kit/client';
import { exerciseAgent } from './client-checks.js';

const base = process.argv[2];
if (!base) throw new Error('usage: client-main.ts <agent base URL>');
type Key = NonNullable<CardTrust['keys']>[number];
const jwk = process.env.A2A_TRUST_JWK
  ? (JSON.parse(process.env.A2A_TRUST_JWK) as Key['key'])
  : undefined;
const kid = (jwk as { kid?: string } | undefined)?.kid ?? '';
const lines = await exerciseAgent(base, jwk ? { trust: { keys: [{ kid, key: jwk }] } } : {});
for (const line of lines) console.log(line);
console.log('ok');
