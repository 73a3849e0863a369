// The report of an observe session: one check per clause the traffic exercised (passed, or failed
// with the exchanges that broke it, redacted), written by cli/reporting/ like a certification's.
// A clause no exchange exercised gets no check: it is "not observed" (uncovered), never passed.
// The verdict is observe's own: it counts observed clauses only.
import { loadClauses } from '../../generators/clauses.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { curlOf, truncate } from '../../harness/recorder.ts'
import { Redactor, type SecretValue } from '../../harness/redact.ts'
import { buildResults } from '../reporting/results.ts'
import { kitVersion, specHash } from '../reporting/run-info.ts'
import { Scrubber } from '../reporting/scrub.ts'
import type { CheckResult, ClauseInfo, EvidenceExchange, Results, RunVerdict } from '../reporting/types.ts'
import { writeReport } from '../reporting/write.ts'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { renderHtml } from '../reporting/html.ts'
import { inLang, type Lang } from '../reporting/i18n.ts'
import { observeResultsIn } from './i18n.ts'
import type { Tally } from './verdicts.ts'

export interface SessionInfo {
  runId: string
  startedAt: string
  finishedAt: string
  baseUrl: string
  gatewayUrl: string
  command: string
  /** Where the exchanges came from: `har <file>` or `proxy <listen>`. */
  source: string
  judged: number
  unmatched: number
  errors: string[]
}

/** What results.json says of the session besides the common fields. */
export interface ObserveSummary {
  source: string
  exchanges: number
  unmatchedExchanges: number
  observedClauses: number
  failedClauses: number
  notObservedClauses: number
}

export type ObserveResults = Results & { observe: ObserveSummary }

export function buildObserveResults(tally: Tally, s: SessionInfo, repoRoot: string, secrets: SecretValue[] = []): ObserveResults {
  const redactor = new Redactor(secrets)
  const catalogue: ClauseInfo[] = loadClauses()
  const byId = new Map(catalogue.map((c) => [c.id, c]))
  const checks: CheckResult[] = tally.clauses().map((t) => {
    const clause = byId.get(t.clause)!
    const base: CheckResult = {
      id: `observe::${t.clause}`,
      title: `${t.clause}: ${clause.statement}`,
      area: `§${clause.section}`,
      file: 'cli/observe/rules.ts',
      clauses: [t.clause],
      needs: [],
      status: t.failed > 0 ? 'failed' : 'passed',
      durationMs: 0,
    }
    if (t.failed === 0) return { ...base, message: `kept on ${t.passed} observation${t.passed === 1 ? '' : 's'}` }
    const exchanges = t.failures.flatMap((f) => f.exchanges).filter((ex, i, all) => all.indexOf(ex) === i).slice(0, 10).map((ex) => evidence(ex, redactor))
    const [first, ...rest] = t.failures
    return {
      ...base,
      failedClause: t.clause,
      message: `${t.clause}: broken on ${t.failed} of ${t.failed + t.passed} observations\n${first!.why}${rest.length ? `\n+${rest.length} more` : ''}`,
      ...(rest.length ? { moreErrors: rest.map((f) => f.why) } : {}),
      exchanges,
    }
  })
  const errors = [...s.errors, ...[...tally.unknown].map((id) => `the kit named a clause that is not in specs/clauses.yaml: ${id}`)]
  const built = buildResults({
    runId: s.runId, startedAt: s.startedAt, finishedAt: s.finishedAt,
    target: { baseUrl: s.baseUrl, gatewayUrl: s.gatewayUrl, embedded: false },
    profile: 'readonly', seed: 0, kitVersion: kitVersion(repoRoot), specHash: specHash(repoRoot), command: s.command,
  }, checks, catalogue, errors)
  const failedClauses = checks.filter((c) => c.status === 'failed').length
  const observe: ObserveSummary = {
    source: s.source,
    exchanges: s.judged,
    unmatchedExchanges: s.unmatched,
    observedClauses: checks.length,
    failedClauses,
    notObservedClauses: catalogue.length - checks.length,
  }
  return { ...built, verdict: observeVerdict(observe, errors.length), observe }
}

/** `OBSERVED — 41 clauses judged on 1,203 exchanges, 0 failed`: observed clauses only. */
export function observeVerdict(o: ObserveSummary, errors: number): RunVerdict {
  const result: RunVerdict['result'] = o.failedClauses > 0 || errors > 0 ? 'FAILED' : o.observedClauses === 0 ? 'NO CHECKS RAN' : 'PASSED'
  const n = (x: number) => x.toLocaleString('en-US')
  const extra = errors > 0 ? `; ${errors} kit error${errors === 1 ? '' : 's'}` : ''
  const label = result === 'PASSED' ? 'OBSERVED' : result
  return { result, label, exitCode: result === 'PASSED' ? 0 : 1, gates: [], headline: `OBSERVED — ${n(o.observedClauses)} clause${o.observedClauses === 1 ? '' : 's'} judged on ${n(o.exchanges)} exchange${o.exchanges === 1 ? '' : 's'}, ${n(o.failedClauses)} failed (${n(o.notObservedClauses)} not observed${extra})` }
}

/** Exit code from the one verdict: 0 when no clause failed, 1 when one did or nothing was judged. */
export function exitCodeOfObserve(r: Results): 0 | 1 {
  return r.verdict.exitCode
}

/** results.json keeps the kit's English words (check ids, the headline); report.html is read in `lang`. */
export function writeObserveReport(dir: string, results: ObserveResults, secrets: SecretValue[] = [], lang: Lang = 'en'): ObserveResults {
  const scrubber = new Scrubber(secrets)
  const written = writeReport(dir, results, scrubber) as ObserveResults
  if (lang !== 'en') inLang(lang, () => writeFileSync(join(dir, 'report.html'), scrubber.text(renderHtml(observeResultsIn(lang, written), lang))))
  return written
}

function evidence(ex: Exchange, redactor: Redactor): EvidenceExchange {
  redactor.learnFrom(ex)
  const r = redactor.exchange(ex)
  const body = truncate(r.response.body)
  return {
    request: { method: r.request.method, url: r.request.url, headers: r.request.headers, ...(r.request.body !== undefined ? { body: truncate(r.request.body) } : {}) },
    response: { status: r.response.status, headers: r.response.headers, body, durationMs: r.response.durationMs, ...(r.response.error ? { error: r.response.error } : {}) },
    curl: curlOf(r),
  }
}
