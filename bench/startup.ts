// (i) start-up of a one-area run and a one-check replay, as the package runs them (its compiled
// build, dist/, made here by scripts/build.mjs and removed after) and as the repository does
// (sources through tsx). Each run is split into phases read from the outside: its console's first
// line (CLI, embedded reference, preflight; vitest loads beside the preflight), results.json's
// startedAt (vitest started, its config read), its first check's startedAt (workers started, suite
// files imported), finishedAt (the checks), and the exit (reports written).
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { memoryText, watchTree, type TreeMemory } from './memory.ts'

export interface StartupRun {
  /** Seconds from the spawn: the console's "Certifying" line, vitest's run start, the first check, the last, the exit. */
  certifying: number
  vitestStarted: number
  firstCheck: number
  checksDone: number
  exit: number
  code: number | null
  memory: TreeMemory | undefined
}

const BUILT = 'dist/pix-conformance.js'
/** A replay as a failed check's report line gives it: its id (area/file::title). */
const REPLAY_CHECK = 'buyer/errors::buyer with an absent or invalid x-api-key answers 401 with code UNAUTHORIZED'

/** The rows of issue 41's start-up aims; `aim(name, value, aim, met, note)` prints one. */
export async function startupFigures(
  repoRoot: string,
  extra: string[],
  line: (s?: string) => void,
  aim: (name: string, value: number, aim: string, met: boolean, note?: string) => void,
  targets: { startupS: number; replayS: number },
): Promise<(() => void)[]> {
  const hadBuild = existsSync(join(repoRoot, BUILT))
  if (!hadBuild) execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: repoRoot, stdio: 'inherit' })
  try {
    const area = await timedRun(repoRoot, [...extra, '--area', 'buyer', '--seed', '42'])
    const replay = await timedRun(repoRoot, [...extra, '--check', REPLAY_CHECK, '--seed', '42'])
    rmSync(join(repoRoot, 'dist'), { recursive: true, force: true })
    const source = await timedRun(repoRoot, [...extra, '--area', 'buyer', '--seed', '42'], false)
    line(`(i) one-area run (--area buyer), compiled as packed: ${phasesText(area)}; ${memoryText(area.memory)}`)
    line(`    the same from the repository's sources (tsx): ${phasesText(source)}`)
    line(`    one-check replay (--check "${REPLAY_CHECK}", compiled): ${replay.exit.toFixed(1)} s end to end; ${phasesText(replay)}`)
    return [
      () => aim('one-area start-up (s)', area.firstCheck, `<= ${targets.startupS}`, area.firstCheck <= targets.startupS, `checks ${(area.checksDone - area.firstCheck).toFixed(1)} s, end to end ${area.exit.toFixed(1)} s; sources ${source.firstCheck.toFixed(1)} s`),
      () => aim('one-check replay (s)', replay.exit, `<= ${targets.replayS}`, replay.exit <= targets.replayS, `start-up ${replay.firstCheck.toFixed(1)} s`),
    ]
  } finally {
    if (hadBuild && !existsSync(join(repoRoot, BUILT))) execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: repoRoot, stdio: 'inherit' })
    if (!hadBuild) rmSync(join(repoRoot, 'dist'), { recursive: true, force: true })
  }
}

function phasesText(r: StartupRun): string {
  const s = (n: number) => `${n.toFixed(2)} s`
  return `start-up ${s(r.firstCheck)} (CLI, reference and preflight ${s(r.certifying)}, vitest start ${s(r.vitestStarted - r.certifying)}, workers and suite import ${s(r.firstCheck - r.vitestStarted)}), checks ${s(r.checksDone - r.firstCheck)}, reports and exit ${s(r.exit - r.checksDone)}${r.code === 0 ? '' : `; exit code ${r.code}`}`
}

async function timedRun(repoRoot: string, args: string[], built = true): Promise<StartupRun> {
  const reportDir = mkdtempSync(join(tmpdir(), 'pix-bench-startup-'))
  try {
    const spawnedAt = Date.now()
    let certifying = Number.NaN
    let memory: TreeMemory | undefined
    const code = await new Promise<number | null>((done, fail) => {
      const child = spawn(process.execPath, ['bin/pix-conformance.js', '--report-dir', reportDir, ...args], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PIX_'))), NO_COLOR: '1', ...(built ? { CONFORMANCE_KIT_BUILT: '1' } : {}) },
      })
      child.stdout.on('data', (chunk: Buffer) => {
        if (Number.isNaN(certifying) && chunk.toString().includes('Certifying ')) certifying = (Date.now() - spawnedAt) / 1000
      })
      const watch = watchTree(child.pid as number)
      child.on('error', fail)
      child.on('close', (c) => {
        memory = watch.stop()
        done(c)
      })
    })
    const exit = (Date.now() - spawnedAt) / 1000
    const [run] = readdirSync(reportDir)
    const results = JSON.parse(readFileSync(join(reportDir, run!, 'results.json'), 'utf8')) as { startedAt: string; finishedAt: string; checks: { startedAt?: string }[] }
    const at = (iso: string) => (Date.parse(iso) - spawnedAt) / 1000
    const firstCheck = Math.min(...results.checks.flatMap((c) => (c.startedAt ? [at(c.startedAt)] : [])))
    return { certifying, vitestStarted: at(results.startedAt), firstCheck, checksDone: at(results.finishedAt), exit, code, memory }
  } finally {
    rmSync(reportDir, { recursive: true, force: true })
  }
}
