/** The kit's three agents: cards, executors, and a one-call start of all three. */
export {
  startKitAgents,
  type KitAgentsOptions,
  type RunningAgent,
  type RunningKit,
} from './start.js';
export {
  KIT_BINDINGS,
  KIT_PORTS,
  DEPLOYER_SECURITY,
  codeReviewerCard,
  deployerCard,
  deployerExtendedCard,
  kitInterfaces,
  testRunnerCard,
  type KitAgentName,
  type KitBinding,
  type KitCardOptions,
} from './cards.js';
export {
  testRunnerExecutor,
  testTargetOf,
  TEST_RUNNER_USAGE,
  type TestRunnerOptions,
} from './test-runner.js';
export { looksLikeCode } from './code-hints.js';
export {
  codeReviewerExecutor,
  reviewPlanOf,
  CODE_REVIEWER_USAGE,
  type CodeReviewerOptions,
} from './code-reviewer.js';
export {
  deployerExecutor,
  deployRequestOf,
  DEPLOYER_USAGE,
  type DeployerOptions,
} from './deployer.js';
