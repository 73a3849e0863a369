// The profile proofs (test/profiles/): each runs the CLI in a child process against the reference.
// Run: npx vitest run --config test/profiles/vitest.config.ts
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/profiles/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
})
