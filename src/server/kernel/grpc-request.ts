/** A gRPC call as the request an authenticator reads, for both gRPC servers (node:http2 and grpc-js). */
import type { AuthRequest, AuthSocket } from './request.js';

/**
 * The call as an {@link AuthRequest}, built on first read. gRPC has no query string: an API key the
 * card places in the query is read from metadata of the same name (our gRPC client sends it there),
 * so `url` carries the text metadata as query parameters too.
 */
export function grpcRequestView(
  path: () => string,
  textMetadata: () => Record<string, string | string[]>,
  socket: () => AuthSocket | undefined,
): AuthRequest {
  let headers: Record<string, string | string[]> | undefined;
  let url: string | undefined;
  return {
    method: 'POST',
    get headers() {
      return (headers ??= textMetadata());
    },
    get url() {
      if (url === undefined) {
        const q = new URLSearchParams();
        for (const [k, v] of Object.entries((headers ??= textMetadata())))
          for (const one of Array.isArray(v) ? v : [v]) q.append(k, one);
        url = `${path()}?${q}`;
      }
      return url;
    },
    get socket() {
      return socket();
    },
  };
}
