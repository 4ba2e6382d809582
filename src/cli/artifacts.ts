/**
 * Artifacts as a task produces them (whole, or in chunks with `append`), and `--out DIR`: one file per
 * part, named after the artifact (or the part's filename), never outside DIR, never two with one name.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Artifact, Part, Task, TaskArtifactUpdateEvent } from 'a2a-kit';

/** The artifacts of one task, in the order they first appeared. */
export class ArtifactCollector {
  readonly #byId = new Map<string, Artifact>();

  /** Takes the artifacts a task snapshot carries (they replace what was collected under the same id). */
  addTask(task: Task): void {
    for (const a of task.artifacts ?? [])
      this.#byId.set(a.artifactId, { ...a, parts: joinTextChunks(a.parts) });
  }

  /** Applies an artifact event: a new artifact, a replacement, or a chunk appended to an earlier one. */
  addEvent(ev: TaskArtifactUpdateEvent): void {
    const prev = this.#byId.get(ev.artifact.artifactId);
    const parts = ev.append && prev ? [...prev.parts, ...ev.artifact.parts] : ev.artifact.parts;
    this.#byId.set(ev.artifact.artifactId, {
      ...prev,
      ...ev.artifact,
      parts: joinTextChunks(parts),
    });
  }

  /** Everything collected. */
  get all(): Artifact[] {
    return [...this.#byId.values()];
  }
}

/**
 * Consecutive text parts without a file name and of one media type, joined: that is how an artifact
 * streamed in chunks (`append`) is stored, and a file or a line per chunk would help nobody.
 */
export function joinTextChunks(parts: readonly Part[]): Part[] {
  const out: Part[] = [];
  for (const part of parts) {
    const last = out[out.length - 1];
    if (
      last?.text !== undefined &&
      part.text !== undefined &&
      !last.filename &&
      !part.filename &&
      last.mediaType === part.mediaType
    ) {
      out[out.length - 1] = { ...last, text: last.text + part.text };
    } else out.push(part);
  }
  return out;
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  'text/plain': '.txt',
  'text/markdown': '.md',
  'text/html': '.html',
  'text/csv': '.csv',
  'application/json': '.json',
  'application/pdf': '.pdf',
  'application/zip': '.zip',
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/svg+xml': '.svg',
};

/** A file name that is only a name: no directories, no leading dots, nothing a shell trips on. */
export function safeName(raw: string | undefined, fallback: string): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 100);
  return clean || fallback;
}

function extensionOf(part: Part): string {
  if (part.data !== undefined) return '.json';
  if (part.url !== undefined) return '.url';
  const fromType = part.mediaType
    ? EXTENSIONS[part.mediaType.split(';')[0]!.trim().toLowerCase()]
    : undefined;
  return fromType ?? (part.text !== undefined ? '.txt' : '.bin');
}

function contentOf(part: Part): string | Buffer {
  if (part.text !== undefined) return part.text;
  if (part.data !== undefined) return `${JSON.stringify(part.data, null, 2)}\n`;
  if (part.raw !== undefined) return Buffer.from(part.raw, 'base64');
  return `${part.url}\n`;
}

/** Writes every part of every artifact under `dir` (created if needed); returns the paths written. */
export async function saveArtifacts(
  dir: string,
  artifacts: readonly Artifact[],
): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const used = new Set<string>();
  const written: string[] = [];
  for (const artifact of artifacts) {
    const base = safeName(artifact.name, safeName(artifact.artifactId, 'artifact'));
    for (const [i, part] of artifact.parts.entries()) {
      const ext = extensionOf(part);
      const wanted = part.filename
        ? safeName(part.filename, `${base}${ext}`)
        : `${base}${artifact.parts.length > 1 ? `-${i + 1}` : ''}${ext}`;
      let name = wanted;
      for (let n = 2; used.has(name.toLowerCase()) && n < 10_000; n++)
        name = wanted.replace(/(\.[^.]*)?$/, (e) => `-${n}${e}`);
      used.add(name.toLowerCase());
      const file = path.join(dir, name);
      await writeFile(file, contentOf(part));
      written.push(file);
    }
  }
  return written;
}
