/** The parts of the message `a2a send` builds: the text, `--file` as file parts, `--data` as data parts. */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { JsonValue, Part } from 'a2a-kit';
import { UsageError } from './exit-codes.js';

const TYPES: Readonly<Record<string, string>> = {
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.html': 'text/html',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.xml': 'application/xml',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.cjs': 'text/javascript',
  '.ts': 'text/typescript',
  '.py': 'text/x-python',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.webp': 'image/webp',
};

/** Largest file `--file` reads; bigger ones belong behind a URL. */
const MAX_FILE_BYTES = 32 * 1024 * 1024;

/** A file as a part: its bytes in base64, its name and a media type guessed from the extension. */
export async function filePart(file: string, forced?: string): Promise<Part> {
  let size: number;
  try {
    const s = await stat(file);
    if (!s.isFile()) throw new Error('not a regular file');
    size = s.size;
  } catch (err) {
    throw new UsageError(
      `--file ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
    );
  }
  if (size > MAX_FILE_BYTES)
    throw new UsageError(
      `--file ${file}: ${size} bytes is more than the ${MAX_FILE_BYTES / 1024 / 1024} MiB a message part may carry here`,
    );
  const bytes = await readFile(file);
  const mediaType = forced ?? TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
  return { raw: bytes.toString('base64'), filename: path.basename(file), mediaType };
}

/** `--data '{"path": "change-ok"}'` or `--data @request.json` as a data part. */
export async function dataPart(raw: string): Promise<Part> {
  let text = raw;
  if (raw.startsWith('@')) {
    try {
      text = await readFile(raw.slice(1), 'utf8');
    } catch (err) {
      throw new UsageError(`--data ${raw}: could not read the file (${(err as Error).message})`);
    }
  }
  try {
    return { data: JSON.parse(text) as JsonValue };
  } catch (err) {
    throw new UsageError(`--data expects JSON (or @file.json): ${(err as Error).message}`);
  }
}

/** The text (if any), then the files, then the data, in the order given. */
export async function messageParts(
  text: string | undefined,
  files: readonly string[],
  data: readonly string[],
  mediaType?: string,
): Promise<Part[]> {
  if (mediaType !== undefined && !/^[\w.+-]+\/[\w.+-]+$/.test(mediaType))
    throw new UsageError(
      `--media-type expects TYPE/SUBTYPE, e.g. text/typescript, got "${mediaType}"`,
    );
  const parts: Part[] = [];
  if (text !== undefined && text !== '') parts.push({ text });
  for (const f of files) parts.push(await filePart(f, mediaType));
  for (const d of data) parts.push(await dataPart(d));
  if (parts.length === 0) throw new UsageError('nothing to send: give a text, --file or --data');
  return parts;
}
