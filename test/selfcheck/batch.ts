// A long-lived certification child for the fault self-check (run with tsx): one reference, one
// fault proxy and one vitest instance serve many faults in turn, so a fault costs the run of its
// suite files and not the start of a CLI, a vitest and a target. The one-off path, `certify()` in
// runner.ts, runs the real CLI; both run the same `conformance` project against the same proxy.
//
// Protocol: stdin gives one BatchOrder (JSON) per line; stdout answers each with one line
// `@@selfcheck-result <json>` (a BatchOutcome). Anything else on stdout is the suites' chatter.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { request } from 'undici'
import type { Reporter, TestCase, TestModule } from 'vitest/node'
import { startReference } from '../../reference/index.ts'
import { FAULTS } from './faults/index.ts'
import type { Fault } from './fault.ts'
import { FaultProxy } from './proxy.ts'
import type { RunTarget } from './targeting.ts'

export const RESULT_MARKER = '@@selfcheck-result '
const REPO_ROOT = join(import.meta.dirname, '..', '..')
const MAX_MESSAGE_CHARS = 600

export interface BatchCheck {
  title: string
  area: string
  file: string
  clauses: string[]
  status: 'passed' | 'failed' | 'skipped'
  message?: string
}

/** A fault to run, and the checks to run it against (targeting.ts); without them, its files or area. */
export interface BatchOrder {
  faultId: string
  targets?: RunTarget[]
}

export interface BatchOutcome {
  faultId: string
  checks: BatchCheck[]
  errors: string[]
  durationMs: number
  proxyErrors: string[]
}

/** Collects the verdict of each check of one run; cleared before the next. */
class VerdictReporter implements Reporter {
  checks: BatchCheck[] = []
  errors: string[] = []

  clear(): void {
    this.checks = []
    this.errors = []
  }

  onTestCaseResult(tc: TestCase): void {
    const meta = tc.meta() as { clauses?: unknown; area?: unknown }
    const r = tc.result()
    const status = r.state === 'passed' ? 'passed' : r.state === 'failed' ? 'failed' : 'skipped'
    const message = r.state === 'failed' ? (r.errors?.[0]?.message ?? '').slice(0, MAX_MESSAGE_CHARS) : undefined
    this.checks.push({
      title: tc.fullName,
      area: typeof meta.area === 'string' ? meta.area : '',
      file: tc.module.moduleId.slice(join(REPO_ROOT, 'suites').length + 1),
      clauses: Array.isArray(meta.clauses) ? meta.clauses.filter((c): c is string => typeof c === 'string') : [],
      status,
      ...(message !== undefined ? { message } : {}),
    })
  }

  onTestModuleEnd(m: TestModule): void {
    for (const e of m.errors()) this.errors.push(`${m.moduleId}: ${e.message}`)
  }
}

async function main(): Promise<void> {
  const outDir = mkdtempSync(join(tmpdir(), 'pix-selfcheck-batch-'))
  const reference = await startReference({ quiet: true, outDir })
  const proxy = await FaultProxy.start(reference)
  const env = { ...proxy.envFor(reference.env), PIX_SEED: process.env.PIX_SEED ?? String(Math.floor(Math.random() * 2 ** 31)) }
  Object.assign(process.env, env)
  const reporter = new VerdictReporter()
  const { createVitest } = await import('vitest/node')
  const vitest = await createVitest('test', {
    root: REPO_ROOT,
    config: join(REPO_ROOT, 'vitest.config.ts'),
    run: true,
    watch: false,
    project: ['conformance'],
    reporters: [reporter],
    env,
    passWithNoTests: true,
  })
  const project = vitest.getProjectByName('conformance')
  const byId = new Map(FAULTS.map((f) => [f.id, f]))

  const specifications = (fault: Fault, targets: RunTarget[] | undefined) =>
    targets
      ? targets.map((t) => project.createSpecification(join(REPO_ROOT, 'suites', t.file), { testIds: t.testIds }))
      : suiteFiles(fault).map((f) => project.createSpecification(f))

  const runFault = async (fault: Fault, targets: RunTarget[] | undefined): Promise<BatchOutcome> => {
    const started = Date.now()
    await reset(reference.controlUrl)
    proxy.errors.length = 0
    proxy.use(fault)
    reporter.clear()
    try {
      await vitest.runTestSpecifications(specifications(fault, targets))
    } finally {
      proxy.use()
    }
    return { faultId: fault.id, checks: reporter.checks, errors: reporter.errors, durationMs: Date.now() - started, proxyErrors: [...proxy.errors] }
  }

  const lines = createInterface({ input: process.stdin })
  for await (const line of lines) {
    if (!line.trim()) continue
    const order = JSON.parse(line) as BatchOrder
    const id = order.faultId
    const fault = byId.get(id)
    const outcome = fault
      ? await runFault(fault, order.targets).catch((e: Error) => failedOutcome(id, `the run broke: ${e.message}`))
      : failedOutcome(id, `no fault with id ${id}`)
    process.stdout.write(`${RESULT_MARKER}${JSON.stringify(outcome)}\n`)
  }
  await vitest.close()
  await proxy.close()
  await reference.close()
  rmSync(outDir, { recursive: true, force: true })
}

/** Absolute paths of the suite files a fault's run covers: its files, or its whole area. */
export function suiteFiles(fault: Pick<Fault, 'area' | 'files'>): string[] {
  const suites = join(REPO_ROOT, 'suites')
  if (fault.files?.length) return fault.files.map((f) => join(suites, f))
  return readdirSync(join(suites, fault.area)).filter((f) => f.endsWith('.test.ts')).sort().map((f) => join(suites, fault.area, f))
}

function failedOutcome(faultId: string, error: string): BatchOutcome {
  return { faultId, checks: [], errors: [error], durationMs: 0, proxyErrors: [] }
}

async function reset(controlUrl: string): Promise<void> {
  const res = await request(`${controlUrl}/control/reset`, { method: 'POST' })
  await res.body.dump()
  if (res.statusCode !== 204) throw new Error(`POST /control/reset answered ${res.statusCode}`)
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  main().catch((e: Error) => {
    process.stderr.write(`selfcheck batch: ${e.stack ?? e.message}\n`)
    process.exit(1)
  })
}
