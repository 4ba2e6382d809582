/**
 * Parts and artifacts shown by what they are: text as text, JSON pretty-printed and foldable, images
 * as images, anything else as a download.
 */
import type { Artifact, Message, Part } from 'a2a-kit';
import { h, type Child } from './dom.js';

/** Folded below this depth, so a large document opens readable. */
const OPEN_DEPTH = 2;

/** A JSON value as a tree of `<details>`: objects and arrays fold, leaves are coloured by type. */
export function jsonTree(value: unknown, depth = 0, key?: string): HTMLElement {
  const label = key !== undefined ? h('span', { class: 'json-key' }, `${key}: `) : null;
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value)
      ? value.map((v, i) => [String(i), v] as const)
      : Object.entries(value);
    const summary = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
    if (entries.length === 0)
      return h(
        'div',
        { class: 'json-leaf' },
        label,
        h('span', { class: 'json-punct' }, Array.isArray(value) ? '[]' : '{}'),
      );
    return h(
      'details',
      { class: 'json-node', open: depth < OPEN_DEPTH },
      h('summary', null, label, h('span', { class: 'json-punct' }, summary)),
      h(
        'div',
        { class: 'json-children' },
        entries.map(([k, v]) =>
          jsonTree(v, depth + 1, Array.isArray(value) ? `${k}` : JSON.stringify(k)),
        ),
      ),
    );
  }
  const type = value === null ? 'null' : typeof value;
  return h(
    'div',
    { class: 'json-leaf' },
    label,
    h('span', { class: `json-${type}` }, JSON.stringify(value)),
  );
}

/** A JSON block: the tree, plus the text to copy. */
export function jsonBlock(value: unknown): HTMLElement {
  return h('div', { class: 'json' }, jsonTree(value));
}

function bytesOf(b64: string): Uint8Array {
  const bin = atob(b64.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function size(n: number): string {
  return n < 1024
    ? `${n} B`
    : n < 1024 * 1024
      ? `${(n / 1024).toFixed(1)} KiB`
      : `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

const isJsonType = (t: string): boolean => t === 'application/json' || t.endsWith('+json');

/** Text shown as JSON when it is JSON by its media type (and parses), else as text. */
function textBlock(text: string, mediaType: string): HTMLElement {
  if (isJsonType(mediaType)) {
    try {
      return jsonBlock(JSON.parse(text));
    } catch {
      // Not JSON after all: show it as it is.
    }
  }
  return h('pre', { class: 'text' }, text);
}

/** One part, rendered by its kind and media type. */
export function renderPart(part: Part): HTMLElement {
  const mediaType = (part.mediaType ?? '').toLowerCase();
  const caption: Child =
    part.filename || part.mediaType
      ? h(
          'div',
          { class: 'part-caption' },
          [part.filename, part.mediaType].filter(Boolean).join(' · '),
        )
      : null;
  let body: HTMLElement;
  if (typeof part.text === 'string') body = textBlock(part.text, mediaType);
  else if (part.data !== undefined) body = jsonBlock(part.data);
  else if (typeof part.raw === 'string') {
    let bytes: Uint8Array;
    try {
      bytes = bytesOf(part.raw);
    } catch {
      return h(
        'div',
        { class: 'part' },
        caption,
        h('p', { class: 'error' }, 'raw is not valid base64'),
      );
    }
    const name = part.filename || 'download';
    if (mediaType.startsWith('image/') && mediaType !== 'image/svg+xml') {
      body = h('img', {
        src: `data:${mediaType};base64,${part.raw}`,
        alt: part.filename || `image (${mediaType})`,
        class: 'part-image',
      });
    } else if (mediaType.startsWith('text/') || isJsonType(mediaType)) {
      body = textBlock(new TextDecoder().decode(bytes), mediaType);
    } else {
      const url = URL.createObjectURL(
        new Blob([bytes as BlobPart], { type: mediaType || 'application/octet-stream' }),
      );
      body = h(
        'a',
        { href: url, download: name, class: 'download' },
        `Download ${name} (${size(bytes.length)})`,
      );
    }
  } else if (typeof part.url === 'string') {
    const safe = /^https?:/i.test(part.url) ? part.url : undefined;
    body = h(
      'div',
      null,
      safe && mediaType.startsWith('image/')
        ? h('img', { src: safe, alt: part.filename || 'image', class: 'part-image' })
        : null,
      safe
        ? h(
            'a',
            { href: safe, target: '_blank', rel: 'noopener noreferrer' },
            part.filename || safe,
          )
        : h('code', null, part.url),
    );
  } else body = h('pre', { class: 'text' }, JSON.stringify(part));
  return h('div', { class: 'part' }, caption, body);
}

/** An artifact: its name, description and parts. */
export function renderArtifact(a: Artifact, note?: string): HTMLElement {
  return h(
    'div',
    { class: 'artifact', 'data-artifact': a.artifactId },
    h(
      'div',
      { class: 'artifact-head' },
      h('strong', null, `Artifact ${a.name ?? a.artifactId}`),
      note ? h('span', { class: 'muted' }, ` ${note}`) : null,
    ),
    a.description ? h('p', { class: 'muted' }, a.description) : null,
    a.parts.map(renderPart),
  );
}

/** A message: who said it, then its parts. */
export function renderMessage(m: Message): HTMLElement {
  const who = m.role === 'ROLE_USER' ? 'user' : 'agent';
  return h(
    'div',
    { class: `message message-${who}` },
    h('div', { class: 'message-role' }, who),
    m.parts.map(renderPart),
    m.metadata && Object.keys(m.metadata).length
      ? h(
          'div',
          { class: 'message-metadata' },
          h('span', { class: 'muted' }, 'metadata'),
          jsonBlock(m.metadata),
        )
      : null,
  );
}
