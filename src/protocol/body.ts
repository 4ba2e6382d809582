/**
 * Reading a Web body (a fetch `Request` or `Response`) with a size limit, for the client, the server's
 * fetch binding and the push receiver alike (no Node built-ins). Past the limit the rest is cancelled,
 * not read, so a peer that sends without end costs at most `limit` bytes of memory.
 */

/**
 * The whole body, or `undefined` when it declares (`content-length`) or brings more than `limit`
 * bytes. A missing body reads as empty; a failure reading it is thrown as it came.
 */
export async function readBounded(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
  contentLength?: string | null,
): Promise<Uint8Array | undefined> {
  if (Number(contentLength ?? NaN) > limit) {
    await body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Each round takes one chunk of the body; it ends with the body or once past the limit.
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0];
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return all;
}

/** {@link readBounded} as UTF-8 text. */
export async function readBoundedText(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
  contentLength?: string | null,
): Promise<string | undefined> {
  const bytes = await readBounded(body, limit, contentLength);
  return bytes && new TextDecoder().decode(bytes);
}
