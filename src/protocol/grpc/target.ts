/** Where a GRPC interface URL points: the gRPC binding has no paths, only an authority. */

/**
 * `host:port` of a GRPC interface URL, in whichever form the card gives it: a URL (`https://h:p`,
 * `http://h:p`, `grpc://h:p`, `grpcs://h:p`; a path is ignored — gRPC routes by method, not by path)
 * or a bare `h:p` target as several SDKs write it. Undefined when the text is neither.
 */
export function grpcAuthority(
  url: string,
): { host: string; port: number; tls: boolean | undefined } | undefined {
  const m = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\[[^\]]+\]|[^/:?#]+)(?::(\d+))?(?:[/?#].*)?$/i.exec(
    url.trim(),
  );
  if (!m) return undefined;
  const scheme = m[1]?.toLowerCase();
  const tls =
    scheme === 'https' || scheme === 'grpcs'
      ? true
      : scheme === 'http' || scheme === 'grpc'
        ? false
        : undefined;
  if (scheme !== undefined && tls === undefined) return undefined;
  const port = m[3] !== undefined ? Number(m[3]) : tls ? 443 : 80;
  if (m[3] === undefined && scheme === undefined) return undefined;
  return { host: m[2]!.replace(/^\[|\]$/g, ''), port, tls };
}
