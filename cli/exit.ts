/**
 * bazaar's exit codes: 0 done; 1 a failure (a bug, or a fault outside bazaar); 2 bad usage or bad
 * input, nothing run; 3 a run that ended with failed trials — missing data, kept out of every
 * estimate, which the same command runs again; 130 interrupted (Ctrl-C), resumable.
 */
export const EXIT = { ok: 0, failure: 1, usage: 2, incomplete: 3, interrupted: 130 } as const;
