// check(): one behaviour of the interface, tagged with the clauses it verifies (ARCHITECTURE.md
// "Checks and clauses", CONTRACTS §5-§6). It wraps a vitest test, hands the check its clients,
// skips it with a reason when the target lacks what it needs, and leaves the redacted evidence on
// the task for the reporters.
import { existsSync } from 'node:fs'
import fc from 'fast-check'
import { TestRunner, afterAll, inject, test, type TestContext } from 'vitest'
import { CLAUSES_PATH, clauseById } from '../generators/clauses.ts'
import { CheckFailure, expectErrorBody, expectHeader, expectStatus, fail } from './assertions.ts'
import { loadConfig, secretValues, type TargetConfig } from './config.ts'
import { ControlClient } from './control.ts'
import type { Exchange } from './exchange.ts'
import { HttpClient, closeSharedAgent, createClients, type AccountClients, type BearerClient, type CertTokenClient, type GatewayClient, type RawClient } from './http.ts'
import type { CheckMeta } from './meta.ts'
import { flushPacingLogs, pacerFor } from './pacing.ts'
import { Recorder, type RecordedExchange } from './recorder.ts'
import { sharedRedactor } from './redact.ts'
import { expectSchema } from './validate.ts'
import { checkHooks, webhooksUnavailable, type CheckHooks } from './webhooks.ts'

export type Need = 'control' | 'webhooks' | 'mutating' | 'otherAccount' | 'limitedKey' | 'certs' | 'otherAccountCert' | 'unlinkedCert'

export const NEEDS: readonly Need[] = ['control', 'webhooks', 'mutating', 'otherAccount', 'limitedKey', 'certs', 'otherAccountCert', 'unlinkedCert']

export interface CheckOptions {
  clauses: string[]
  needs?: Need[]
  /** Free labels, kept in meta.tags (not vitest tags, which must be declared in the config). */
  tags?: string[]
  timeout?: number
  /**
   * Runs side by side with the concurrent checks next to it in its file (vitest `concurrent`). Only
   * for checks that mostly wait (a quiet period in which nothing may arrive) and share nothing with
   * those neighbours: no account URLs, no clock, no rate-limited operation near its limit.
   */
  concurrent?: boolean
}

export interface CheckContext {
  /** The vitest task id, also the prefix of this check's webhook channels. */
  readonly id: string
  readonly clauses: string[]
  readonly config: TargetConfig
  readonly base: BearerClient
  readonly gateway: GatewayClient
  readonly certToken: CertTokenClient
  readonly raw: RawClient
  /** The second account; skips the check when it is not configured. */
  readonly other: AccountClients
  /** The limited client (bearer) and key (gateway); skips the check when the one used is not configured. */
  readonly limited: AccountClients
  /** The control driver; skips the check when there is no PIX_CONTROL_URL. */
  readonly control: ControlClient
  /** Webhook capture; only for checks that declare need 'webhooks'. */
  readonly hooks: CheckHooks
  /** The redacted evidence recorded so far. */
  exchanges(): RecordedExchange[]
  /** Skips the check with a reason (recorded in meta.skipReason); never returns. */
  skip(reason: string): never
  expectStatus(ex: Exchange, status: number | number[]): void
  expectErrorBody(ex: Exchange, status: number, opts?: { code?: string }): void
  expectSchema(ex: Exchange, operationId: string): void
  expectHeader(ex: Exchange, name: string, expected?: string | RegExp): string
  /** Fails the check: `<rule>: expected …, got …` with the exchange. */
  fail(rule: string, expected: string, got: string, ex?: Exchange): never
  /** fast-check property over `arbs`, seeded by the config; a failure records meta.replay. */
  property<Ts extends [unknown, ...unknown[]]>(
    arbs: { [K in keyof Ts]: fc.Arbitrary<Ts[K]> },
    predicate: (...args: Ts) => Promise<boolean | void> | boolean | void,
    opts?: { numRuns?: number; timeLimitMs?: number },
  ): Promise<void>
}

/** Declares a check. Unknown clause ids or needs throw here, when the suite is collected. */
export function check(title: string, options: CheckOptions, fn: (t: CheckContext) => Promise<void> | void): void {
  const clauses = validateClauses(title, options.clauses)
  const needs = validateNeeds(title, options.needs ?? [])
  const meta: CheckMeta = { clauses, needs, tags: options.tags ?? [] }
  const file = TestRunner.getCurrentSuite()?.file
  const area = areaOf(file?.filepath)
  if (area) meta.area = area
  releaseResourcesAfter(file)
  test(title, { meta, ...(options.timeout ? { timeout: options.timeout } : {}), ...(options.concurrent ? { concurrent: true } : {}) }, async (ctx) => {
    await runCheck(ctx, clauses, needs, fn)
  })
}

async function runCheck(ctx: TestContext, clauses: string[], needs: Need[], fn: (t: CheckContext) => Promise<void> | void): Promise<void> {
  const meta = ctx.task.meta
  meta.area ??= areaOf(ctx.task.file.filepath)
  const config = workerConfig()
  const recorder = new Recorder(sharedRedactor)
  let hooks: CheckHooks | undefined
  try {
    const unmet = unmetNeed(config, needs)
    if (unmet) skipCheck(ctx, unmet)
    const t = await buildContext(ctx, config, clauses, needs, recorder)
    if (needs.includes('webhooks')) hooks = t.hooks
    await fn(t)
  } catch (err) {
    throw withClauses(err, clauses)
  } finally {
    meta.exchanges = recorder.exchanges()
    if (recorder.omitted > 0) meta.exchangesOmitted = recorder.omitted
    // After the evidence is taken: putting the account's URLs back is housekeeping, not part of
    // what the check saw, and its failure is no verdict (later events would only reach this
    // check's channel, where no one reads them).
    await hooks?.restoreAccountUrls().catch(() => {})
  }
}

const filesWithCleanup = new WeakSet<object>()

/**
 * Once the file's checks are done: the pacer's logs go to disk (for whichever process runs next)
 * and the worker's sockets close, so no worker is held open by them; they open again lazily for
 * the next file. The capture server stays for the worker's life (it never holds the worker open,
 * harness/webhooks.ts): an account's notification URL still names a channel of an earlier file, and
 * a target that kept posting to a closed server spent its time on connections refused (a profile
 * counted about 1000 such attempts in one certification).
 */
function releaseResourcesAfter(file: object | undefined): void {
  if (!file || filesWithCleanup.has(file)) return
  filesWithCleanup.add(file)
  afterAll(async () => {
    flushPacingLogs()
    await closeSharedAgent()
  })
}

// ---------------------------------------------------------------------------------------------
// Declaration-time validation

function validateClauses(title: string, clauses: string[]): string[] {
  if (clauses.length === 0) throw new Error(`check "${title}": names no clause`)
  if (!existsSync(CLAUSES_PATH)) return [...clauses]
  const unknown = clauses.filter((id) => clauseById(id) === undefined)
  if (unknown.length > 0) throw new Error(`check "${title}": unknown clause id(s) ${unknown.join(', ')} (not in specs/clauses.yaml)`)
  return [...clauses]
}

function validateNeeds(title: string, needs: Need[]): Need[] {
  const unknown = needs.filter((n) => !NEEDS.includes(n))
  if (unknown.length > 0) throw new Error(`check "${title}": unknown need(s) ${unknown.join(', ')} (known: ${NEEDS.join(', ')})`)
  return [...needs]
}

/** `…/suites/<area>/….test.ts` → `<area>`. */
export function areaOf(filepath: string | undefined): string | undefined {
  if (!filepath) return undefined
  return /(?:^|[\\/])suites[\\/]([^\\/]+)[\\/]/.exec(filepath)?.[1]
}

// ---------------------------------------------------------------------------------------------
// Config and needs

declare module 'vitest' {
  interface ProvidedContext {
    /** PIX_* settings provided by a globalSetup (e.g. the embedded reference); they win over process.env. */
    pixEnv?: Record<string, string>
  }
}

let config: TargetConfig | undefined

/** The config of this worker: process.env, overlaid by the `pixEnv` a globalSetup provides. */
export function workerConfig(): TargetConfig {
  if (!config) {
    const provided = providedEnv()
    config = loadConfig(provided ? { ...process.env, ...provided } : process.env)
    for (const s of secretValues(config)) sharedRedactor.add(s.name, s.value)
  }
  return config
}

/** For tests of the harness: forget the cached config. */
export function resetWorkerConfig(): void {
  config = undefined
}

function providedEnv(): Record<string, string> | undefined {
  try {
    return inject('pixEnv')
  } catch {
    return undefined
  }
}

/** The reason the first unmet need cannot be met, or undefined when all are met. */
export function unmetNeed(c: TargetConfig, needs: Need[]): string | undefined {
  for (const need of needs) {
    const reason = needReason(c, need)
    if (reason) return reason
  }
  return undefined
}

function needReason(c: TargetConfig, need: Need): string | undefined {
  switch (need) {
    case 'control':
      if (c.profile === 'readonly') return READONLY_CONTROL
      return c.controlUrl ? undefined : NO_CONTROL
    case 'mutating':
      return c.profile === 'readonly' ? 'readonly profile: this check changes the target' : undefined
    case 'webhooks':
      // the capture server's CA is given to the target through the control API
      if (c.profile === 'readonly' && !c.webhookPublicUrl) return READONLY_CONTROL
      return webhooksUnavailable(c)
    case 'otherAccount':
      return (c.otherClientId && c.otherClientSecret) || c.otherApiKey
        ? undefined
        : 'no second account (PIX_OTHER_CLIENT_ID/PIX_OTHER_CLIENT_SECRET or PIX_OTHER_API_KEY)'
    case 'limitedKey':
      return c.apiKeyLimited || (c.limitedClientId && c.limitedClientSecret)
        ? undefined
        : 'no limited credentials (PIX_API_KEY_LIMITED or PIX_LIMITED_CLIENT_ID/SECRET)'
    case 'certs':
      return c.certFile ? undefined : 'no client certificate (PIX_CERT_FILE)'
    case 'otherAccountCert':
      return c.certOtherAccountFile ? undefined : "no other account's certificate (PIX_CERT_OTHER_ACCOUNT_FILE)"
    case 'unlinkedCert':
      return c.certUnlinkedFile ? undefined : 'no unlinked certificate (PIX_CERT_UNLINKED_FILE)'
  }
}

const NO_CONTROL = 'no control URL (PIX_CONTROL_URL): the target cannot be driven'
/**
 * Production has no control API, and driving a sandbox's (its clock, payments, trusted CAs) changes
 * its state: a readonly run uses none of it, so a check that needs it is left out by the profile.
 */
const READONLY_CONTROL = 'readonly profile: the control API changes the state of the target it drives'

function skipCheck(ctx: TestContext, reason: string): never {
  ctx.task.meta.skipReason = reason
  return ctx.skip(reason)
}

// ---------------------------------------------------------------------------------------------
// The context a check receives

async function buildContext(ctx: TestContext, c: TargetConfig, clauses: string[], needs: Need[], recorder: Recorder): Promise<CheckContext> {
  const record = (ex: Exchange) => void recorder.record(ex)
  const clients = createClients(c, record)
  // The control API is the sandbox's driver, not the target's surface; readonly runs never drive it.
  const onControl = (ex: Exchange) => {
    record(ex)
    tellPacerOfClock(c, ex)
  }
  const control = c.controlUrl && c.profile !== 'readonly'
    ? new ControlClient(new HttpClient({ timeoutMs: c.timeoutMs, onExchange: onControl }), c.controlUrl, c.clientId)
    : undefined
  const skip = (reason: string): never => skipCheck(ctx, reason)
  const hooks = needs.includes('webhooks') ? await checkHooks(c, ctx.task.id, clients.gateway, () => control, { concurrent: ctx.task.concurrent === true }) : undefined
  const meta = ctx.task.meta

  return {
    id: ctx.task.id,
    clauses,
    config: c,
    base: clients.base,
    gateway: clients.gateway,
    certToken: clients.certToken,
    raw: clients.raw,
    get other() {
      return accountOrSkip(clients.other, skip, 'second account', 'PIX_OTHER_CLIENT_ID/PIX_OTHER_CLIENT_SECRET', 'PIX_OTHER_API_KEY')
    },
    get limited() {
      return accountOrSkip(clients.limited, skip, 'limited', 'PIX_LIMITED_CLIENT_ID/PIX_LIMITED_CLIENT_SECRET', 'PIX_API_KEY_LIMITED')
    },
    get control() {
      return control ?? skip(c.profile === 'readonly' ? READONLY_CONTROL : NO_CONTROL)
    },
    get hooks(): CheckHooks {
      if (!hooks) throw new Error("t.hooks is only available to checks that declare need 'webhooks'")
      return hooks
    },
    exchanges: () => recorder.exchanges(),
    skip,
    expectStatus,
    expectErrorBody,
    expectSchema,
    expectHeader,
    fail,
    property: (arbs, predicate, opts) => runProperty(meta, c, arbs as fc.Arbitrary<unknown>[], predicate as (...a: unknown[]) => unknown, opts),
  }
}

/**
 * A reset or a clock advance of the sandbox rolls its rate windows: the pacer follows, so it does
 * not make later requests wait for a window the target has already let go.
 */
function tellPacerOfClock(c: TargetConfig, ex: Exchange): void {
  const { method, url, body } = ex.request
  if (method !== 'POST' || ex.response.status < 200 || ex.response.status > 299) return
  const path = new URL(url).pathname
  if (path.endsWith('/control/reset')) return pacerFor(c.gatewayUrl).forget()
  if (!path.endsWith('/control/clock/advance') || body === undefined) return
  const seconds = (JSON.parse(body) as { seconds?: unknown }).seconds
  if (typeof seconds === 'number') pacerFor(c.gatewayUrl).clockAdvanced(seconds)
}

/** Clients of an optional account; using the part that is not configured skips the check. */
function accountOrSkip(
  clients: Partial<AccountClients> | undefined,
  skip: (reason: string) => never,
  label: string,
  bearerSettings: string,
  keySetting: string,
): AccountClients {
  return {
    get base() {
      return clients?.base ?? skip(`no ${label} client credentials (${bearerSettings})`)
    },
    get gateway() {
      return clients?.gateway ?? skip(`no ${label} API key (${keySetting})`)
    },
  }
}

// ---------------------------------------------------------------------------------------------
// Property checks

/** Time budget of one property check, shrinking included (fast-check's interruptAfterTimeLimit). */
export const PROPERTY_TIME_LIMIT_MS = 20_000

async function runProperty(
  meta: Partial<CheckMeta>,
  c: TargetConfig,
  arbs: fc.Arbitrary<unknown>[],
  predicate: (...args: unknown[]) => unknown,
  opts: { numRuns?: number; timeLimitMs?: number } = {},
): Promise<void> {
  meta.seed = c.seed
  const property = fc.asyncProperty(...(arbs as [fc.Arbitrary<unknown>]), async (...args: unknown[]) => {
    const verdict = await predicate(...args)
    return verdict !== false
  })
  // A failing webhook property waits out its deadline on every shrink step: bound the whole run so a
  // broken target still fails within the check's time limit, with the smallest case found so far.
  const details = await fc.check(property, { seed: c.seed, numRuns: opts.numRuns ?? c.numRuns, interruptAfterTimeLimit: opts.timeLimitMs ?? PROPERTY_TIME_LIMIT_MS })
  if (!details.failed) return
  meta.replay = `seed=${details.seed} path=${details.counterexamplePath ?? ''}`
  const cause = details.errorInstance
  const report = sharedRedactor.text(fc.defaultReportMessage(details) ?? 'property failed')
  const failure = new CheckFailure(`property failed (replay: ${meta.replay}; run with --seed ${details.seed})\n${report}`, {
    rule: cause instanceof CheckFailure ? cause.details.rule : 'property',
  })
  throw failure
}

/** Adds the check's clause ids to a failure message (once). */
function withClauses(err: unknown, clauses: string[]): unknown {
  if (err instanceof Error && !isSkip(err) && !err.message.includes('\nclauses: ')) {
    err.message = `${err.message}\nclauses: ${clauses.join(', ')}`
  }
  return err
}

/** vitest's dynamic skip throws a PendingError; it must pass through untouched. */
function isSkip(err: Error): boolean {
  return (err as { code?: unknown }).code === 'VITEST_PENDING' || err.name === 'PendingError'
}
