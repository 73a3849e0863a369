// The results of the last certification cli/main.ts ran in this process: the programmatic API
// (cli/api.ts) reads them after a command, and main() forgets them before the next.
import type { Results } from '../reporting/types.ts'

export let lastRun: { results: Results; runDir: string } | undefined

export function rememberRun(run: { results: Results; runDir: string } | undefined): void {
  lastRun = run
}
