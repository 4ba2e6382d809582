/**
 * What a task holds, counted as its serialized size: every member a client or an agent can fill —
 * message and part metadata, file names, media types, extensions, reference task ids, artifact names
 * and descriptions — not only the parts' content. Counting only `text`, `raw`, `url` and `data` let
 * 24 follow-ups of 1 MiB in `message.metadata` (or `part.filename`, `referenceTaskIds`…) grow a task
 * limited to 16 MiB to 24 MB (issue 28). Sizes are in characters of JSON text, as the stores keep it;
 * cheap for the usual message (string lengths), `JSON.stringify` only for free-form members.
 */
import type { Artifact, Message, Part, Task } from '../../protocol/index.js';

/** What a part's or a message's keys, quotes and commas add to their values, about. */
const PART_OVERHEAD = 16;
const MESSAGE_OVERHEAD = 64;
const ARTIFACT_OVERHEAD = 48;

const textSize = (s: string | undefined): number => (typeof s === 'string' ? s.length : 0);
const jsonSize = (v: unknown): number => (v === undefined ? 0 : (JSON.stringify(v)?.length ?? 0));

function listSize(list: readonly string[] | undefined): number {
  let n = 0;
  if (list) for (const s of list) n += textSize(s) + 3;
  return n;
}

/** The serialized size of some parts: content, metadata, file name and media type. */
export function partsSize(parts: readonly Part[]): number {
  let n = 0;
  for (const p of parts) {
    n += PART_OVERHEAD + textSize(p.text) + textSize(p.raw) + textSize(p.url);
    n += textSize(p.filename) + textSize(p.mediaType);
    if (p.data !== undefined) n += jsonSize(p.data);
    if (p.metadata !== undefined) n += jsonSize(p.metadata);
  }
  return n;
}

/** The serialized size of a message: its parts and every other member. */
export function messageSize(m: Message): number {
  let n = MESSAGE_OVERHEAD + partsSize(m.parts);
  n += textSize(m.messageId) + textSize(m.contextId) + textSize(m.taskId);
  n += listSize(m.extensions) + listSize(m.referenceTaskIds);
  if (m.metadata !== undefined) n += jsonSize(m.metadata);
  return n;
}

/** The serialized size of an artifact (or an agent's chunk of one): its parts and every other member. */
export function artifactSize(a: Omit<Artifact, 'artifactId'> & { artifactId?: string }): number {
  let n = ARTIFACT_OVERHEAD + partsSize(a.parts);
  n += textSize(a.artifactId) + textSize(a.name) + textSize(a.description);
  n += listSize(a.extensions);
  if (a.metadata !== undefined) n += jsonSize(a.metadata);
  return n;
}

/** The content size of a stored task: its history, its artifacts and its metadata. */
export function taskContentSize(task: Task): number {
  let n = 0;
  for (const m of task.history ?? []) n += messageSize(m);
  for (const a of task.artifacts ?? []) n += artifactSize(a);
  if (task.metadata !== undefined) n += jsonSize(task.metadata);
  return n;
}
