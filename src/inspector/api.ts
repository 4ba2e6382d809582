/**
 * The inspector's JSON API, one handler per route. Every call to an agent goes through the session's
 * `A2AClient` for that agent, so the page sees exactly what a program using the library would.
 */
import { randomUUID } from 'node:crypto';
import type { ListTasksRequest, TaskState } from 'a2a-kit';
import type { AgentEntry } from './agent-entry.js';
import { probeAgents } from './known-agents.js';
import { MASK } from './mask.js';
import type { PipelineFeed } from './pipeline.js';
import type { Session } from './session.js';
import { BadRequest } from './errors.js';
import { cancel, resubscribe, talk, talkRequest } from './talk.js';

/** What a handler gets: the session, the JSON body (empty for GET), and the inspector's shared parts. */
export interface ApiContext {
  session: Session;
  body: Record<string, unknown>;
  pipeline: PipelineFeed;
  knownAgents: readonly string[];
}

type Handler = (c: ApiContext) => Promise<unknown> | unknown;

function str(body: Record<string, unknown>, key: string, required: true): string;
function str(body: Record<string, unknown>, key: string, required?: false): string | undefined;
function str(body: Record<string, unknown>, key: string, required = false): string | undefined {
  const v = body[key];
  if (typeof v === 'string' && v.trim() !== '') return v.trim();
  if (v !== undefined && v !== null && v !== '' && typeof v !== 'string')
    throw new BadRequest(`${key} must be a string`);
  if (required) throw new BadRequest(`${key} is required`);
  return undefined;
}

function int(body: Record<string, unknown>, key: string): number | undefined {
  const v = body[key];
  if (v === undefined || v === null || v === '') return undefined;
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isInteger(n) || n < 0) throw new BadRequest(`${key} must be a whole number ≥ 0`);
  return n;
}

/** The session's agent named by `agent`, whose card must have been opened. */
function agentOf(c: ApiContext): AgentEntry {
  return c.session.agent(str(c.body, 'agent', true));
}

/** ListTasks filters from the page's form; empty fields are left out. */
function listRequest(body: Record<string, unknown>): ListTasksRequest {
  const status = str(body, 'status');
  if (status !== undefined && !/^TASK_STATE_[A-Z_]+$/.test(status))
    throw new BadRequest('status must be a TASK_STATE_… name');
  const after = str(body, 'statusTimestampAfter');
  if (after !== undefined && Number.isNaN(Date.parse(after)))
    throw new BadRequest('statusTimestampAfter must be a date and time');
  const pageSize = int(body, 'pageSize');
  const historyLength = int(body, 'historyLength');
  const contextId = str(body, 'contextId');
  const pageToken = str(body, 'pageToken');
  return {
    ...(contextId ? { contextId } : {}),
    ...(status ? { status: status as TaskState } : {}),
    ...(pageSize !== undefined ? { pageSize } : {}),
    ...(pageToken ? { pageToken } : {}),
    ...(historyLength !== undefined ? { historyLength } : {}),
    ...(after ? { statusTimestampAfter: new Date(after).toISOString() } : {}),
    ...(body.includeArtifacts === true ? { includeArtifacts: true } : {}),
  };
}

/** Routes by method and path. */
export const ROUTES: Record<string, Handler> = {
  'GET /api/state': (c) => ({
    after: c.session.lastEventId,
    wire: c.session.wire.list(),
    pipeline: c.pipeline.list(),
    knownAgents: c.knownAgents,
  }),
  'GET /api/agents': (c) => probeAgents(c.knownAgents),
  'GET /api/wire': (c) => c.session.wire.list(),
  'POST /api/wire/clear': (c) => {
    c.session.wire.clear();
    return { ok: true };
  },
  'GET /api/pipeline': (c) => c.pipeline.list(),

  'POST /api/card': (c) => agentOf(c).load(c.body.revalidate === true),
  'POST /api/card/extended': (c) => agentOf(c).extended(),
  'POST /api/card/trust': (c) => {
    const added = c.session.trustKeys(c.body.key);
    return agentOf(c)
      .facts()
      .then((facts) => ({ added, facts }));
  },
  'POST /api/credentials': (c) => {
    const entry = agentOf(c);
    const values = c.body.values;
    if (typeof values !== 'object' || values === null || Array.isArray(values))
      throw new BadRequest('values: an object of scheme name → credential');
    entry.setCredentials(values as Record<string, unknown>);
    return entry.facts();
  },

  'POST /api/headers': (c) => ({ headers: agentOf(c).setHeaders(c.body.headers) }),

  'POST /api/talk': (c) => talk(c.session, agentOf(c), talkRequest(c.body)),
  'POST /api/talk/subscribe': (c) =>
    resubscribe(
      c.session,
      agentOf(c),
      str(c.body, 'taskId', true),
      str(c.body, 'lastEventId'),
      str(c.body, 'streamId') ?? randomUUID(),
    ),
  'POST /api/talk/stop': (c) => ({ stopped: c.session.stopStream(str(c.body, 'streamId', true)) }),
  'POST /api/talk/cancel': (c) => cancel(agentOf(c), str(c.body, 'taskId', true)),

  'POST /api/tasks/list': (c) => agentOf(c).client.listTasks(listRequest(c.body)),
  'POST /api/tasks/get': (c) => {
    const historyLength = int(c.body, 'historyLength');
    return agentOf(c).client.getTask({
      id: str(c.body, 'id', true),
      ...(historyLength !== undefined ? { historyLength } : {}),
    });
  },
  'POST /api/tasks/push-configs': async (c) => {
    const r = await agentOf(c).client.listPushNotificationConfigs({
      taskId: str(c.body, 'taskId', true),
    });
    // A webhook's token is a credential too: the page learns that there is one, not what it is.
    return {
      ...r,
      configs: r.configs.map((cfg) => ({
        ...cfg,
        ...(cfg.token ? { token: MASK } : {}),
        ...(cfg.authentication?.credentials
          ? { authentication: { ...cfg.authentication, credentials: MASK } }
          : {}),
      })),
    };
  },
};
