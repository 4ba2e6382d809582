/**
 * The deployer agent: publishes a workspace directory as a versioned release (staging at once,
 * production only after the caller confirms through TASK_STATE_INPUT_REQUIRED) and rolls back.
 * The pending production deploy travels in the INPUT_REQUIRED status message as a data part, so the
 * follow-up needs no memory in this process and the caller sees exactly what it is confirming.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  ReleaseError,
  ReleaseManager,
  resolveInWorkspace,
  WorkspaceError,
  type PublishResult,
  type ReleaseTarget,
} from '../work/index.js';
import {
  silentLogger,
  type AgentExecutor,
  type Logger,
  type RequestContext,
  type TaskUpdater,
} from 'a2a-kit/server';
import type { JsonObject, Task } from 'a2a-kit';
import { guarded, inbound, isObject, stringField, unquote, type Inbound } from './common.js';
import { deployText, rollbackTarget } from './sentences.js';

export interface DeployerOptions {
  /** Directories that may be deployed live here. */
  workspaceRoot: string;
  /** Where releases are kept (`<dir>/<target>/releases/<version>`, `<dir>/<target>/current`). */
  releasesDir: string;
  logger?: Logger;
}

export const DEPLOYER_USAGE =
  'I publish releases. Send a data part {"release": "<directory in my workspace>", "target": "staging" | "production", ' +
  '"version"?: "…"} or the text "deploy <directory> to staging|production". Production asks you to confirm first. ' +
  'Authenticated callers can also "rollback staging|production".';

/** A deploy waiting for confirmation, as carried in the INPUT_REQUIRED message. */
interface Pending {
  action: 'deploy';
  source: string;
  target: ReleaseTarget;
  version?: string;
}

type Request =
  | { kind: 'deploy'; source: string; target: ReleaseTarget; version?: string }
  | { kind: 'rollback'; target: ReleaseTarget }
  | { kind: 'bad'; why: string };

const VERSION = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/;
const CONFIRM = /^\s*(?:confirm(?:ed)?|yes|y|ok(?:ay)?|go(?: ahead)?|proceed|approve[d]?)\b/i;
const DECLINE = /^\s*(?:no|n|cancel|abort|stop|don'?t)\b/i;

function targetOf(v: string | undefined): ReleaseTarget | undefined {
  const t = v?.toLowerCase();
  return t === 'staging' || t === 'production' ? t : t === 'prod' ? 'production' : undefined;
}

/** Read a deploy or rollback request from a first message. */
export function deployRequestOf(input: Inbound): Request | undefined {
  const d = input.data;
  const rb = stringField(d, 'rollback');
  if (rb || stringField(d, 'action') === 'rollback') {
    const target = targetOf(rb ?? stringField(d, 'target'));
    return target
      ? { kind: 'rollback', target }
      : { kind: 'bad', why: 'rollback needs a target: "staging" or "production"' };
  }
  const source = stringField(d, 'release', 'source', 'path');
  if (source) {
    const target = targetOf(stringField(d, 'target'));
    if (!target)
      return { kind: 'bad', why: 'the data part needs "target": "staging" or "production"' };
    const version = stringField(d, 'version');
    return { kind: 'deploy', source, target, ...(version ? { version } : {}) };
  }
  const m = deployText(input.text);
  if (m) {
    const target = targetOf(m.target);
    if (!target)
      return { kind: 'bad', why: `"${m.target}" is not a target; use staging or production` };
    const version = m.version ? { version: m.version } : {};
    return { kind: 'deploy', source: unquote(m.source), target, ...version };
  }
  const r = rollbackTarget(input.text);
  if (r) {
    const target = targetOf(r);
    return target
      ? { kind: 'rollback', target }
      : { kind: 'bad', why: `"${r}" is not a target; use staging or production` };
  }
  return undefined;
}

/** The pending deploy recorded in the task's INPUT_REQUIRED status message, if any. */
function pendingOf(task: Task | undefined): Pending | undefined {
  if (task?.status.state !== 'TASK_STATE_INPUT_REQUIRED') return undefined;
  for (const p of task.status.message?.parts ?? []) {
    const pending = isObject(p.data) ? p.data.pending : undefined;
    if (!isObject(pending) || pending.action !== 'deploy') continue;
    const target = targetOf(typeof pending.target === 'string' ? pending.target : undefined);
    if (typeof pending.source !== 'string' || !target) continue;
    return {
      action: 'deploy',
      source: pending.source,
      target,
      ...(typeof pending.version === 'string' ? { version: pending.version } : {}),
    };
  }
  return undefined;
}

/** A version nobody has to think of: the project's own version plus a timestamp, e.g. `1.0.0+20261202.150405.123`. */
async function defaultVersion(dir: string): Promise<string | undefined> {
  try {
    const pkg = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as {
      version?: unknown;
    };
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '.').replace('Z', '');
    const v = typeof pkg.version === 'string' ? `${pkg.version}+${stamp}` : undefined;
    return v && VERSION.test(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

export function deployerExecutor(opts: DeployerOptions): AgentExecutor {
  const logger = opts.logger ?? silentLogger;
  const releases = new ReleaseManager(opts.releasesDir, { sourceRoot: opts.workspaceRoot });

  const publish = async (ctx: RequestContext, task: TaskUpdater, p: Pending): Promise<void> => {
    task.working(`Publishing ${p.source}${p.version ? ` v${p.version}` : ''} to ${p.target}`);
    let result: PublishResult;
    try {
      const source = (await resolveInWorkspace(opts.workspaceRoot, p.source)).absolute;
      result = await releases.publish({
        source,
        target: p.target,
        ...(p.version ? { version: p.version } : {}),
        signal: ctx.signal,
      });
    } catch (err) {
      if (ctx.signal.aborted) return;
      if (err instanceof WorkspaceError || err instanceof ReleaseError)
        return task.reject(`Cannot deploy ${p.source} to ${p.target}: ${err.message}`);
      throw err;
    }
    logger.info(
      {
        taskId: task.taskId,
        target: result.target,
        version: result.version,
        previous: result.previous,
      },
      'release published',
    );
    const data: JsonObject = {
      action: 'deploy',
      version: result.version,
      target: result.target,
      path: result.path,
      previous: result.previous,
      source: p.source,
      contentHash: result.manifest.contentHash,
      files: result.manifest.files.length,
      totalBytes: result.manifest.totalBytes,
      createdAt: result.manifest.createdAt,
    };
    const text = `Deployed ${p.source} as v${result.version} to ${result.target}${result.previous ? ` (previous: v${result.previous})` : ' (first release)'}.`;
    task.addArtifact({
      name: 'release',
      description: `Release v${result.version} on ${result.target}`,
      parts: [{ text }, { data }],
    });
    task.complete(text);
  };

  const askToConfirm = (task: TaskUpdater, p: Pending, prefix = ''): void => {
    const what = p.version ? `v${p.version}` : p.source;
    const pending: JsonObject = {
      action: 'deploy',
      source: p.source,
      target: p.target,
      ...(p.version ? { version: p.version } : {}),
    };
    task.inputRequired({
      parts: [
        { text: `${prefix}Reply 'confirm' to deploy ${what} to production, or cancel the task.` },
        { data: { pending } },
      ],
    });
  };

  const start = async (
    ctx: RequestContext,
    task: TaskUpdater,
    req: Exclude<Request, { kind: 'bad' }>,
  ): Promise<void> => {
    if (req.kind === 'rollback') {
      task.working(`Rolling back ${req.target}`);
      try {
        const { from, to } = await releases.rollback(req.target);
        const text = `Rolled ${req.target} back from v${from ?? 'none'} to v${to}.`;
        logger.info({ taskId: task.taskId, target: req.target, from, to }, 'release rolled back');
        task.addArtifact({
          name: 'rollback',
          parts: [
            { text },
            { data: { action: 'rollback', target: req.target, version: to, previous: from } },
          ],
        });
        return task.complete(text);
      } catch (err) {
        if (err instanceof ReleaseError)
          return task.reject(`Cannot roll back ${req.target}: ${err.message}`);
        throw err;
      }
    }
    if (req.version !== undefined && !VERSION.test(req.version)) {
      return task.reject(
        `"${req.version}" is not a usable version: letters, digits and . _ + - only, at most 64 characters.`,
      );
    }
    let dir: string;
    try {
      const resolved = await resolveInWorkspace(opts.workspaceRoot, req.source);
      if (!resolved.isDirectory)
        return task.reject(`Cannot deploy "${req.source}": it is not a directory.`);
      dir = resolved.absolute;
    } catch (err) {
      if (err instanceof WorkspaceError)
        return task.reject(`Cannot deploy "${req.source}": ${err.message}`);
      throw err;
    }
    const version = req.version ?? (await defaultVersion(dir));
    const p: Pending = {
      action: 'deploy',
      source: req.source,
      target: req.target,
      ...(version ? { version } : {}),
    };
    if (ctx.signal.aborted) return;
    if (p.target === 'production') return askToConfirm(task, p);
    await publish(ctx, task, p);
  };

  return guarded('deployer', logger, async (ctx, task) => {
    const input = inbound(ctx.message);
    const pending = pendingOf(ctx.task);
    if (pending) {
      if (input.data?.confirm === true || CONFIRM.test(input.text.slice(0, 64)))
        return publish(ctx, task, pending);
      if (input.data?.confirm === false || DECLINE.test(input.text.slice(0, 64)))
        return task.cancel('Production deploy canceled; nothing was published.');
      return askToConfirm(task, pending, 'Not confirmed. ');
    }
    const req = deployRequestOf(input);
    if (!req) return task.reply(DEPLOYER_USAGE);
    if (req.kind === 'bad')
      return task.reply(`I could not read that request: ${req.why}. ${DEPLOYER_USAGE}`);
    await start(ctx, task, req);
  });
}
