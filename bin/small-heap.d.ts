/** The V8 flags of the CLI, each vitest worker and the monitor's run (bin/small-heap.js). */
export declare const SMALL_HEAP_FLAGS: string[]
/** Environment defaults of the same processes (bin/small-heap.js). */
export declare const SMALL_HEAP_ENV: Record<string, string>
