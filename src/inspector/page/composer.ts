/**
 * The talk view's composer as the request it makes: the parts (text, a file as bytes, JSON data) and
 * the message's metadata (a JSON object), each refused with a message that says what to fix.
 */
import type { JsonObject, Part } from 'a2a-kit';
import { byId } from './dom.js';

/** The composer's parts: the text, the file (as bytes), the JSON data; at least one. */
export async function readParts(): Promise<Part[]> {
  const parts: Part[] = [];
  const text = byId<HTMLTextAreaElement>('msg-text').value;
  if (text.trim() !== '') parts.push({ text });
  const file = byId<HTMLInputElement>('msg-file').files?.[0];
  if (file) {
    const url = await new Promise<string>((resolve, reject) => {
      const r = new FileReader();
      r.onload = () => resolve(String(r.result));
      r.onerror = () => reject(new Error(`could not read ${file.name}`));
      r.readAsDataURL(file);
    });
    parts.push({
      raw: url.slice(url.indexOf(',') + 1),
      filename: file.name,
      mediaType: file.type || 'application/octet-stream',
    });
  }
  const data = byId<HTMLTextAreaElement>('msg-data').value;
  if (data.trim() !== '') {
    try {
      parts.push({ data: JSON.parse(data) });
    } catch (err) {
      throw new Error(`JSON data: ${(err as Error).message}`, { cause: err });
    }
  }
  if (parts.length === 0) throw new Error('write some text, attach a file, or give JSON data');
  return parts;
}

/** The message's metadata from its field: undefined when empty, else a JSON object. */
export function readMetadata(): JsonObject | undefined {
  const text = byId<HTMLTextAreaElement>('msg-metadata').value;
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`Metadata: ${(err as Error).message}`, { cause: err });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error('Metadata: give a JSON object, e.g. {"trace": "abc"}');
  return value as JsonObject;
}
