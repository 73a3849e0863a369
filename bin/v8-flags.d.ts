/** The V8 flags of the CLI and of each vitest worker (bin/v8-flags.js). */
export declare const SMALL_HEAP_FLAGS: string[]
