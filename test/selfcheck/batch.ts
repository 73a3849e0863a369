// A long-lived certification child for the fault self-check (run with tsx): one reference, one
// fault proxy and one vitest instance serve many faults, so a fault costs the run of its checks
// and not the start of a CLI, a vitest and a target. The one-off path, `certify()` in runner.ts,
// runs the real CLI; both run the same `conformance` project against the same proxy.
//
// A round holds the checks of several faults (no check twice) in one vitest run. Before each
// check, the setup file fault-switch.ts tells this process which check starts: the target is
// reset and that check's fault goes into the proxy; after the check, the fault comes out. So each
// check runs alone under its own fault on a fresh target, as in a run of that fault by itself.
//
// Protocol: stdin gives one BatchRound (JSON) per line; stdout answers each with one line
// `@@selfcheck-result <json>` (a RoundOutcome). Anything else on stdout is the suites' chatter.
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { request } from 'undici'
import type { Reporter, TestCase, TestModule } from 'vitest/node'
import { startReference } from '../../reference/index.ts'
import { DEFAULT_READINGS, type Readings } from '../../reference/readings.ts'
import { conformanceProject } from '../../vitest.config.ts'
import { FAULTS } from './faults/index.ts'
import type { Fault } from './fault.ts'
import { FaultProxy } from './proxy.ts'
import { resetTarget } from './runner.ts'
import type { RunTarget } from './targeting.ts'

export const RESULT_MARKER = '@@selfcheck-result '
/** The fault id of a control order: its checks run with no fault in the proxy, and must pass. */
export const NO_FAULT = '(no fault)'
const REPO_ROOT = join(import.meta.dirname, '..', '..')
const SWITCH_SETUP_FILE = join(REPO_ROOT, 'test', 'selfcheck', 'fault-switch.ts')
const MAX_MESSAGE_CHARS = 600

export interface BatchCheck {
  title: string
  area: string
  file: string
  clauses: string[]
  status: 'passed' | 'failed' | 'skipped' | 'blocked' | 'inconclusive'
  failedClause?: string
  reason?: string
  message?: string
}

/** A fault and the checks to run under it (targeting.ts). */
export interface FaultOrder {
  faultId: string
  targets: RunTarget[]
}

/** Faults whose checks run in one vitest run; no check may serve two of them. */
export interface BatchRound {
  faults: FaultOrder[]
}

export interface BatchOutcome {
  faultId: string
  checks: BatchCheck[]
  errors: string[]
  durationMs: number
  proxyErrors: string[]
}

export interface RoundOutcome {
  outcomes: BatchOutcome[]
  durationMs: number
}

/** Collects the verdict of each check of one run, by vitest task id; cleared before the next. */
class VerdictReporter implements Reporter {
  checks = new Map<string, BatchCheck>()
  errors: string[] = []

  clear(): void {
    this.checks = new Map()
    this.errors = []
  }

  onTestCaseResult(tc: TestCase): void {
    const meta = tc.meta() as { clauses?: unknown; area?: unknown; verdict?: unknown; failedClause?: unknown; reason?: unknown }
    const r = tc.result()
    const status = r.state === 'passed' ? 'passed' : r.state === 'failed' ? 'failed' : meta.verdict === 'blocked' || meta.verdict === 'inconclusive' ? meta.verdict : 'skipped'
    const message = r.state === 'failed' ? (r.errors?.[0]?.message ?? '').slice(0, MAX_MESSAGE_CHARS) : undefined
    this.checks.set(tc.id, {
      title: tc.fullName,
      area: typeof meta.area === 'string' ? meta.area : '',
      file: tc.module.moduleId.slice(join(REPO_ROOT, 'suites').length + 1),
      clauses: Array.isArray(meta.clauses) ? meta.clauses.filter((c): c is string => typeof c === 'string') : [],
      status,
      ...(typeof meta.failedClause === 'string' ? { failedClause: meta.failedClause } : {}),
      ...(typeof meta.reason === 'string' ? { reason: meta.reason } : {}),
      ...(message !== undefined ? { message } : {}),
    })
  }

  onTestModuleEnd(m: TestModule): void {
    for (const e of m.errors()) this.errors.push(`${m.moduleId}: ${e.message}`)
  }
}

interface Planned {
  faultId: string
  /** undefined for the control order (NO_FAULT) */
  fault: Fault | undefined
  targets: RunTarget[]
}

/** Which fault each check of the running round is under, and what the proxy noted meanwhile. */
class FaultSwitch {
  private faultOf = new Map<string, Planned>()
  private proxyErrors = new Map<string, string[]>()
  private server: Server | undefined
  url = ''

  constructor(
    private readonly proxy: FaultProxy,
    private readonly controlUrl: string,
  ) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = ''
      req.setEncoding('utf8')
      req.on('data', (chunk: string) => (body += chunk))
      req.on('end', () => {
        this.handle(req.url ?? '', body.trim()).then(
          () => res.writeHead(204).end(),
          (e: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(e.message),
        )
      })
    })
    await new Promise<void>((done) => this.server!.listen(0, '127.0.0.1', done))
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  plan(round: Planned[]): void {
    this.faultOf = new Map(round.flatMap((p) => p.targets.flatMap((t) => t.testIds.map((id) => [id, p] as const))))
    this.proxyErrors = new Map()
  }

  errorsOf(faultId: string): string[] {
    return this.proxyErrors.get(faultId) ?? []
  }

  private async handle(path: string, testId: string): Promise<void> {
    if (path === '/begin') {
      this.proxy.use()
      await resetTarget(this.controlUrl)
      this.proxy.errors.length = 0
      const fault = this.faultOf.get(testId)?.fault
      if (fault?.readings) await switchReadings(this.controlUrl, fault.readings)
      if (fault) this.proxy.use(fault)
      return
    }
    if (path === '/end') {
      const planned = this.faultOf.get(testId)
      this.proxy.use()
      if (planned?.fault?.readings) await switchReadings(this.controlUrl, ownReadings(planned.fault.readings))
      if (planned) this.proxyErrors.set(planned.faultId, [...this.errorsOf(planned.faultId), ...this.proxy.errors])
      this.proxy.errors.length = 0
      return
    }
    throw new Error(`unknown switch path ${path}`)
  }

  async close(): Promise<void> {
    await new Promise((done) => this.server?.close(done))
  }
}

async function switchReadings(controlUrl: string, readings: Partial<Readings>): Promise<void> {
  const res = await request(`${controlUrl}/control/readings`, { method: 'POST', body: JSON.stringify(readings), headers: { 'content-type': 'application/json' } })
  const text = await res.body.text()
  if (res.statusCode !== 200) throw new Error(`POST /control/readings answered ${res.statusCode}: ${text}`)
}

/** The reference's own choice for each reading a fault switched. */
function ownReadings(switched: Partial<Readings>): Partial<Readings> {
  return Object.fromEntries(Object.keys(switched).map((name) => [name, DEFAULT_READINGS[name as keyof Readings]]))
}

async function main(): Promise<void> {
  const outDir = mkdtempSync(join(tmpdir(), 'pix-selfcheck-batch-'))
  const reference = await startReference({ quiet: true, outDir })
  const proxy = await FaultProxy.start(reference)
  const faultSwitch = new FaultSwitch(proxy, reference.controlUrl)
  await faultSwitch.start()
  const env = {
    ...proxy.envFor(reference.env),
    // each check runs alone on a freshly reset target anyway: the checks that reset it may run too
    PIX_RESET: '1',
    PIX_SEED: process.env.PIX_SEED ?? String(Math.floor(Math.random() * 2 ** 31)),
    SELFCHECK_SWITCH_URL: faultSwitch.url,
  }
  Object.assign(process.env, env)
  const reporter = new VerdictReporter()
  const { createVitest } = await import('vitest/node')
  const vitest = await createVitest('test', {
    root: REPO_ROOT,
    config: false,
    // One check at a time, concurrent ones too: the switch puts one check's fault in the proxy.
    projects: [{ test: { ...conformanceProject.test, setupFiles: [SWITCH_SETUP_FILE], maxConcurrency: 1 } }],
    run: true,
    watch: false,
    project: ['conformance'],
    reporters: [reporter],
    env,
    passWithNoTests: true,
  })
  const project = vitest.getProjectByName('conformance')
  const byId = new Map(FAULTS.map((f) => [f.id, f]))

  const runRound = async (round: BatchRound): Promise<RoundOutcome> => {
    const started = Date.now()
    const planned: Planned[] = round.faults.map((o) => {
      const fault = o.faultId === NO_FAULT ? undefined : byId.get(o.faultId)
      if (!fault && o.faultId !== NO_FAULT) throw new Error(`no fault with id ${o.faultId}`)
      return { faultId: o.faultId, fault, targets: o.targets }
    })
    faultSwitch.plan(planned)
    reporter.clear()
    try {
      await vitest.runTestSpecifications(specifications(planned.flatMap((p) => p.targets)))
    } finally {
      proxy.use()
    }
    const durationMs = Date.now() - started
    const outcomes = planned.map(({ faultId, targets }) => ({
      faultId,
      checks: targets.flatMap((t) => t.testIds.flatMap((id) => reporter.checks.get(id) ?? [])),
      errors: reporter.errors,
      durationMs,
      proxyErrors: faultSwitch.errorsOf(faultId),
    }))
    return { outcomes, durationMs }
  }

  /** One specification per file, holding every check of the round in it. */
  const specifications = (targets: RunTarget[]) => {
    const byFile = new Map<string, string[]>()
    for (const t of targets) byFile.set(t.file, [...(byFile.get(t.file) ?? []), ...t.testIds])
    return [...byFile].sort(([a], [b]) => a.localeCompare(b)).map(([file, testIds]) => project.createSpecification(join(REPO_ROOT, 'suites', file), { testIds }))
  }

  const lines = createInterface({ input: process.stdin })
  for await (const line of lines) {
    if (!line.trim()) continue
    const round = JSON.parse(line) as BatchRound
    const outcome = await runRound(round).catch((e: Error) => brokenRound(round, `the run broke: ${e.message}`))
    process.stdout.write(`${RESULT_MARKER}${JSON.stringify(outcome)}\n`)
  }
  await vitest.close()
  await faultSwitch.close()
  await proxy.close()
  await reference.close()
  rmSync(outDir, { recursive: true, force: true })
}

function brokenRound(round: BatchRound, error: string): RoundOutcome {
  return { outcomes: round.faults.map((o) => ({ faultId: o.faultId, checks: [], errors: [error], durationMs: 0, proxyErrors: [] })), durationMs: 0 }
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  main().catch((e: Error) => {
    process.stderr.write(`selfcheck batch: ${e.stack ?? e.message}\n`)
    process.exit(1)
  })
}
