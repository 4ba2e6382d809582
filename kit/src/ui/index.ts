/**
 * `--ui` for the kit's demo: the inspector (`a2a-kit/inspector`) shows the planner's pipeline live in
 * the browser — the three agents, what discovery decided, each step's task moving through its states,
 * the deploy's confirmation — and stays open after the run, agents included, to be browsed and
 * talked to, until Ctrl-C. Without `--ui` every method does nothing.
 */
import type { Writable } from 'node:stream';
import type { CardTrust } from 'a2a-kit/client';
import { startInspector, type Inspector } from 'a2a-kit/inspector';
import type { RunPlannerOptions } from '../planner/index.js';
import { PlannerToPipeline } from './pipeline-events.js';

/** The inspector's usual port; a free one is taken when it is busy. KIT_UI_PORT overrides it. */
const DEFAULT_PORT = 41250;

/** What the demo needs of its running agents. */
export interface UiAgents {
  agents: Record<string, { name: string; baseUrl: string }>;
}

/** The `--ui` hook of a kit command. */
export interface KitUi {
  /** Whether `--ui` was given. */
  readonly enabled: boolean;
  /**
   * Starts the inspector for these agents (signatures checked with `trust`), prints its links, and
   * returns the planner options that feed the kit view. Without `--ui`: no options.
   */
  attach(
    kit: UiAgents,
    trust?: CardTrust,
    out?: Writable,
  ): Promise<Pick<RunPlannerOptions, 'onEvent'>>;
  /** After the run: keeps the inspector (and so the agents) up until Ctrl-C (or `until`), then closes it. */
  hold(out?: Writable, until?: Promise<void>): Promise<void>;
}

/**
 * Takes `--ui` out of `argv` (so the planner's flag parser never sees it) and returns the hook.
 *
 * @example
 * ```ts
 * const ui = kitUi(argv);
 * const result = await runPlanner(cfg, { out, workspaceRoot, ...(await ui.attach(kit, trust)) });
 * await ui.hold();
 * ```
 */
export function kitUi(argv: string[]): KitUi {
  const at = argv.indexOf('--ui');
  if (at < 0) return { enabled: false, attach: async () => ({}), hold: async () => undefined };
  argv.splice(at, 1);
  let inspector: Inspector | undefined;
  return {
    enabled: true,
    async attach(kit, trust, out = process.stdout) {
      const agents = Object.values(kit.agents);
      inspector = await start(
        agents.map((a) => a.baseUrl),
        trust,
      );
      out.write(`inspector: ${inspector.link(undefined, 'kit')}  (the pipeline, live)\n`);
      for (const a of agents) out.write(`  ${a.name.padEnd(14)} ${inspector.link(a.baseUrl)}\n`);
      const ix = inspector;
      const mapper = new PlannerToPipeline();
      ix.publish({ type: 'run', title: `kit demo · ${new Date().toLocaleString()}` });
      return { onEvent: (ev) => ix.publish(mapper.map(ev)) };
    },
    async hold(out = process.stdout, until = interrupted()) {
      if (!inspector) return;
      out.write(
        `\nthe inspector stays open at ${inspector.link(undefined, 'kit')} with the agents running; Ctrl-C stops them\n`,
      );
      await until;
      await inspector.close();
    },
  };
}

/** Resolves on Ctrl-C or a termination request. */
function interrupted(): Promise<void> {
  return new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}

async function start(agents: string[], trust: CardTrust | undefined): Promise<Inspector> {
  const wanted =
    process.env.KIT_UI_PORT !== undefined ? Number(process.env.KIT_UI_PORT) : DEFAULT_PORT;
  const options = { agents, ...(trust ? { trust } : {}) };
  try {
    return await startInspector({ ...options, port: wanted });
  } catch (err) {
    if (
      (err as NodeJS.ErrnoException).code !== 'EADDRINUSE' ||
      process.env.KIT_UI_PORT !== undefined
    )
      throw err;
    return startInspector({ ...options, port: 0 });
  }
}
