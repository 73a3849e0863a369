// Coverage of the documented behaviour: per operation, every status of specs/openapi.yaml (a range
// such as `2XX` or `4XX` too) and every row of the interface's §7 error table (statuses and gateway
// error codes), and whether the run provoked it on purpose (a check expected that refusal and got
// it), only observed it, or never saw it. Computed from results.json alone: the recorded exchanges
// and the checks' `provoked` notes. A run narrowed to some checks (--area, --file, --check, --tag)
// is measured over the operations those checks are about only.
import { loadOpenApi, operations, type OperationInfo } from '../../generators/openapi.ts'
import { readProvokedKey } from '../../harness/meta.ts'
import { operationOf } from '../../harness/routes.ts'
import type { CheckResult, DocumentedOutcome, EvidenceExchange, OperationCoverage, OutcomeCoverage, OutcomeState, Results, StatusCoverage } from './types.ts'
import { currentLang, t } from './i18n.ts'

export type { DocumentedOutcome, OperationCoverage, OutcomeCoverage, OutcomeState, StatusCoverage } from './types.ts'

const BEARER_OPS = ['getTransaction', 'listTransactions', 'listTransactionsByPixKey', 'createCashIn', 'createCashOutQrCode', 'getBalance', 'getAccountBalances', 'putCob', 'putDevolucao']
const CENTRAL_BANK_OPS = ['getAccountBalances', 'putCob', 'putDevolucao']

type Row = [operationId: string, status: number | undefined, code?: string, unprovokable?: true]

/** The §7 table of the interface, row by row, per operation it names. */
export const SECTION_7: readonly Row[] = [
  ['createCertToken', 400], ['createCertToken', 401], ['createCertToken', 403],
  ...BEARER_OPS.map((op): Row => [op, 401]),
  ...CENTRAL_BANK_OPS.map((op): Row => [op, 403]),
  ['getTransaction', 404],
  ['listTransactions', 400],
  ['putCob', 400], ['putCob', 409],
  ['putDevolucao', 400], ['putDevolucao', 404], ['putDevolucao', 422],
  ['resendWebhookV1', 400], ['resendWebhookV1', 401], ['resendWebhookV1', 404], ['resendWebhookV1', 429], ['resendWebhookV1', 500, undefined, true],
  ['getGatewayBalance', 401], ['getGatewayBalance', 403], ['getGatewayBalance', 500, undefined, true],
  ['getBuyer', 400, 'INVALID_UUID'], ['getBuyer', 401, 'UNAUTHORIZED'], ['getBuyer', 404, 'BUYER_NOT_FOUND'], ['getBuyer', 500, 'INTERNAL_SERVER_ERROR', true],
  ...['TRANSACTION_NOT_FOUND', 'TRANSACTION_NOT_REFUNDABLE', 'REFUND_PERIOD_EXPIRED', 'INSUFFICIENT_BALANCE', 'REFUND_VALUE_EXCEEDS_ORIGINAL'].map((code): Row => ['refundPayment', undefined, code]),
  ...['BOLETO_NOT_FOUND', 'BOLETO_NOT_GENERATED'].map((code): Row => ['generateBankSlipPdf', undefined, code]),
  ...['PDF_GENERATION_FAILED', 'INVALID_FORMAT', 'PDF_TOO_LARGE'].map((code): Row => ['generateBankSlipPdf', undefined, code, true]),
]

/** Every documented outcome, per operation of the OpenAPI document (§7 rows merged into its statuses). */
export function documentedOutcomes(): Map<string, DocumentedOutcome[]> {
  const doc = loadOpenApi() as { paths?: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>> }
  const byOp = new Map<string, DocumentedOutcome[]>()
  const add = (o: DocumentedOutcome) => {
    const list = byOp.get(o.operationId) ?? []
    const same = list.find((x) => x.status === o.status && x.code === o.code && x.range === o.range)
    if (same) {
      for (const s of o.sources) if (!same.sources.includes(s)) same.sources.push(s)
      if (o.unprovokable) same.unprovokable = true
    } else list.push({ ...o, sources: [...o.sources] })
    byOp.set(o.operationId, list)
  }
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item)) {
      if (!op || typeof op !== 'object' || typeof op.operationId !== 'string') continue
      for (const key of Object.keys(op.responses ?? {})) {
        if (/^\d{3}$/.test(key)) add({ operationId: op.operationId, status: Number(key), sources: ['openapi'] })
        // a server error cannot be provoked through the interface
        else if (/^[1-5]XX$/.test(key)) add({ operationId: op.operationId, range: key, sources: ['openapi'], ...(key === '5XX' ? { unprovokable: true as const } : {}) })
      }
    }
  }
  for (const [operationId, status, code, unprovokable] of SECTION_7) {
    // a coded row refines the bare status of the same operation
    const list = byOp.get(operationId) ?? []
    const bare = code !== undefined && status !== undefined ? list.findIndex((x) => x.status === status && x.code === undefined) : -1
    if (bare >= 0) list.splice(bare, 1)
    add({ operationId, ...(status !== undefined ? { status } : {}), ...(code ? { code } : {}), sources: bare >= 0 ? ['§7', 'openapi'] : ['§7'], ...(unprovokable ? { unprovokable } : {}) })
  }
  const order = (o: DocumentedOutcome) => o.status ?? (o.range ? Number(o.range[0]) * 100 + 99 : 999)
  for (const list of byOp.values()) list.sort((a, b) => order(a) - order(b) || (a.code ?? '').localeCompare(b.code ?? ''))
  return byOp
}

interface Seen {
  operationId: string
  status: number
  code?: string
  check: string
}

function codeOf(ex: EvidenceExchange): string | undefined {
  const body = ex.response?.json ?? ex.response?.body
  let parsed: unknown = body
  if (typeof body === 'string') {
    try {
      parsed = JSON.parse(body)
    } catch {
      return undefined
    }
  }
  const code = (parsed as { code?: unknown } | undefined)?.code
  return typeof code === 'string' ? code : undefined
}

/** Every answer of the target in the run's recorded exchanges, by operation. */
function observedAnswers(r: Pick<Results, 'checks' | 'target'>): Seen[] {
  const out: Seen[] = []
  for (const c of r.checks) {
    for (const ex of [...(c.exchanges ?? []), ...(c.attempts ?? []).flatMap((a) => a.exchanges)]) {
      const status = ex.response?.status ?? 0
      if (status === 0) continue
      const operationId = operationOf({ request: { method: ex.request.method, url: ex.request.url, headers: {} }, response: { status, headers: {}, body: '', durationMs: 0 } }, r.target)
      if (!operationId) continue
      const code = codeOf(ex)
      out.push({ operationId, status, ...(code ? { code } : {}), check: c.id })
    }
  }
  return out
}

/** An outcome documented by its status, by its code, or both (a range stands apart: rangeMatches). */
function matches(o: DocumentedOutcome, status: number, code: string | undefined): boolean {
  if (o.range) return false
  if (o.code !== undefined && o.code !== code) return false
  return o.status === undefined || o.status === status
}

/** A range (`4XX`) documents the statuses in it that no other outcome of the operation documents. */
function rangeMatches(o: DocumentedOutcome, all: readonly DocumentedOutcome[], status: number, code: string | undefined): boolean {
  return o.range !== undefined && Math.floor(status / 100) === Number(o.range[0]) && !all.some((x) => matches(x, status, code))
}

const answers = (o: DocumentedOutcome, all: readonly DocumentedOutcome[], status: number, code: string | undefined): boolean =>
  matches(o, status, code) || rangeMatches(o, all, status, code)

export interface CoverageSelection {
  /** The run was narrowed (--area, --file, --check, --tag): measure the operations its checks are about only. */
  narrowed: boolean
  /** The clause catalogue, for the sections of the checks' clauses. */
  sections?: ReadonlyMap<string, string>
}

export function statusCoverage(r: Pick<Results, 'checks' | 'target'>, selection: CoverageSelection = { narrowed: false }): StatusCoverage {
  const documented = documentedOutcomes()
  const seen = observedAnswers(r)
  const provoked = r.checks
    .filter((c) => c.status === 'passed' || c.status === 'failed')
    .flatMap((c) => (c.provoked ?? []).map((key) => ({ key, check: c.id })))
  const selected = selection.narrowed ? selectedOperations(r.checks, selection.sections) : undefined
  const ops: OperationCoverage[] = operations().filter((info) => !selected || selected.has(info.operationId)).map((info: OperationInfo) => {
    const own = documented.get(info.operationId) ?? []
    const outcomes = own.map((o): OutcomeCoverage => {
      const by = provoked.filter((p) => {
        const { operationId, status, code } = readProvokedKey(p.key)
        return operationId === info.operationId && answers(o, own, status, code)
      })
      if (by.length > 0) return { ...o, state: 'provoked', checks: [...new Set(by.map((p) => p.check))].slice(0, 3) }
      const observed = seen.filter((s) => s.operationId === info.operationId && answers(o, own, s.status, s.code))
      if (observed.length > 0) return { ...o, state: 'observed', checks: [...new Set(observed.map((s) => s.check))].slice(0, 3) }
      return { ...o, state: 'never-seen' }
    })
    const undocumented = [...new Set(seen.filter((s) => s.operationId === info.operationId && !own.some((o) => answers(o, own, s.status, s.code))).map((s) => s.status))].sort()
    return { operationId: info.operationId, method: info.method, path: info.path, outcomes, undocumented }
  })
  const all = ops.flatMap((o) => o.outcomes)
  const countable = all.filter((o) => !o.unprovokable)
  const seenCount = countable.filter((o) => o.state !== 'never-seen').length
  return {
    operations: ops,
    documented: all.length,
    provoked: all.filter((o) => o.state === 'provoked').length,
    observed: all.filter((o) => o.state === 'observed').length,
    neverSeen: all.filter((o) => o.state === 'never-seen').length,
    percent: countable.length === 0 ? 0 : Math.round((seenCount / countable.length) * 1000) / 10,
    ...(selected ? { selectedOperations: [...selected].sort() } : {}),
  }
}

/**
 * The operations a narrowed run's checks are about: those whose interface section (the `§4.10,
 * §2.4` of their OpenAPI summary, and the transaction shapes of §2.1 and §2.2) is the section of a
 * clause the checks name, and those a check provoked a refusal of.
 */
export function selectedOperations(checks: readonly CheckResult[], sections: ReadonlyMap<string, string> = new Map()): Set<string> {
  const bySection = operationsBySection()
  const out = new Set<string>()
  for (const c of checks) {
    for (const key of c.provoked ?? []) out.add(readProvokedKey(key).operationId)
    for (const clause of c.clauses) {
      const section = sections.get(clause) ?? sectionOfClauseId(clause)
      for (const op of bySection.get(section) ?? []) out.add(op)
    }
  }
  return out
}

/** `4.10.txid-length` → `4.10`; `0.json-bodies` → `0`. */
function sectionOfClauseId(id: string): string {
  return id.split('.').filter((part) => /^\d+$/.test(part)).join('.')
}

/** The transaction shapes of §2.1 and §2.2 name no operation in a summary: the views that answer them. */
const SHAPE_SECTIONS: Record<string, string[]> = { '2.1': ['getTransaction'], '2.2': ['listTransactions', 'listTransactionsByPixKey'] }

function operationsBySection(): Map<string, string[]> {
  const doc = loadOpenApi() as { paths?: Record<string, Record<string, { operationId?: string; summary?: string }>> }
  const out = new Map<string, string[]>(Object.entries(SHAPE_SECTIONS).map(([k, v]) => [k, [...v]]))
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item)) {
      if (!op || typeof op !== 'object' || typeof op.operationId !== 'string') continue
      for (const m of (op.summary ?? '').matchAll(/§(\d+(?:\.\d+)*)/g)) out.set(m[1]!, [...new Set([...(out.get(m[1]!) ?? []), op.operationId])])
    }
  }
  return out
}

/** The outcomes the run never saw, as `putCob 409` lines (the gaps a provider may want to provoke). */
export function neverSeen(c: StatusCoverage): string[] {
  return c.operations.flatMap((op) => op.outcomes.filter((o) => o.state === 'never-seen').map((o) => `${op.operationId} ${o.status ?? o.range ?? ''}${o.code ? ` ${o.code}` : ''}${o.unprovokable ? ` ${t('console.unprovokable')}` : ''}`.replace(/ {2}/, ' ')))
}

export function coverageLine(c: StatusCoverage): string {
  if (currentLang() !== 'en') return t('console.coverage', { of: c.selectedOperations ? t('console.coverage.of', { n: c.selectedOperations.length }) : '', seen: c.provoked + c.observed, documented: c.documented, provoked: c.provoked, observed: c.observed, percent: c.percent })
  const of = c.selectedOperations ? ` of the ${c.selectedOperations.length} operation${c.selectedOperations.length === 1 ? '' : 's'} the selected checks are about` : ''
  return `documented statuses seen${of}: ${c.provoked + c.observed}/${c.documented} (${c.provoked} provoked on purpose, ${c.observed} only observed; ${c.percent}% of those that can be provoked)`
}
