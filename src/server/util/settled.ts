/** One already-settled promise, shared by everything that answers "nothing to wait for". */
export const RESOLVED: Promise<void> = Promise.resolve();
