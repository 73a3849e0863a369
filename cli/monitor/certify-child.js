// One certification of the monitor, in a process of its own (cli/monitor/runner.ts forks it): the
// monitor outlives hundreds of runs, and a run's vitest, workers and module graph end with it.
// Plain JS, like bin/pix-conformance.js: tsx is registered for the kit's modules only, and vitest
// is imported from here, outside tsx's reach.
import { builtModule } from '../../bin/built.js'
import { register } from 'tsx/esm/api'

// A monitor that died (SIGKILL, a crash) leaves no run behind: the IPC channel closes and the run
// stops as on Ctrl-C, restoring what it changed.
let finished = false
process.once('disconnect', () => finished || process.kill(process.pid, 'SIGINT'))

// the package's compiled build when present (scripts/build.mjs), else the sources through tsx
const built = builtModule('api.js')
const { certify } = built ? await import(built.href) : await register({ namespace: 'pix-monitor-run' }).import('../api.ts', import.meta.url)
try {
  const { exitCode, runDir } = await certify({ argv: process.argv.slice(2) }, () => import('vitest/node'))
  finished = true
  process.send?.({ exitCode, ...(runDir ? { runDir } : {}) })
  process.exitCode = exitCode
} catch (e) {
  finished = true
  process.stderr.write(`pix-conformance monitor: internal error in a run: ${e?.stack ?? String(e)}\n`)
  process.exitCode = 1
}
// vitest leaves handles open (its workers' ports, timers): the run is over once its report is written
process.disconnect?.()
setTimeout(() => process.exit(), 100).unref()
