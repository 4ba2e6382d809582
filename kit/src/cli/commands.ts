/**
 * The flag tables of the kit's four commands. Each command parses its argv with its table, prints it
 * for `--help`, and the README's flag tables are generated from it (`readme-flags.ts`): add a flag here,
 * one line, and all three follow.
 */
import { PLANNER_FLAGS } from '../planner/config.js';
import { HELP_FLAG, type Command, type Flag } from './flags.js';

const PORTS: Flag = {
  name: 'ports',
  value: 'P1,P2,P3',
  env: 'KIT_PORTS',
  default: '41241,41242,41243',
  help: "ports of test-runner, code-reviewer and deployer (0 picks a free one); unset, the planner's local KIT_AGENTS or kit.config.json ports",
};
const WORKSPACE: Flag = {
  name: 'workspace',
  value: 'DIR',
  env: 'KIT_WORKSPACE',
  default: 'samples',
  help: 'the directory the agents test, review and deploy from',
};
const WORK_DIR: Flag = {
  name: 'work-dir',
  value: 'DIR',
  env: 'KIT_WORK_DIR',
  default: '.kit-work',
  help: 'where the kit keeps its state: tasks, releases, the deployer token, the card-signing key',
};

/** Exit status of a kit command whose port is taken (the same as `a2a push listen`'s). */
export const PORT_IN_USE_EXIT = 13;

/** The one message of every kit command whose port is taken. */
export function portInUseMessage(command: string, detail: string, how: string): string {
  return `${command}: cannot listen, the port is already in use (${detail}); ${how}\n`;
}

const EXIT_PIPELINE =
  'Exit status: 0 deployed; 1 the pipeline stopped; 2 bad usage or the kit cannot start; 130 interrupted.';

/** `npm run agents`: the three agents in one foreground process. */
export const AGENTS_COMMAND: Command = {
  name: 'agents',
  run: 'npm run agents --',
  summary:
    'Runs test-runner, code-reviewer and deployer in one foreground process until Ctrl-C. The deployer token is kept in ' +
    '<work dir>/deployer-token across restarts, so a shell that exported it keeps working.',
  flags: [
    {
      name: 'host',
      value: 'HOST',
      env: 'KIT_HOST',
      default: '127.0.0.1',
      help: 'the interface the agents listen on',
    },
    {
      name: 'public-host',
      value: 'HOST',
      env: 'KIT_PUBLIC_HOST',
      default: 'localhost',
      help: 'the host name the cards advertise',
    },
    PORTS,
    {
      name: 'grpc-port',
      value: 'PORT',
      env: 'A2A_KIT_GRPC_PORT',
      default: 'test-runner port + 10000',
      help: "port of the test-runner's gRPC server (0 picks a free one; off turns gRPC off)",
    },
    WORKSPACE,
    WORK_DIR,
    {
      name: 'releases',
      value: 'DIR',
      env: 'KIT_RELEASES',
      default: '<work dir>/releases',
      help: 'where the deployer publishes releases',
    },
    {
      name: 'test-timeout',
      value: 'SECONDS',
      env: 'KIT_TEST_TIMEOUT',
      default: '60',
      help: 'time limit of one test run (1–3600)',
    },
    { name: 'jsonrpc-only', help: 'serve and list only the JSON-RPC binding (no HTTP+JSON)' },
    {
      name: 'store',
      value: 'memory|sqlite:DIR|postgres://…',
      env: 'KIT_STORE',
      default: 'sqlite:<work dir>',
      help: 'where tasks are kept: in memory, in SQLite files (one per agent) in DIR, or in PostgreSQL (one schema per agent; several kit processes can share it); when better-sqlite3 cannot run on this Node, the default is memory and the start says why',
    },
    { name: 'memory', help: 'keep tasks in memory (same as --store memory)' },
    {
      name: 'events',
      value: 'URL',
      env: 'KIT_EVENTS',
      default: 'none (one instance)',
      help: 'Redis URL of the event bus shared by several instances of the agents (redis://host:6379)',
    },
    {
      name: 'new-token',
      help: 'replace the stored deployer token with a fresh one (re-export DEPLOYER_TOKEN afterwards)',
    },
    {
      name: 'log-format',
      value: 'pretty|json',
      env: 'KIT_LOG_FORMAT',
      default: 'pretty on a terminal, else json',
      help: 'log lines on stderr: readable, or one JSON object per line',
    },
    HELP_FLAG,
  ],
  notes: [
    'Environment only: DEPLOYER_TOKEN (use this token instead of the stored one), LOG_LEVEL (debug, info, warn, error; default info).',
    'Ctrl-C or SIGTERM stops the agents; a second Ctrl-C exits at once.',
  ],
};

/** `npm run planner`: the planner alone, against running agents. */
export const PLANNER_COMMAND: Command = {
  name: 'planner',
  run: 'npm run planner --',
  summary:
    'The planner alone, against agents already running (npm run agents): it reads the three cards, then takes a change through ' +
    'tests → review → deploy. Settings: kit.config.json, then the environment, then flags.',
  flags: [
    ...PLANNER_FLAGS,
    {
      ...WORKSPACE,
      help: "the agents' workspace (the planner reads the change's files from it for the review)",
    },
    {
      ...WORK_DIR,
      help: 'where npm run agents keeps the deployer token and the card-signing public key',
    },
    {
      name: 'trust-jwks',
      value: 'FILE',
      env: 'KIT_TRUST_JWKS',
      default: '<work dir>/card-signing-jwks.json if present',
      help: 'keys trusted to sign the cards',
    },
    HELP_FLAG,
  ],
  hints: {
    ports:
      'the planner finds the agents with --agents LIST (ports or URLs); --ports is for npm run agents and npm start',
  },
  notes: [
    'Environment only: DEPLOYER_TOKEN (else the token npm run agents keeps in <work dir>/deployer-token).',
    'Ctrl-C cancels the task the planner is waiting on, then exits; a second Ctrl-C exits at once.',
    'Exit status: 0 deployed; 1 the pipeline stopped; 2 bad usage or configuration; 130 interrupted.',
  ],
};

/** `npm start`: agents and planner in one process, end to end. */
export const DEMO_COMMAND: Command = {
  name: 'demo',
  run: 'npm start --',
  summary:
    'The kit end to end: starts the three agents, runs the planner on a sample change (tests → review → deploy), prints the ' +
    'transcript and a summary, and stops the agents.',
  flags: [
    PORTS,
    ...PLANNER_FLAGS,
    WORKSPACE,
    WORK_DIR,
    {
      name: 'ui',
      help: "open the inspector's kit view (the pipeline live in the browser); it and the agents stay up after the run until Ctrl-C",
    },
    {
      name: 'trace',
      help: 'record the run with OpenTelemetry (in memory, no collector) and print the trace tree at the end: planner, agents, push deliveries',
    },
    HELP_FLAG,
  ],
  notes: [
    'Environment only: DEPLOYER_TOKEN (else a token made for this run), LOG_LEVEL (agent logs on stderr; default warn).',
    'Ctrl-C cancels the running task and stops the agents.',
    EXIT_PIPELINE,
  ],
};

/** `npm run replay`: the `.http` scenarios against the running kit. */
export const REPLAY_COMMAND: Command = {
  name: 'replay',
  run: 'npm run replay --',
  summary:
    "Replays .http files against the running kit: one ✔/✘ line per exchange, checked against the files' @expect comments, then a total line.",
  args: 'FILE.http...',
  flags: [
    {
      name: 'var',
      short: 'v',
      value: 'NAME=VALUE',
      multiple: true,
      help: "set a variable, over the file's own (e.g. tr=http://localhost:51241, token=…)",
    },
    {
      name: 'timeout',
      value: 'MS',
      default: '10000',
      help: "bound on each exchange (a file's # @timeout wins)",
    },
    { name: 'json', help: 'print the reports as JSON instead of lines' },
    HELP_FLAG,
  ],
  notes: [
    'Environment: DEPLOYER_TOKEN, read by the files as {{$processEnv DEPLOYER_TOKEN}}.',
    'Exit status: 0 every exchange passed; 1 a failure or a parse error; 2 bad usage.',
  ],
};

/** Every kit command, in the order the README lists them. */
export const KIT_COMMANDS: readonly Command[] = [
  DEMO_COMMAND,
  AGENTS_COMMAND,
  PLANNER_COMMAND,
  REPLAY_COMMAND,
];
