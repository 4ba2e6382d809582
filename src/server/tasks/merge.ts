/**
 * How one writer's task is laid over another's after a lost race (see reapply.ts): messages merged by
 * id, artifacts merged by id (ours replacing theirs), our status and metadata on top. Pure, no I/O.
 */
import type { Task } from '../../protocol/index.js';

/** This run's task laid over the stored one: the stored history and artifacts kept, ours added or replacing by id. */
export function merged(ours: Task, stored: Task): Task {
  const seen = new Set((stored.history ?? []).map((m) => m.messageId));
  const history = [
    ...(stored.history ?? []),
    ...(ours.history ?? []).filter((m) => !seen.has(m.messageId)),
  ];
  const artifacts = [...(stored.artifacts ?? [])];
  for (const a of ours.artifacts ?? []) {
    const i = artifacts.findIndex((b) => b.artifactId === a.artifactId);
    if (i >= 0) artifacts[i] = a;
    else artifacts.push(a);
  }
  const task: Task = { ...stored, status: ours.status, history, artifacts };
  if (ours.metadata || stored.metadata) task.metadata = { ...stored.metadata, ...ours.metadata };
  return task;
}
