/**
 * Random (version 4) UUIDs for task, context, message and artifact ids. Same format and randomness
 * source as `crypto.randomUUID()`, but each id costs one flat 36-character string: the random bytes come
 * from a pooled buffer refilled in bulk, and the text is made in one call from character codes instead of
 * a dozen concatenations (which then have to be flattened again when the id becomes a map key).
 */
import { randomFillSync } from 'node:crypto';

const POOL_IDS = 256;
const pool = Buffer.allocUnsafe(16 * POOL_IDS);
let next = POOL_IDS;
const HEX = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
const DASH = 0x2d;
const codes: number[] = new Array<number>(36).fill(DASH); // dashes stay at 8, 13, 18 and 23

export function newId(): string {
  if (next === POOL_IDS) {
    randomFillSync(pool);
    next = 0;
  }
  const o = 16 * next++;
  let j = 0;
  for (let i = 0; i < 16; i++) {
    let b = pool[o + i]!;
    if (i === 6)
      b = (b & 0x0f) | 0x40; // version 4
    else if (i === 8) b = (b & 0x3f) | 0x80; // RFC 9562 variant
    if (j === 8 || j === 13 || j === 18 || j === 23) j++;
    codes[j++] = HEX[b >> 4]!;
    codes[j++] = HEX[b & 0x0f]!;
  }
  return String.fromCharCode.apply(null, codes);
}
