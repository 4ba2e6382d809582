/** Request headers of the 0.3 bindings: `A2A-Version: 0.3`, and extensions under 0.3's header name. */
import { HEADER_VERSION } from '../../protocol/index.js';
import { V03 } from '../../protocol/v03/index.js';
import type { TransportRequest } from '../transport.js';

/** 0.3's name of the extensions header. */
export const V03_EXTENSIONS_HEADER = 'X-A2A-Extensions';

/**
 * Headers of a 0.3 request. The version is sent although 0.3 did not define it: an agent that speaks
 * both versions at one URL tells them apart by it, and to a 0.3-only agent it is an unknown header.
 */
export function v03Headers(
  req: TransportRequest,
  contentType: string | undefined,
  accept: string,
): Record<string, string> {
  const h: Record<string, string> = { [HEADER_VERSION]: V03, Accept: accept };
  if (contentType) h['Content-Type'] = contentType;
  if (req.extensions && req.extensions.length > 0)
    h[V03_EXTENSIONS_HEADER] = req.extensions.join(',');
  if (req.lastEventId !== undefined) h['Last-Event-ID'] = req.lastEventId;
  return { ...h, ...req.headers };
}
