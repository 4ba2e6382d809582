/**
 * The reverse proxies whose `X-Forwarded-Proto` / `X-Forwarded-Host` a server believes. Anyone can send
 * those headers; only a connection from a configured proxy address makes them mean something.
 */
import { BlockList, isIP } from 'node:net';
import { A2AConfigError } from '../kernel/config-error.js';

/** The longest forwarded header value read; a proxy sets a short one, anything longer is not read. */
const MAX_FORWARDED = 1024;

/** A set of proxy addresses and ranges, checked against a connection's peer address. */
export class TrustedProxies {
  readonly #list: BlockList;

  private constructor(list: BlockList) {
    this.#list = list;
  }

  /** Parse `10.0.0.7`, `::1`, `10.0.0.0/8`, `fd00::/8`; an {@link A2AConfigError} names a bad entry. */
  static of(entries: readonly string[]): TrustedProxies {
    if (!Array.isArray(entries))
      throw new A2AConfigError('trustedProxies', 'trustedProxies must be an array of addresses');
    const list = new BlockList();
    for (const entry of entries) {
      const [address = '', prefix, ...rest] = String(entry).trim().split('/');
      const family = isIP(address);
      const bits = prefix === undefined ? undefined : Number(prefix);
      const max = family === 6 ? 128 : 32;
      if (
        family === 0 ||
        rest.length > 0 ||
        (bits !== undefined && (!/^\d{1,3}$/.test(prefix!) || bits > max))
      ) {
        throw new A2AConfigError(
          'trustedProxies',
          `trustedProxies entries are IP addresses or CIDR ranges ("10.0.0.7", "10.0.0.0/8", "::1"), got ${JSON.stringify(entry)}`,
        );
      }
      const type = family === 6 ? 'ipv6' : 'ipv4';
      if (bits === undefined) list.addAddress(address, type);
      else list.addSubnet(address, bits, type);
    }
    return new TrustedProxies(list);
  }

  /** Whether a connection from `address` (as node reports it, IPv4-mapped IPv6 included) is a trusted proxy. */
  trusts(address: string | undefined): boolean {
    if (!address) return false;
    const family = isIP(address);
    return family !== 0 && this.#list.check(address, family === 6 ? 'ipv6' : 'ipv4');
  }
}

/**
 * The value the nearest proxy set: the last of a comma-separated header (earlier ones come from
 * whoever talked to that proxy), trimmed; undefined when absent, empty or implausibly long.
 */
export function lastForwarded(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[value.length - 1] : value;
  if (v === undefined || v.length > MAX_FORWARDED) return undefined;
  const last = v.slice(v.lastIndexOf(',') + 1).trim();
  return last === '' ? undefined : last;
}
