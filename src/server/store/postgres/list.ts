/**
 * `ListTasks` as one statement: the total and the page come from the same snapshot, so they agree even
 * while other instances insert. Pages are keyset ranges on (status time desc, id asc) — the position of
 * the last task seen, not an offset — so rows inserted meanwhile never shift or repeat a later page.
 */
import { A2AError } from '../../../protocol/index.js';
import { decodeCursor, type Scope, type TaskQuery } from '../task-store.js';

/** The SQL text and parameters of one `ListTasks` page over `table` (schema-qualified). */
export function listQuery(
  table: string,
  scope: Scope,
  q: TaskQuery,
): { text: string; values: unknown[] } {
  const values: unknown[] = [scope.tenant, scope.owner];
  const where = ['tenant = $1', 'owner = $2'];
  const add = (column: string, op: string, value: unknown): void => {
    values.push(value);
    where.push(`${column} ${op} $${values.length}`);
  };
  if (q.contextId !== undefined) add('context_id', '=', q.contextId);
  if (q.status !== undefined) add('state', '=', q.status);
  if (q.statusTimestampAfter !== undefined) add('status_ts', '>=', q.statusTimestampAfter);
  const filter = where.join(' AND ');
  let page = filter;
  if (q.pageToken) {
    const c = decodeCursor(q.pageToken);
    if (!c)
      throw A2AError.invalidParams([
        { field: 'pageToken', description: 'is not a token this server issued' },
      ]);
    values.push(c.time, c.id);
    const t = `$${values.length - 1}`;
    const id = `$${values.length}`;
    page += ` AND (status_ts < ${t} OR (status_ts = ${t} AND id > ${id}))`;
  }
  values.push(q.pageSize + 1);
  const text = `SELECT (SELECT count(*) FROM ${table} WHERE ${filter})::int AS total, p.id, p.body
    FROM (SELECT 1) one LEFT JOIN LATERAL (
      SELECT id, body, status_ts FROM ${table} WHERE ${page} ORDER BY status_ts DESC, id ASC LIMIT $${values.length}
    ) p ON true ORDER BY p.status_ts DESC, p.id ASC`;
  return { text, values };
}
