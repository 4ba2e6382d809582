/**
 * IPv4 addresses carried inside IPv6 ones. A webhook URL such as `http://[2002:a00:1::]/` names no
 * IPv4 address, yet a 6to4 relay, a Teredo relay, a NAT64 translator or the host's own stack may deliver
 * its packets to 10.0.0.1. The SSRF guard therefore judges every IPv4 address an IPv6 one can lead to.
 */

/** One IPv4 address found inside an IPv6 address, and the mechanism that carries it. */
export interface EmbeddedIPv4 {
  /** Dotted-quad IPv4 address. */
  address: string;
  /** How it is carried, for messages: `IPv4-mapped`, `6to4`, `Teredo client`, `NAT64`… */
  via: string;
}

/** The sixteen bytes of an IPv6 address (zone id dropped), or undefined when it does not parse. */
export function ipv6Bytes(address: string): number[] | undefined {
  let text = (address.split('%')[0] ?? '').toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const o = dotted.slice(1, 5).map(Number);
    if (o.some((x) => x > 255)) return undefined;
    text =
      text.slice(0, -dotted[0].length) +
      `${((o[0]! << 8) | o[1]!).toString(16)}:${((o[2]! << 8) | o[3]!).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const [head = '', tail] = halves;
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = tail === undefined ? 0 : 8 - h.length - t.length;
  if (fill < 0) return undefined;
  const groups = [...h, ...Array<string>(fill).fill('0'), ...t];
  if (groups.length !== 8 || !groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
  return groups.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
}

const quad = (b: number[]): string => b.join('.');
const zero = (b: number[]): boolean => b.every((x) => x === 0);

/**
 * RFC 6052 layouts of an IPv4 address under a NAT64 prefix of each length: the IPv4 bytes skip byte 8
 * (reserved, always zero) and whatever follows them is a zero suffix.
 */
const NAT64_LAYOUTS: [prefix: number, v4: number[], suffixFrom: number][] = [
  [48, [6, 7, 9, 10], 11],
  [56, [7, 9, 10, 11], 12],
  [64, [9, 10, 11, 12], 13],
  [96, [12, 13, 14, 15], 16],
];

/** Candidates under the local-use NAT64 prefix 64:ff9b:1::/48 (RFC 8215), whose length the operator picks. */
function localNat64(b: number[]): EmbeddedIPv4[] {
  const fits = NAT64_LAYOUTS.filter(
    ([prefix, , from]) => zero(b.slice(from)) && (prefix === 96 || b[8] === 0),
  );
  const found = fits.map(([prefix, at]) => ({
    address: quad(at.map((i) => b[i]!)),
    via: `NAT64 (local-use, /${prefix})`,
  }));
  // A zero suffix read as /96 gives 0.0.0.0, which no translator forwards; it only matters when nothing else fits.
  const meaningful = found.filter((e) => e.address !== '0.0.0.0');
  return meaningful.length > 0 ? meaningful : found;
}

/**
 * Every IPv4 address that traffic to this IPv6 address may reach, by each known embedding: IPv4-mapped
 * (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96), IPv4-compatible (::/96, deprecated), NAT64
 * (64:ff9b::/96 and the local-use 64:ff9b:1::/48), 6to4 (2002::/16), Teredo (2001::/32, both the
 * server and the obfuscated client address) and ISATAP interface identifiers (…:0:5efe:a.b.c.d, also
 * with the universal bit 200:5efe). Empty for an address that embeds none, or for an IPv4 input.
 */
export function embeddedIPv4(address: string): EmbeddedIPv4[] {
  const b = ipv6Bytes(address);
  if (!b) return [];
  const first10 = zero(b.slice(0, 10));
  const last4 = b.slice(12, 16);
  const out: EmbeddedIPv4[] = [];
  if (first10 && b[10] === 0xff && b[11] === 0xff)
    out.push({ address: quad(last4), via: 'IPv4-mapped' });
  else if (zero(b.slice(0, 8)) && b[8] === 0xff && b[9] === 0xff && b[10] === 0 && b[11] === 0) {
    out.push({ address: quad(last4), via: 'IPv4-translated' });
  } else if (first10 && b[10] === 0 && b[11] === 0 && !(zero(b.slice(12, 15)) && b[15]! <= 1)) {
    // ::/96 minus :: and ::1, which are the unspecified and loopback addresses in their own right.
    out.push({ address: quad(last4), via: 'IPv4-compatible' });
  }
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b) {
    if (zero(b.slice(4, 12))) out.push({ address: quad(last4), via: 'NAT64' });
    else if (b[4] === 0 && b[5] === 1) out.push(...localNat64(b));
  }
  if (b[0] === 0x20 && b[1] === 0x02) out.push({ address: quad(b.slice(2, 6)), via: '6to4' });
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0 && b[3] === 0) {
    out.push({ address: quad(b.slice(4, 8)), via: 'Teredo server' });
    // The client's public address is stored with every bit inverted (RFC 4380 §4) so NATs leave it alone.
    out.push({ address: quad(last4.map((x) => x ^ 0xff)), via: 'Teredo client' });
  }
  if ((b[8] === 0 || b[8] === 0x02) && b[9] === 0 && b[10] === 0x5e && b[11] === 0xfe) {
    out.push({ address: quad(last4), via: 'ISATAP' });
  }
  return out;
}
