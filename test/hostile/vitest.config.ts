// The robustness tests (test/hostile/): each runs the CLI in a child process against a hostile
// target; two at a time (the machine has two cores).
// Run: npx vitest run --config test/hostile/vitest.config.ts
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/hostile/**/*.test.ts'],
    testTimeout: 180_000,
    maxConcurrency: 2,
  },
})
