// The latency bench: a full certification of the embedded reference (all areas, default
// depth) through the self-check proxy, once per latency profile. The delay falls on every API the
// kit talks to (base, gateway and control: a real sandbox's control API is as far away as the rest),
// half before forwarding the request and half before answering. Webhook deliveries are not delayed.
//
// The floor at an RTT R is what no scheduling can beat: a check takes at least its own time on
// loopback (its deliberate waits and CPU) plus its in-order rounds × R. Checks that overlap finish
// with the longest of them; checks that must run alone add up.
import { mkdirSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CheckResult } from '../cli/reporting/types.ts'
import { DEFAULT_WORKERS, DEFAULT_WORKERS_DISTANT, DISTANT_TARGET_MS } from '../harness/config.ts'
import { ALONE } from '../harness/schedule.ts'
import { allAreas } from '../test/selfcheck/areas.ts'
import type { Api } from '../test/selfcheck/fault.ts'
import { certify, closeReferences, type RunResults } from '../test/selfcheck/runner.ts'
import { defineVariant, mulberry32 } from '../test/selfcheck/variants.ts'

export const PROFILE_IDS = ['0', '100', 'jitter'] as const
export type ProfileId = (typeof PROFILE_IDS)[number]

interface Profile {
  name: string
  /** The delay of each half of a round trip, in ms (undefined: none at all). */
  halfDelay?: () => number
}

const JITTER_SEED = 0x1a7e
/** One seed for every profile, so their property checks draw the same cases (unless the caller gives --seed). */
const CERTIFICATION_SEED = '1919'
const PROFILES: Record<ProfileId, () => Profile> = {
  '0': () => ({ name: '0 ms' }),
  '100': () => ({ name: '100 ms RTT', halfDelay: () => 50 }),
  jitter: () => {
    const random = mulberry32(JITTER_SEED)
    return { name: 'jittered 20–100 ms RTT', halfDelay: () => 10 + 40 * random() }
  },
}

const RTT_MS = 100
// issue 41: a distant target at twice the loopback time
const SLOWDOWN_TARGET = 2
const FLOOR_TARGET = 2
const TIME_LIMIT_MS = 30 * 60_000
/** Each profile's results.json is kept here, to look into a figure after the run. */
const RESULTS_DIR = join(tmpdir(), 'pix-bench-latency')

export interface Ratio {
  name: string
  ratio: number
  target: string
  ok: boolean
}

interface ProfileRun {
  profile: Profile
  results: RunResults
  /** Requests the proxy saw, by API. */
  atProxy: Record<Api, number>
}

/** Parses `--profiles 0,100,jitter`; throws on an unknown id. */
export function profilesFrom(arg: string | undefined): ProfileId[] {
  if (arg === undefined) return [...PROFILE_IDS]
  const ids = arg.split(',').map((s) => s.trim()).filter(Boolean)
  for (const id of ids) if (!(PROFILE_IDS as readonly string[]).includes(id)) throw new Error(`--profiles: unknown profile "${id}" (known: ${PROFILE_IDS.join(', ')})`)
  return ids as ProfileId[]
}

/** Runs the profiles in turn, prints what each one did, and returns the ratios to the targets. */
export async function latencyBench(ids: ProfileId[], cliArgs: string[], line: (s?: string) => void): Promise<Ratio[]> {
  const seeded = cliArgs.includes('--seed') ? cliArgs : ['--seed', CERTIFICATION_SEED, ...cliArgs]
  // The self-check's children run one worker each (test/selfcheck/runner.ts); this bench measures
  // what a user gets: the CLI's own worker count, by the target's distance, unless --workers is given.
  const workers = seeded.includes('--workers') ? '' : ` (workers: the CLI's default, ${DEFAULT_WORKERS} near, ${DEFAULT_WORKERS_DISTANT} when no preflight answer is faster than ${DISTANT_TARGET_MS} ms)`
  line(`(g) latency: full certification of the reference through a delaying proxy (delay on base, gateway and control), CLI args: ${seeded.join(' ')}${workers}`)
  const runs = new Map<ProfileId, ProfileRun>()
  try {
    for (const id of ids) {
      const loadBefore = loadavg()[0] as number
      const run = await certifyAt(PROFILES[id](), seeded)
      runs.set(id, run)
      const { checks, run: outcome } = run.results
      // Other processes on the machine slow the 0 ms run most: the load average says how busy it was.
      line(`  ${run.profile.name.padEnd(24)} ${seconds(outcome.durationMs).padStart(7)}   exit ${outcome.exitCode}   ${run.results.verdict.headline}`)
      line(`  ${''.padEnd(24)} requests: ${sum(checks.map(requestsOf))} by the checks, ${proxyText(run.atProxy)}`)
      const slowest = maxBy(checks, (c) => c.durationMs)
      if (slowest) line(`  ${''.padEnd(24)} slowest check ${seconds(slowest.durationMs)}: ${nameOf(slowest)}; load average ${loadBefore.toFixed(1)} → ${(loadavg()[0] as number).toFixed(1)}`)
      mkdirSync(RESULTS_DIR, { recursive: true })
      writeFileSync(join(RESULTS_DIR, `${id}.json`), JSON.stringify(run.results))
    }
    line(`  (each run's results.json: ${RESULTS_DIR}/<profile>.json)`)
  } finally {
    await closeReferences()
  }
  return report(runs, line)
}

async function certifyAt(profile: Profile, extraArgs: string[]): Promise<ProfileRun> {
  const atProxy: Record<Api, number> = { base: 0, gateway: 0, control: 0 }
  const wait = async () => {
    if (profile.halfDelay) await sleep(profile.halfDelay())
    return undefined
  }
  const variant = defineVariant({
    id: `rtt-${profile.name}`,
    description: profile.name,
    onRequest: (req) => {
      atProxy[req.api]++
      return wait()
    },
    onResponse: wait,
  })
  const results = await certify({ areas: allAreas(), variant, extraArgs, timeLimitMs: TIME_LIMIT_MS, cliWorkers: true })
  return { profile, results, atProxy }
}

function report(runs: Map<ProfileId, ProfileRun>, line: (s?: string) => void): Ratio[] {
  const loopback = runs.get('0')
  const distant = runs.get('100')
  const shape = distant ?? loopback ?? runs.get('jitter')
  if (shape === undefined) return []

  line(`  by area, ${shape.profile.name} run:`)
  line(`    ${'area'.padEnd(22)} checks requests  rounds`)
  for (const [area, checks] of byArea(shape.results.checks)) {
    line(`    ${area.padEnd(22)} ${String(checks.length).padStart(6)} ${String(sum(checks.map(requestsOf))).padStart(8)} ${String(sum(checks.map(roundsOf))).padStart(7)}`)
  }
  const longest = maxBy(shape.results.checks, roundsOf)
  if (longest) line(`  longest in-order chain: ${roundsOf(longest)} rounds (${requestsOf(longest)} requests), ${nameOf(longest)}`)
  for (const run of [loopback, distant]) {
    const phases = run && phasesOf(run.results.checks)
    if (!run || !phases) continue
    const lanes = [...phases.busyByBalanceAccount].map(([setting, ms]) => `${setting} busy ${seconds(ms)}`).join(', ')
    line(`  phases, ${run.profile.name} run: shared ${seconds(phases.sharedMs)} (side by side on the main account until ${seconds(phases.sideBySideEndMs)}; the account's URLs held ${seconds(phases.accountUrlsMs)}${lanes ? `; ${lanes}` : ''}), then alone ${seconds(phases.aloneMs)}`)
  }

  const ratios: Ratio[] = []
  if (loopback && distant) {
    const slowdown = distant.results.run.durationMs / loopback.results.run.durationMs
    ratios.push({ name: '(g) certification 100 ms / 0 ms', ratio: slowdown, target: `<= ${SLOWDOWN_TARGET.toFixed(2)}`, ok: slowdown <= SLOWDOWN_TARGET })
    const floor = floorAt(RTT_MS, loopback.results.checks, distant.results.checks)
    const longestText = floor.longest ? `${seconds(floor.longest.ms)} (${nameOf(floor.longest.check)}: ${seconds(floor.longest.ownMs)} own + ${roundsOf(floor.longest.check)} rounds × ${RTT_MS} ms)` : 'none'
    const onAccounts = floor.balanceAccounts > 1 ? `the balance accounts' checks, one after another on each of ${floor.balanceAccounts}, ${seconds(floor.balanceAccountMs)}` : `the balance account's checks one after another ${seconds(floor.balanceAccountMs)}`
    const widest = Math.max(floor.longest?.ms ?? 0, floor.balanceAccountMs, floor.accountUrlsMs)
    const shared = widest === floor.balanceAccountMs ? onAccounts : widest === floor.accountUrlsMs ? `the account-events checks, one file's at a time, ${seconds(floor.accountUrlsMs)}` : `longest check ${longestText}`
    line(`  floor at ${RTT_MS} ms RTT: ${seconds(floor.ms)} = ${shared} + ${seconds(floor.clockGroupMs)} for the ${floor.clockGroupCount} checks of the alone phase's clock group side by side + ${seconds(floor.aloneMs)} of ${floor.aloneCount} checks that run alone`)
    line(`  the same checks one after another would take ${seconds(floor.serialMs)} (sum over checks of own time + rounds × ${RTT_MS} ms)`)
    const overFloor = distant.results.run.durationMs / floor.ms
    ratios.push({ name: '(g) 100 ms RTT / its floor', ratio: overFloor, target: `<= ${FLOOR_TARGET.toFixed(2)}`, ok: overFloor <= FLOOR_TARGET })
    line(`  by area, the checks' own time added up (a balance account's wait left out): at 0 ms, at ${RTT_MS} ms, its floor (own + rounds × ${RTT_MS} ms), and the ratios to 0 ms`)
    line(`    ${'area'.padEnd(22)} ${'0 ms'.padStart(8)} ${`${RTT_MS} ms`.padStart(8)} ${'floor'.padStart(8)}  achieved  floor`)
    for (const row of areaFloors(RTT_MS, loopback.results.checks, distant.results.checks)) {
      line(`    ${row.area.padEnd(22)} ${seconds(row.loopbackMs).padStart(8)} ${seconds(row.distantMs).padStart(8)} ${seconds(row.floorMs).padStart(8)}  ${ratioText(row.distantMs, row.loopbackMs).padStart(8)} ${ratioText(row.floorMs, row.loopbackMs).padStart(6)}`)
    }
  } else {
    line('  (the 100 ms / 0 ms ratio and the floor need both the 0 and the 100 profiles)')
  }
  const jitter = runs.get('jitter')
  if (loopback && jitter) line(`  jittered / 0 ms: ${(jitter.results.run.durationMs / loopback.results.run.durationMs).toFixed(2)} (information, no target)`)
  return ratios
}

interface Floor {
  ms: number
  longest?: { check: CheckResult; ms: number; ownMs: number }
  /**
   * The checks on the balance accounts (one at a time on each, beside the shared phase): their sum
   * shared evenly among the accounts, or their longest when that is more.
   */
  balanceAccountMs: number
  /** How many balance accounts the run held. */
  balanceAccounts: number
  /** The account-events checks (`ALONE.accountEvents`), one worker at a time holding the account's URLs: each file's longest, added up. */
  accountUrlsMs: number
  aloneMs: number
  aloneCount: number
  /**
   * The alone phase's clock group (harness/clock-barrier.ts), side by side: its longest check, or
   * the checks on one balance account one after another, when that is more.
   */
  clockGroupMs: number
  clockGroupCount: number
  /** Every check's floor added up: a run with no overlap at all. */
  serialMs: number
}

/**
 * The run's floor at `rttMs`: each check's own time (its duration on loopback) plus its rounds (as
 * the distant run counted them, where overlapping requests are visible) × RTT. The shared phase
 * lasts at least its longest check, at least the checks on the balance accounts one after
 * another, shared among the accounts, and at least the account-events checks (`ALONE.accountEvents`)
 * of one file after another's (one worker at a time holds the account's URLs; a file's run side by
 * side, and count with their longest); then come the alone phase's clock group (its longest check,
 * or one balance account's checks one after another) and the checks that run alone, added up.
 */
export function floorAt(rttMs: number, loopback: CheckResult[], distant: CheckResult[]): Floor {
  // a check's own time leaves out its wait for the balance account (another check's time)
  const ownMs = new Map(loopback.map((c) => [c.id, c.durationMs - (c.balanceAccountWaitMs ?? 0)]))
  const floor: Floor = { ms: 0, balanceAccountMs: 0, balanceAccounts: 0, accountUrlsMs: 0, aloneMs: 0, aloneCount: 0, clockGroupMs: 0, clockGroupCount: 0, serialMs: 0 }
  const groupByAccount = new Map<string, number>()
  const accountEventsByFile = new Map<string, number>()
  const balanceAccounts = new Set<string>()
  let onBalanceAccounts = 0
  let longestOnOne = 0
  for (const check of distant) {
    const own = ownMs.get(check.id) ?? 0
    const ms = own + roundsOf(check) * rttMs
    floor.serialMs += ms
    if (check.balanceAccount) {
      balanceAccounts.add(check.balanceAccountSetting ?? 'PIX_BALANCE')
      onBalanceAccounts += ms
      longestOnOne = Math.max(longestOnOne, ms)
    } else if (check.clockGroup) {
      const lane = check.balanceAccountSetting ?? check.id
      groupByAccount.set(lane, (groupByAccount.get(lane) ?? 0) + ms)
      floor.clockGroupCount++
    } else if (check.alone === ALONE.accountEvents) {
      accountEventsByFile.set(check.file, Math.max(accountEventsByFile.get(check.file) ?? 0, ms))
    } else if (check.alone !== undefined) {
      floor.aloneMs += ms
      floor.aloneCount++
    } else if (ms > (floor.longest?.ms ?? -1)) {
      floor.longest = { check, ms, ownMs: own }
    }
  }
  for (const ms of accountEventsByFile.values()) floor.accountUrlsMs += ms
  floor.balanceAccounts = balanceAccounts.size
  floor.balanceAccountMs = Math.max(longestOnOne, onBalanceAccounts / Math.max(1, balanceAccounts.size))
  floor.clockGroupMs = Math.max(0, ...groupByAccount.values())
  floor.ms = Math.max(floor.longest?.ms ?? 0, floor.balanceAccountMs, floor.accountUrlsMs) + floor.clockGroupMs + floor.aloneMs
  return floor
}

export interface AreaFloor {
  area: string
  /** The area's checks' own time on loopback, added up. */
  loopbackMs: number
  /** The same checks' own time at `rttMs`, added up. */
  distantMs: number
  /** Each check's own loopback time plus its in-order rounds × `rttMs`, added up. */
  floorMs: number
}

/**
 * Per area, what distance costs its checks and what it must cost them: achieved / loopback above
 * floor / loopback is time spent waiting on something else than the check's own round trips
 * (the rate pacer, a shared lock, a loaded worker). Sums, not spans: areas run side by side.
 */
export function areaFloors(rttMs: number, loopback: CheckResult[], distant: CheckResult[]): AreaFloor[] {
  const own = (c: CheckResult) => c.durationMs - (c.balanceAccountWaitMs ?? 0)
  const near = new Map(loopback.map((c) => [c.id, own(c)]))
  return byArea(distant).map(([area, checks]) => {
    const row: AreaFloor = { area, loopbackMs: 0, distantMs: 0, floorMs: 0 }
    for (const c of checks) {
      const ms = near.get(c.id)
      if (ms === undefined) continue
      row.loopbackMs += ms
      row.distantMs += own(c)
      row.floorMs += ms + roundsOf(c) * rttMs
    }
    return row
  })
}

const ratioText = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : '—')

/**
 * How long each phase lasted (first start to last end of its checks); in the shared phase, when
 * its last side-by-side check on the main account ended (from the phase's start), how long the
 * account-events checks ran (the union of their spans, their waits for the account's URLs
 * included) and how long each balance account was held; undefined when the results carry no start times.
 */
export function phasesOf(checks: CheckResult[]): { sharedMs: number; sideBySideEndMs: number; accountUrlsMs: number; aloneMs: number; busyByBalanceAccount: Map<string, number> } | undefined {
  const spans = checks.filter((c) => c.startedAt !== undefined).map((c) => ({ c, start: Date.parse(c.startedAt as string), end: Date.parse(c.startedAt as string) + c.durationMs }))
  if (spans.length === 0) return undefined
  const span = (of: typeof spans) => (of.length === 0 ? 0 : Math.max(...of.map((s) => s.end)) - Math.min(...of.map((s) => s.start)))
  const inAlonePhase = (c: CheckResult) => c.alone !== undefined && c.alone !== ALONE.accountEvents && !c.balanceAccount
  const busyByBalanceAccount = new Map<string, number>()
  for (const { c } of spans) {
    if (!c.balanceAccountSetting) continue
    busyByBalanceAccount.set(c.balanceAccountSetting, (busyByBalanceAccount.get(c.balanceAccountSetting) ?? 0) + c.durationMs - (c.balanceAccountWaitMs ?? 0))
  }
  const shared = spans.filter((s) => !inAlonePhase(s.c))
  const sharedStart = Math.min(...shared.map((s) => s.start))
  const sideBySide = shared.filter((s) => s.c.alone === undefined)
  const sideBySideEndMs = sideBySide.length === 0 ? 0 : Math.max(...sideBySide.map((s) => s.end)) - sharedStart
  return { sharedMs: span(shared), sideBySideEndMs, accountUrlsMs: unionMs(spans.filter((s) => s.c.alone === ALONE.accountEvents)), aloneMs: span(spans.filter((s) => inAlonePhase(s.c))), busyByBalanceAccount }
}

/** The time covered by any of `spans`. */
function unionMs(spans: { start: number; end: number }[]): number {
  let total = 0
  let open: { start: number; end: number } | undefined
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    if (open && s.start <= open.end) open.end = Math.max(open.end, s.end)
    else {
      if (open) total += open.end - open.start
      open = { ...s }
    }
  }
  return total + (open ? open.end - open.start : 0)
}

function byArea(checks: CheckResult[]): [string, CheckResult[]][] {
  const areas = new Map<string, CheckResult[]>()
  for (const c of checks) areas.set(c.area, [...(areas.get(c.area) ?? []), c])
  return [...areas].sort(([a], [b]) => a.localeCompare(b))
}

const requestsOf = (c: CheckResult) => c.traffic?.requests ?? 0
const roundsOf = (c: CheckResult) => c.traffic?.rounds ?? 0
const nameOf = (c: CheckResult) => `${c.file} › ${c.title}`
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0)
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function maxBy<T>(xs: T[], key: (x: T) => number): T | undefined {
  return xs.reduce<T | undefined>((best, x) => (best === undefined || key(x) > key(best) ? x : best), undefined)
}

function proxyText(atProxy: Record<Api, number>): string {
  return `${atProxy.base + atProxy.gateway + atProxy.control} at the proxy (base ${atProxy.base}, gateway ${atProxy.gateway}, control ${atProxy.control})`
}
