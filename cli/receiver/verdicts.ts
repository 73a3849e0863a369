// From what the receiver answered, what its probe says it recorded and what the provider's request
// log shows, the checks of a receiver run, and the run's verdict with the receiver's profile:
// *verifying* (it refused every forged notification) or *trusting* (it recorded one).
import { oneLine } from '../reporting/progress.ts'
import type { CheckResult, ClauseInfo, EvidenceExchange, Results, RunVerdict } from '../reporting/types.ts'
import { paymentsOf, R, type Case } from './cases.ts'
import type { Answer, CaseRun, Transport } from './delivery.ts'
import type { ProbeRead } from './probe.ts'

const SOURCE_FILE = 'cli/receiver/cases.ts'
export const NO_PROBE_REASON = 'needs --probe-url: a URL of yours that reports what the receiver recorded (docs/RECEIVER.md, "The probe")'

type Outcome =
  | { status: 'passed'; observed?: Record<string, unknown> }
  | { status: 'failed'; clause: string; specifics: string; exchange?: EvidenceExchange }
  | { status: 'inconclusive'; reason: string }
  | { status: 'blocked'; reason: string; exchange?: EvidenceExchange }
  | { status: 'skipped'; reason: string }

export const answeredInTime = (a: Answer): boolean => a.error === undefined && a.status === 200

export function describeAnswer(a: Answer): string {
  if (a.error) return a.error
  const body = a.body.trim() ? `: ${oneLine(a.body, 120)}` : ''
  return `answered ${a.status} after ${a.durationMs} ms${body}`
}

/** The deliveries of a case: each answered 200 in time, else the step's clause fails (an abandoned one is not judged). */
export function judgeDeliveries(run: CaseRun, t: Transport): Outcome {
  if (run.c.blocked) return { status: 'blocked', reason: run.c.blocked }
  for (const [i, step] of run.c.steps.entries()) {
    const a = run.answers[i]!
    if (step.abandon || answeredInTime(a)) continue
    if (run.c.refusalInconclusive) return { status: 'inconclusive', reason: `${step.what} ${describeAnswer(a)}; ${run.c.refusalInconclusive}` }
    return { status: 'failed', clause: step.clause, specifics: `${step.what} ${describeAnswer(a)}; expected 200 within ${t.timeoutMs} ms`, exchange: run.firstExchanges[i] }
  }
  return { status: 'passed' }
}

/** The payments some delivery was answered 2xx to: the receiver says it processed them (§6). */
export function acknowledgedPayments(run: CaseRun): string[] {
  if (run.c.forgery) return []
  return [...new Set(run.c.steps.flatMap((s, i) => (run.acknowledged[i] ? s.notification.payments : [])))]
}

/**
 * What the probe says of a case's payments: each recorded exactly once, whatever the receiver
 * answered to the repeats. A payment no delivery of which was answered 2xx has no verdict.
 */
export function judgeRecorded(run: CaseRun, probe: ProbeRead): Outcome {
  if (!probe.ok) return { status: 'blocked', reason: `the probe (--probe-url) ${probe.problem}`, exchange: probe.exchange }
  const acknowledged = acknowledgedPayments(run)
  const unanswered = paymentsOf(run.c).filter((key) => !acknowledged.includes(key))
  for (const key of acknowledged) {
    const count = probe.counts.get(key) ?? 0
    if (count === 1) continue
    const deliveries = run.exchanges.filter((e) => e.request.body !== undefined && run.c.steps.some((s) => s.notification.body === e.request.body && s.notification.payments.includes(key))).length
    return {
      status: 'failed', clause: R.once, exchange: probe.exchange,
      specifics: `the probe reports payment ${key} recorded ${count} time${count === 1 ? '' : 's'} after ${deliveries} deliver${deliveries === 1 ? 'y' : 'ies'} of it; expected exactly once`,
    }
  }
  if (unanswered.length > 0) return { status: 'blocked', reason: `no delivery of payment ${unanswered.join(', ')} was answered 2xx, so the receiver need not have recorded it` }
  return { status: 'passed' }
}

/** A forged notification: whatever the receiver answered, the probe must not show its payment. */
export function judgeForged(run: CaseRun, probe: ProbeRead): Outcome {
  if (!probe.ok) return { status: 'blocked', reason: `the probe (--probe-url) ${probe.problem}`, exchange: probe.exchange }
  for (const key of paymentsOf(run.c)) {
    const count = probe.counts.get(key) ?? 0
    if (count === 0) continue
    return {
      status: 'failed', clause: R.forged, exchange: probe.exchange,
      specifics: `the probe reports payment ${key} recorded ${count} time${count === 1 ? '' : 's'}, but the provider never sent this notification: ${run.c.forgery}; a receiver that checks with the provider records nothing`,
    }
  }
  return { status: 'passed' }
}

/** Info: whether the receiver asked the provider while each forged notification was delivered. */
export function judgeAsked(forged: CaseRun[]): Outcome {
  const delivered = forged.filter((r) => !r.c.blocked)
  if (delivered.length === 0) return { status: 'skipped', reason: 'no forged notification was delivered' }
  if (delivered.some((r) => r.providerRequests === undefined)) return { status: 'skipped', reason: 'the provider keeps no request log the kit can read (GET /control/requests, optional)' }
  const observed = Object.fromEntries(delivered.map((r) => [r.c.title, (r.providerRequests ?? []).map((q) => `${q.method} ${q.path} → ${q.status}`)]))
  const asked = delivered.filter((r) => (r.providerRequests ?? []).length > 0).length
  return { status: 'passed', observed: { askedTheProvider: `${asked} of ${delivered.length} forged notifications`, requestsWhileDelivered: observed } }
}

interface CheckPlace {
  id: string
  title: string
  area: string
  clauses: string[]
  needs: string[]
}

export interface CheckContext {
  catalogue: Map<string, ClauseInfo>
  seed: number
  command: string
}

function checkOf(place: CheckPlace, run: Pick<CaseRun, 'durationMs' | 'exchanges'>, outcome: Outcome, ctx: CheckContext): CheckResult {
  const base: CheckResult = {
    ...place, file: SOURCE_FILE, status: outcome.status, durationMs: run.durationMs, seed: ctx.seed, replayCommand: ctx.command, exchanges: run.exchanges,
  }
  switch (outcome.status) {
    case 'passed': return outcome.observed ? { ...base, observed: { [place.clauses[0]!]: outcome.observed } } : base
    case 'inconclusive': return { ...base, reason: outcome.reason }
    case 'skipped': return { ...base, skipReason: outcome.reason }
    case 'blocked': return { ...base, reason: outcome.reason, exchanges: [...run.exchanges, ...(outcome.exchange ? [outcome.exchange] : [])] }
    case 'failed': {
      const statement = ctx.catalogue.get(outcome.clause)?.statement
      const evidence = outcome.exchange ? [outcome.exchange, ...run.exchanges.filter((e) => e !== outcome.exchange)] : run.exchanges
      return { ...base, failedClause: outcome.clause, message: `${outcome.clause}${statement ? ` — ${statement}` : ''}\n${outcome.specifics}`, exchanges: evidence }
    }
  }
}

/** A case's checks: its deliveries, and with a probe what the receiver recorded of its payments. */
export function checksOf(run: CaseRun, t: Transport, probe: ProbeRead | undefined, ctx: CheckContext): CheckResult[] {
  const c = run.c
  if (c.forgery || (c.blocked && c.area === 'forgeries')) {
    const place = { id: `receiver/forgeries::${c.title}`, title: c.title, area: 'forgeries', clauses: [R.forged], needs: ['probe-url'] }
    const outcome: Outcome = c.blocked ? { status: 'blocked', reason: c.blocked } : probe ? judgeForged(run, probe) : { status: 'skipped', reason: NO_PROBE_REASON }
    return [checkOf(place, run, outcome, ctx)]
  }
  const deliveries = checkOf({ id: `receiver/${c.area}::${c.title}`, title: c.title, area: c.area, clauses: clausesOf(c), needs: [] }, run, judgeDeliveries(run, t), ctx)
  if (!probe || paymentsOf(c).length === 0) return [deliveries]
  const title = `${c.title}: each payment recorded once`
  return [deliveries, checkOf({ id: `receiver/recorded::${title}`, title, area: 'recorded', clauses: [R.once], needs: ['probe-url'] }, run, judgeRecorded(run, probe), ctx)]
}

function clausesOf(c: Case): string[] {
  return c.steps.length ? [...new Set(c.steps.map((s) => s.clause))] : [R.ack]
}

/** The info check on the provider's request log while the forged notifications were delivered. */
export function askedCheck(runs: CaseRun[], ctx: CheckContext): CheckResult {
  const forged = runs.filter((r) => r.c.area === 'forgeries')
  const place = { id: 'receiver/forgeries::asked the provider about the forged notifications', title: 'asked the provider about the forged notifications', area: 'forgeries', clauses: [R.asked], needs: [] }
  return checkOf(place, { durationMs: 0, exchanges: [] }, judgeAsked(forged), ctx)
}

export function probeSkippedCheck(ctx: CheckContext): CheckResult {
  return {
    id: 'receiver/recorded::each payment recorded exactly once', title: 'each payment recorded exactly once', area: 'recorded', file: SOURCE_FILE,
    clauses: [R.once], needs: ['probe-url'], status: 'skipped', durationMs: 0, seed: ctx.seed, skipReason: NO_PROBE_REASON,
  }
}

export type ReceiverProfile = 'verifying' | 'trusting' | 'undetermined'

/**
 * trusting: it recorded a forgery; verifying: it refused every forgery and recorded the genuine
 * payments (a receiver that records nothing refuses forgeries too, and is not verifying);
 * undetermined: either was not judged.
 */
export function receiverProfile(r: Pick<Results, 'clauses'>): ReceiverProfile {
  const status = (id: string) => r.clauses.find((c) => c.id === id)?.status
  if (status(R.forged) === 'failed') return 'trusting'
  return status(R.forged) === 'passed' && status(R.once) === 'passed' ? 'verifying' : 'undetermined'
}

const PROFILE_WORDS: Record<ReceiverProfile, string> = {
  verifying: 'verifying receiver (it refused every forged notification)',
  trusting: 'trusting receiver (it recorded a notification the provider never sent)',
  undetermined: 'profile undetermined (the forged notifications, or the recording of the genuine ones, were not judged)',
}

/** `PASSED — verifying receiver (…) — 9 of 9 receiver clauses verified`, and the like. */
export function receiverVerdict(r: Omit<Results, 'verdict'>): RunVerdict {
  const must = r.clauses.filter((c) => c.level === 'must')
  const verified = must.filter((c) => c.status === 'passed').length
  const result: RunVerdict['result'] =
    r.summary.failed > 0 || r.errors.length > 0 ? 'FAILED'
    : r.summary.total === 0 ? 'NO CHECKS RAN'
    : r.summary.blocked > 0 || r.summary.inconclusive > 0 ? 'INCOMPLETE'
    : 'PASSED'
  const why: string[] = []
  const failed = must.filter((c) => c.status === 'failed').map((c) => c.id)
  if (failed.length) why.push(`${failed.join(', ')} failed`)
  const count = (status: string) => must.filter((c) => c.status === status).length
  if (count('not-reached')) why.push(`${count('not-reached')} not reached`)
  if (count('inconclusive')) why.push(`${count('inconclusive')} inconclusive`)
  if (count('blocked')) why.push(`${count('blocked')} blocked`)
  if (count('skipped')) why.push(`${count('skipped')} need --probe-url`)
  if (count('uncovered')) why.push(`${count('uncovered')} without a check`)
  const profile = PROFILE_WORDS[receiverProfile(r)]
  return { result, label: result, exitCode: result === 'FAILED' ? 1 : 0, gates: [], headline: `${result} — ${profile} — ${verified} of ${must.length} receiver clauses verified${why.length ? ` (${why.join('; ')})` : ''}` }
}
