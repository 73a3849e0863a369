// The memory settings of every process of a certification: the CLI's (bin/pix-conformance.js sets
// them on itself), each vitest worker's (vitest.config.ts passes the flags to the forked workers,
// which inherit the environment) and the monitor's run (cli/monitor/runner.ts starts it with both).
// One list, so that no process of a run is built bigger than another. Nothing caps a heap: a
// 100,000-record account must never fail for memory.

/** V8 flags: on a process's command line, or set with v8.setFlagsFromString as early as it can. */
export const SMALL_HEAP_FLAGS = [
  // The young generation: V8's default of up to 3 × 16 MB per isolate, in five isolates, was a
  // fifth of a certification's peak resident set; 2 MB semi-spaces cost no time measurable here.
  // (In the CLI's own isolate it comes too late to apply: that isolate's young generation is sized
  // at node's start. A forked worker gets it on its command line.)
  '--max-semi-space-size=2',
  // How far each heap may grow past what its last full collection kept alive: V8 lets a small heap
  // grow up to 4× before collecting it in full, and the workers' heaps grow through the whole
  // shared phase (the certification's peak is its end). At 20 % the peak fell by 27–40 MB (two
  // pairs run side by side with the default on this machine: 510 → 470 and 501 → 473 MB) for 7 %
  // more CPU and no wall time beyond the pairs' spread (+0–2 %).
  '--heap-growing-percent=20',
]

/**
 * Environment defaults (a value the user set wins). vite's native bundler (rolldown, loaded with
 * vitest in the CLI's process) allocates through mimalloc, which commits its first arena (64 MB) at
 * once; on a Linux with transparent huge pages that arena became ~40 MB of resident huge pages for
 * ~2 MB in use, a seventh of the CLI's peak. Committed as used instead, the same run's CLI peaked
 * 38–40 MB lower. Read when the binding loads: set before vitest is imported.
 */
export const SMALL_HEAP_ENV = { MIMALLOC_ARENA_EAGER_COMMIT: '0' }
