/**
 * The real work behind the kit's three agents, free of any A2A dependency: running a project's tests,
 * reviewing source, and publishing releases. The agents wrap these functions.
 */
export { runTests, isTestFile } from './run-tests.js';
export { BACKGROUND_NICE } from './background.js';
export type {
  RunTestsOptions,
  RunTestsProgress,
  RunTestsResult,
  TestFailure,
  TestOutcome,
} from './run-tests.js';
export { cleanStaleRunFolders, cleanStaleRunFoldersOnce, RUN_FOLDER_PREFIX } from './run-guard.js';
export {
  reviewFiles,
  reviewDirectory,
  reviewSnippet,
  warmUpReviewer,
  defaultReviewPool,
  DEFAULT_REVIEW_LIMITS,
} from './review.js';
export type {
  FileReview,
  ReviewFinding,
  ReviewLimits,
  ReviewOptions,
  ReviewReport,
  Severity,
  SourceInput,
} from './review.js';
export {
  ReviewPool,
  ReviewError,
  ReviewUnavailableError,
  DEFAULT_REVIEW_POOL,
} from './review-pool.js';
export type { ReviewErrorCode, ReviewPoolOptions, ReviewRunHooks } from './review-pool.js';
export { ReleaseManager, ReleaseError, RELEASE_TARGETS, MANIFEST_NAME } from './releases.js';
export type {
  CopyLimits,
  CopyProgress,
  ManifestFile,
  PublishOptions,
  PublishResult,
  ReleaseErrorCode,
  ReleaseInfo,
  ReleaseManagerOptions,
  ReleaseManifest,
  ReleaseTarget,
} from './releases.js';
export { WorkspaceError, resolveInWorkspace } from './workspace.js';
export type { ResolvedTarget, WorkspaceErrorCode } from './workspace.js';
