/**
 * The planner's transcript, line by line, turned into the inspector's pipeline events: which agents
 * were found and what was decided about them, each step, each state its task reached (and how the
 * planner learned it: stream, push, poll), artifacts, the deploy's confirmation, the outcome.
 * It reads the transcript's own words, so a line it does not recognise is kept as a note.
 */
import type { PipelineEvent, PipelineState } from 'a2a-kit/inspector';
import type { TranscriptEvent } from '../planner/index.js';

const STATES = new Set<string>(['SUBMITTED', 'WORKING', 'INPUT_REQUIRED', 'AUTH_REQUIRED', 'COMPLETED', 'FAILED', 'CANCELED', 'REJECTED']);
const WELL_KNOWN = '/.well-known/agent-card.json';

const isState = (s: string): s is PipelineState => STATES.has(s);

/** A stateful translator: one per planner run. */
export class TranscriptToPipeline {
  #stage: string | undefined;
  readonly #agents = new Set<string>();

  /** The pipeline events one transcript event stands for (often one, sometimes none or several). */
  map(ev: TranscriptEvent): PipelineEvent[] {
    switch (ev.kind) {
      case 'section':
        return [this.#section(ev.title, ev.detail)];
      case 'table':
        return this.#table(ev.headers, ev.rows);
      case 'outcome':
        return [{ type: 'outcome', ok: ev.ok, text: ev.text }];
      default:
        return [this.#line(ev.text)];
    }
  }

  #section(title: string, detail: string | undefined): PipelineEvent {
    // "Tests → test-runner": the step and the agent it went to.
    const [step, agent] = title.split(' → ');
    this.#stage = (step ?? title).trim().toLowerCase().replace(/[^a-z0-9]+/g, '-');
    return { type: 'stage', id: this.#stage, title: (step ?? title).trim(), ...(agent ? { agent: agent.trim() } : {}), ...(detail ? { detail } : {}) };
  }

  #table(headers: string[], rows: string[][]): PipelineEvent[] {
    const col = (row: string[], name: string) => row[headers.indexOf(name)];
    return rows.map((row) => {
      const name = col(row, 'agent') ?? row[0] ?? '?';
      this.#agents.add(name);
      const skills = col(row, 'skills');
      return {
        type: 'agent' as const,
        name,
        ...opt('interface', col(row, 'interface chosen')),
        ...opt('streaming', col(row, 'streaming')),
        ...opt('push', col(row, 'push')),
        ...opt('auth', col(row, 'auth')),
        ...(skills ? { skills: skills.split(', ') } : {}),
      };
    });
  }

  #line(text: string): PipelineEvent {
    const stage = this.#stage;
    const at = stage ? { stage } : {};
    let m: RegExpExecArray | null;
    // GET http://localhost:41241/.well-known/agent-card.json → test-runner 1.0.0 (network; signature ✓ …)
    if ((m = /^GET (\S+) → (\S+) (\S+) \(([^;]+); (.*)\)$/.exec(text))) {
      const cardUrl = m[1]!;
      const name = m[2]!;
      this.#agents.add(name);
      const url = cardUrl.endsWith(WELL_KNOWN) ? cardUrl.slice(0, -WELL_KNOWN.length) : cardUrl;
      return { type: 'agent', name, url, cardUrl, version: m[3]!, signature: `${m[5]!} (card from ${m[4]!})` };
    }
    // test-runner: chose [0] JSONRPC 1.0 at … — the client's own explanation of its choice.
    if ((m = /^(\S+): ((?:chose|skipped) .*)$/.exec(text)) && this.#agents.has(m[1]!)) {
      return { type: 'agent', name: m[1]!, reason: m[2]! };
    }
    if ((m = /^(?:\[(\w+)\] )?task ([0-9a-f]{8}) ([A-Z_]+)$/.exec(text)) && isState(m[3]!)) {
      return { type: 'state', ...at, taskId: m[2]!, state: m[3], via: m[1] ?? 'stream' };
    }
    if ((m = /^(SendMessage|CancelTask) → task ([0-9a-f]{8}) ([A-Z_]+)$/.exec(text)) && isState(m[3]!)) {
      return { type: 'state', ...at, taskId: m[2]!, state: m[3], via: m[1]! };
    }
    if ((m = /^\(GetTask\) ([A-Z_]+)$/.exec(text)) && isState(m[1]!)) {
      return { type: 'state', ...at, state: m[1], via: 'poll' };
    }
    if ((m = /^(?:\[(\w+)\] )?([A-Z_]+)(?: {2}(.*))?$/.exec(text)) && isState(m[2]!)) {
      return { type: 'state', ...at, state: m[2], via: m[1] ?? 'stream', ...(m[3] ? { text: m[3] } : {}) };
    }
    if ((m = /^artifact ([^:]+): (.*)$/.exec(text))) return { type: 'artifact', ...at, name: m[1]!, text: m[2]! };
    if ((m = /^(?:\[\w+\] )?artifact (.+?)(?: \(\+chunk\))?$/.exec(text))) return { type: 'artifact', ...at, name: m[1]! };
    // The question is quoted here unless a notification showed it already ("deployer asks to confirm").
    if ((m = /^(\S+) asks(?:: "(.*)"| to confirm) → (.*)$/.exec(text))) {
      return { type: 'confirm', ...at, agent: m[1]!, question: m[2] ?? 'to confirm (the question is in the status above)', answer: m[3]! };
    }
    return { type: 'note', ...at, text };
  }
}

function opt<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value ? ({ [key]: value } as Record<K, string>) : {};
}
