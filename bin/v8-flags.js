// The V8 flags of every process of a certification: the CLI's (bin/pix-conformance.js sets them
// with setFlagsFromString) and each vitest worker's (vitest.config.ts passes them as execArgv to
// the forked workers). One list, so that a worker is never built bigger than the process that
// starts it. No flag caps the heap: a 100,000-record account must never fail for memory.
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
