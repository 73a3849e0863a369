// Waivers keyed by clause (`--waivers FILE`): an accepted, known non-conformance does not fail the
// gate until its date. A waived check keeps its status `failed` — the evidence still shows the
// clause broken — and carries `waiver`; the run result is CONDITIONAL PASS when every failure is
// waived, an expired waiver excuses nothing (the run fails and lists it), and a waiver whose
// clause passed is reported as no longer needed.

import { readFileSync } from 'node:fs'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import type { ErrorObject } from 'ajv'
import { LineCounter, parseDocument, stringify, type Document } from 'yaml'
import { parsePointer } from '../../generators/json-pointer.ts'
import { recomputeVerdict } from './results.ts'
import type { AppliedWaiver, CheckResult, ClauseResult, Results, Waiver, WaiverOutcome } from './types.ts'
import { progress } from './progress-i18n.ts'

export class WaiverError extends Error {
  override name = 'WaiverError'
}

const DATE = '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$'

/** The one description of a waivers file; every message names the line of the entry. */
export const WAIVERS_SCHEMA = {
  type: 'object',
  required: ['waivers'],
  additionalProperties: false,
  properties: {
    waivers: {
      type: 'array',
      items: {
        type: 'object',
        required: ['clause', 'reason', 'owner', 'expires'],
        additionalProperties: false,
        properties: {
          clause: { type: 'string', minLength: 1 },
          check: { type: 'string', minLength: 1 },
          reason: { type: 'string', pattern: '\\S' },
          owner: { type: 'string', pattern: '\\S' },
          expires: { type: 'string', pattern: DATE },
          ticket: { type: 'string', minLength: 1 },
        },
      },
    },
  },
} as const

// compiled when a waivers file is read: ajv's compiler took about a third of a second of every run's start-up
let compiled: ValidateFunction | undefined
const validator = (): ValidateFunction => (compiled ??= new Ajv2020({ allErrors: true, strict: true }).compile(WAIVERS_SCHEMA))

/** Reads and validates a waivers file; `knownClauses` are the ids of specs/clauses.yaml. */
export function loadWaivers(file: string, knownClauses: Iterable<string>): Waiver[] {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (e) {
    throw new WaiverError(`--waivers: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`)
  }
  return parseWaivers(text, file, knownClauses)
}

/** Parses waivers.yaml text; throws a WaiverError listing every problem as `file:line: …`. */
export function parseWaivers(text: string, file: string, knownClauses: Iterable<string>): Waiver[] {
  const lines = new LineCounter()
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false })
  const at = (offset: number | undefined) => `${file}:${offset === undefined ? 1 : lines.linePos(offset).line}`
  if (doc.errors.length > 0) throw new WaiverError(doc.errors.map((e) => `${at(e.pos[0])}: not valid YAML (${e.message.split('\n')[0]})`).join('\n'))
  const data = doc.toJS() as unknown
  const problems: string[] = []
  const validate = validator()
  if (!validate(data)) {
    for (const error of validate.errors ?? []) problems.push(`${at(offsetOf(doc, error))}: ${describe(error)}`)
    throw new WaiverError(problems.join('\n'))
  }
  const known = new Set(knownClauses)
  const waivers = (data as { waivers: Waiver[] }).waivers.map((w, i) => ({ ...w, line: lines.linePos(offsetOf(doc, { instancePath: `/waivers/${i}` }) ?? 0).line }))
  for (const [i, w] of waivers.entries()) {
    const where = (key: string) => at(offsetOf(doc, { instancePath: `/waivers/${i}/${key}` }))
    if (!known.has(w.clause)) problems.push(`${where('clause')}: clause "${w.clause}" is not in specs/clauses.yaml`)
    if (!isRealDate(w.expires)) problems.push(`${where('expires')}: expires "${w.expires}" is not a calendar date`)
    if (w.check && !isCheckId(w.check) && !compiles(w.check)) problems.push(`${where('check')}: check "${w.check}" is neither a check id (area/file::title) nor a valid title pattern`)
  }
  if (problems.length > 0) throw new WaiverError(problems.join('\n'))
  return waivers
}

/** The start of the YAML node an ajv error points at (the entry itself for a missing key). */
function offsetOf(doc: Document, error: Pick<ErrorObject, 'instancePath'> & Partial<Pick<ErrorObject, 'keyword' | 'params'>>): number | undefined {
  const path: (string | number)[] = parsePointer(error.instancePath).map((p) => (/^\d+$/.test(p) ? Number(p) : p))
  if (error.keyword === 'additionalProperties') path.push((error.params as { additionalProperty: string }).additionalProperty)
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true)
    const range = (node as { range?: [number, number, number] } | null | undefined)?.range
    if (range) return range[0]
  }
  return undefined
}

function describe(error: ErrorObject): string {
  const field = error.instancePath.replace(/^\/waivers\/(\d+)/, (_, i: string) => `waivers[${i}]`).replace(/^\//, '').replace(/\//g, '.') || 'the file'
  switch (error.keyword) {
    case 'required': return `${field} needs "${(error.params as { missingProperty: string }).missingProperty}" (entries have clause, reason, owner, expires, and optionally check and ticket)`
    case 'additionalProperties': return `${field} has an unknown key "${(error.params as { additionalProperty: string }).additionalProperty}" (known: clause, check, reason, owner, expires, ticket)`
    case 'pattern': return /expires$/.test(field) ? `${field} must be a date YYYY-MM-DD` : `${field} must not be empty`
    case 'type': return `${field} must be ${(error.params as { type: string }).type === 'array' ? 'a list' : `a ${(error.params as { type: string }).type}`}${/expires$/.test(field) ? ' (a date YYYY-MM-DD)' : ''}`
    default: return `${field} ${error.message ?? 'is not valid'}`
  }
}

function isRealDate(date: string): boolean {
  const parsed = new Date(`${date}T00:00:00Z`)
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(date)
}

const isCheckId = (check: string) => check.includes('::')

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern)
    return true
  } catch {
    return false
  }
}

/** A check id matches exactly; anything else is a pattern matched against the titles (as --check does). */
function waiverCoversCheck(waiver: Waiver, check: CheckResult): boolean {
  if (waiver.clause !== check.failedClause) return false
  if (!waiver.check) return true
  return isCheckId(waiver.check) ? waiver.check === check.id : new RegExp(waiver.check).test(check.title)
}

/** Past its date: `expires` is the last day the waiver holds (UTC). */
export function isExpired(waiver: Waiver, today: string): boolean {
  return waiver.expires < today
}

/** `today` as YYYY-MM-DD in UTC, the form `expires` is compared with. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10)
}

/**
 * The run with its waivers applied: each failed check gets the waiver that excuses it (one in
 * force first, else an expired one, which excuses nothing), each failed clause the waiver of its
 * failures, and the verdict is recomputed (CONDITIONAL PASS when only waived failures remain).
 */
export function applyWaivers(results: Results, waivers: readonly Waiver[], today: string, file?: string): Results {
  const used = new Set<Waiver>()
  const checks = results.checks.map((check) => {
    const { waiver: _previous, ...bare } = check
    if (check.status !== 'failed' || !check.failedClause) return bare
    const matching = waivers.filter((w) => waiverCoversCheck(w, check))
    const chosen = matching.find((w) => !isExpired(w, today)) ?? matching[0]
    if (!chosen) return bare
    used.add(chosen)
    return { ...bare, waiver: { ...chosen, expired: isExpired(chosen, today) } }
  })
  const clauses = results.clauses.map((clause) => withClauseWaiver(clause, checks))
  const outcome = outcomeOf(waivers, used, checks, clauses, file)
  const { verdict: _old, ...rest } = results
  const applied = { ...rest, checks, clauses, waivers: outcome }
  return { ...applied, verdict: recomputeVerdict(applied) }
}

function withClauseWaiver(clause: ClauseResult, checks: readonly CheckResult[]): ClauseResult {
  const { waiver: _previous, ...bare } = clause
  if (clause.status !== 'failed') return bare
  const failing = checks.filter((c) => c.status === 'failed' && c.failedClause === clause.id)
  if (failing.length === 0 || failing.some((c) => !c.waiver)) return bare
  const expired = failing.find((c) => c.waiver!.expired)
  return { ...bare, waiver: (expired ?? failing[0]!).waiver! }
}

function outcomeOf(waivers: readonly Waiver[], used: ReadonlySet<Waiver>, checks: readonly CheckResult[], clauses: readonly ClauseResult[], file?: string): WaiverOutcome {
  const waived = checks.filter((c) => c.waiver).map((c) => ({ check: c.id, clause: c.failedClause!, waiver: c.waiver! }))
  const statusOf = new Map(clauses.map((c) => [c.id, c.status]))
  const idle = waivers.filter((w) => !used.has(w))
  return {
    ...(file ? { file } : {}),
    applied: waived.filter((w) => !w.waiver.expired),
    expired: waived.filter((w) => w.waiver.expired),
    noLongerNeeded: idle.filter((w) => statusOf.get(w.clause) === 'passed'),
    unused: idle.filter((w) => statusOf.get(w.clause) !== 'passed'),
  }
}

/** Console lines about the waivers: what they excused, which expired (failing the run), which can go. */
export function waiverLines(outcome: WaiverOutcome): string[] {
  const lines: string[] = []
  const source = outcome.file ? ` (${outcome.file})` : ''
  const line = (n?: number) => (n ? progress('waiver.line', { n }) : '')
  if (outcome.applied.length > 0) lines.push(progress(outcome.applied.length === 1 ? 'waiver.applied.1' : 'waiver.applied', { source, n: outcome.applied.length }))
  for (const a of outcome.applied) lines.push(`  ~ ${a.clause} · ${a.check} — ${progress('waiver.until', { owner: a.waiver.owner, expires: a.waiver.expires })}${a.waiver.ticket ? `, ${a.waiver.ticket}` : ''}`)
  if (outcome.expired.length > 0) lines.push(progress('waiver.expired', { source }))
  for (const e of outcome.expired) lines.push(`  ✗ ${e.clause} · ${e.check} — ${progress('waiver.expiredOn', { expires: e.waiver.expires })} (${e.waiver.owner}${line(e.waiver.line)})`)
  if (outcome.noLongerNeeded.length > 0) lines.push(progress('waiver.noLongerNeeded'))
  for (const w of outcome.noLongerNeeded) lines.push(`  - ${w.clause}${w.check ? ` (${w.check})` : ''}${line(w.line)}`)
  if (outcome.unused.length > 0) lines.push(progress('waiver.unused'))
  for (const w of outcome.unused) lines.push(`  · ${w.clause}${w.check ? ` (${w.check})` : ''}${line(w.line)}`)
  return lines
}


/**
 * A waivers file for every failed clause of a run (`--write-waivers FILE`): reason, owner and
 * expires are left empty, so the file is refused until someone fills them in.
 */
export function draftWaivers(results: Results): string {
  const failed = results.clauses.filter((c) => c.status === 'failed')
  const header = [
    `# Waivers drafted from run ${results.runId} (${results.target.baseUrl}).`,
    '# Fill in reason, owner and expires (YYYY-MM-DD, the last day it holds) of every entry you accept,',
    '# and delete the others; an entry with an empty field is refused. Add `check: <id or title pattern>`',
    '# to waive only some of the checks that fail a clause.',
  ]
  if (failed.length === 0) return `${header.join('\n')}\n# No clause failed in this run.\nwaivers: []\n`
  const entries = failed.map((clause) => {
    const failing = results.checks.filter((c) => c.status === 'failed' && c.failedClause === clause.id)
    const comment = [`${clause.id}: ${clause.statement}`, ...failing.map((c) => `failed by ${c.id}: ${firstReason(c)}`)]
      .map((line) => `  # ${line.replace(/\s+/g, ' ').slice(0, 200)}`)
    const body = stringify([{ clause: clause.id, reason: '', owner: '', expires: '' }], { lineWidth: 0 }).trimEnd()
    return [...comment, ...body.split('\n').map((l) => `  ${l}`)].join('\n')
  })
  return `${header.join('\n')}\nwaivers:\n${entries.join('\n')}\n`
}

/** The reason a check failed: the line after the clause line its message begins with. */
export function firstReason(check: CheckResult): string {
  const lines = (check.message ?? '').split('\n').map((l) => l.trim()).filter(Boolean)
  const first = lines[0] ?? ''
  return (check.failedClause && first.startsWith(check.failedClause) && lines[1]) || first
}

export type { AppliedWaiver, Waiver, WaiverOutcome }
