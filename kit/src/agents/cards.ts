/**
 * The kit's agent cards (KIT.md): names, skills, capability flags and security exactly as the manual's
 * planner expects them. Cards are functions of a base URL so servers on port 0 describe their real port.
 */
import type { AgentCard, AgentInterface, AgentSkill } from 'a2a-kit';

/** The three kit agents. */
export type KitAgentName = 'test-runner' | 'code-reviewer' | 'deployer';

/** Default ports, from the manual. */
export const KIT_PORTS: Readonly<Record<KitAgentName, number>> = {
  'test-runner': 41241,
  'code-reviewer': 41242,
  deployer: 41243,
};

/** Bindings a kit card can list, in card order. */
export type KitBinding = 'JSONRPC' | 'HTTP+JSON';

/** JSON-RPC first, then HTTP+JSON, as the seed's code-reviewer card shows. */
export const KIT_BINDINGS: readonly KitBinding[] = ['JSONRPC', 'HTTP+JSON'];

const PATHS: Record<KitBinding, string> = { JSONRPC: '/a2a/jsonrpc', 'HTTP+JSON': '/a2a/rest' };

/** `supportedInterfaces` for an agent at `baseUrl` (e.g. `http://localhost:41242`); no tenant is set. */
export function kitInterfaces(
  baseUrl: string,
  bindings: readonly KitBinding[] = KIT_BINDINGS,
): AgentInterface[] {
  const base = baseUrl.replace(/\/+$/, '');
  return KIT_BINDINGS.filter((b) => bindings.includes(b)).map((b) => ({
    url: `${base}${PATHS[b]}`,
    protocolBinding: b,
    protocolVersion: '1.0',
  }));
}

export interface KitCardOptions {
  /** Scheme, host and port the card advertises, e.g. `http://localhost:41241`. */
  baseUrl: string;
  /** Which bindings to list (default both). A card lists an interface only if the server serves it. */
  bindings?: readonly KitBinding[];
  /**
   * Where the agent serves gRPC (`http://localhost:51241`), when it does: the card then lists a GRPC
   * interface first. Only the test-runner serves gRPC, so that a JSON-RPC client has an entry to skip.
   */
  grpcUrl?: string;
}

/** The GRPC entry of a card, when the agent serves gRPC. */
function grpcInterface(o: KitCardOptions): AgentInterface[] {
  return o.grpcUrl ? [{ url: o.grpcUrl, protocolBinding: 'GRPC', protocolVersion: '1.0' }] : [];
}

const VERSION = '1.0.0';
const PROVIDER = { organization: 'a2a-kit', url: 'https://github.com/a2a-kit/a2a-kit' };

const RUN_TESTS: AgentSkill = {
  id: 'run-tests',
  name: 'Run tests',
  description:
    "Runs a project's tests with Node's test runner, streams one status update per test, and returns a text summary " +
    'plus a data part { passed, failed, skipped, failures }. Send a data part { "path": "<dir in the workspace>" } ' +
    'or the text "run tests in <dir>".',
  tags: ['testing', 'node', 'ci'],
  examples: ['run tests in change-ok', 'run tests in change-broken'],
  inputModes: ['text/plain', 'application/json'],
  outputModes: ['text/plain', 'application/json'],
};

const REVIEW_CODE: AgentSkill = {
  id: 'review-code',
  name: 'Review code',
  description:
    'Reviews JavaScript/TypeScript with the TypeScript compiler and a few plain rules, one status update per file, and ' +
    'returns findings with a verdict (approve or request-changes). Send file parts, a data part { "path": "<dir>" }, ' +
    'the text "review <dir>", or paste a snippet.',
  tags: ['review', 'typescript', 'lint'],
  examples: ['review change-ok', 'review change-broken/src', 'const n: number = "not a number";'],
  inputModes: [
    'text/plain',
    'application/json',
    'text/javascript',
    'text/typescript',
    'text/x-typescript',
    'application/typescript',
    'application/octet-stream',
  ],
  outputModes: ['text/plain', 'application/json'],
};

const DEPLOY: AgentSkill = {
  id: 'deploy',
  name: 'Deploy',
  description:
    'Publishes a project directory from the workspace as a new versioned release of staging or production and ' +
    'switches the current release atomically. Production asks for confirmation first (TASK_STATE_INPUT_REQUIRED). ' +
    'Send a data part { "release": "<dir>", "target": "staging" | "production", "version"?: "…" } or the text ' +
    '"deploy <dir> to staging".',
  tags: ['deploy', 'release'],
  examples: ['deploy change-ok to staging', 'deploy change-ok to production'],
  inputModes: ['text/plain', 'application/json'],
  outputModes: ['text/plain', 'application/json'],
};

const ROLLBACK: AgentSkill = {
  id: 'rollback',
  name: 'Roll back',
  description:
    'Makes the release that was current before the present one current again. Send the text "rollback <target>" ' +
    'or a data part { "rollback": "staging" | "production" }.',
  tags: ['deploy', 'release', 'rollback'],
  examples: ['rollback staging', 'rollback production'],
  inputModes: ['text/plain', 'application/json'],
  outputModes: ['text/plain', 'application/json'],
};

const MODES = {
  defaultInputModes: ['text/plain', 'application/json'],
  defaultOutputModes: ['text/plain', 'application/json'],
};

/**
 * test-runner also speaks A2A 0.3 over JSON-RPC, at its JSON-RPC URL, and lists that entry first: the
 * manual's example of an entry a JSON-RPC 1.0 client skips (the server runs with `compat: { v03: true }`).
 */
export function testRunnerCard(o: KitCardOptions): AgentCard {
  const interfaces = kitInterfaces(o.baseUrl, o.bindings);
  const rpc = interfaces.find((i) => i.protocolBinding === 'JSONRPC');
  return {
    name: 'test-runner',
    description: "Runs a project's tests inside its workspace and reports the results.",
    // GRPC first, then JSON-RPC at 0.3, then the 1.0 entries: the manual's entries a JSON-RPC 1.0 client skips.
    supportedInterfaces: [
      ...grpcInterface(o),
      ...(rpc ? [{ ...rpc, protocolVersion: '0.3' }] : []),
      ...interfaces,
    ],
    provider: PROVIDER,
    version: VERSION,
    capabilities: { streaming: true, pushNotifications: true },
    ...MODES,
    skills: [RUN_TESTS],
  };
}

/** No `pushNotifications` member at all: the manual's point is that an absent flag rules push out. */
export function codeReviewerCard(o: KitCardOptions): AgentCard {
  return {
    name: 'code-reviewer',
    description: 'Reviews JavaScript and TypeScript source and returns findings with a verdict.',
    supportedInterfaces: kitInterfaces(o.baseUrl, o.bindings),
    provider: PROVIDER,
    version: VERSION,
    capabilities: { streaming: true },
    ...MODES,
    skills: [REVIEW_CODE],
  };
}

/** The bearer scheme every deployer call must satisfy. */
export const DEPLOYER_SECURITY = {
  securitySchemes: {
    bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } },
  },
  securityRequirements: [{ schemes: { bearer: { list: [] } } }],
} satisfies Pick<AgentCard, 'securitySchemes' | 'securityRequirements'>;

export function deployerCard(o: KitCardOptions): AgentCard {
  return {
    name: 'deployer',
    description:
      'Publishes releases into a local release directory, with confirmation before production and rollback.',
    supportedInterfaces: kitInterfaces(o.baseUrl, o.bindings),
    provider: PROVIDER,
    version: VERSION,
    capabilities: { streaming: false, pushNotifications: true, extendedAgentCard: true },
    ...DEPLOYER_SECURITY,
    ...MODES,
    skills: [DEPLOY],
  };
}

/** What an authenticated caller sees: the public card plus the rollback skill. */
export function deployerExtendedCard(o: KitCardOptions): AgentCard {
  const card = deployerCard(o);
  return { ...card, skills: [...card.skills, ROLLBACK] };
}
