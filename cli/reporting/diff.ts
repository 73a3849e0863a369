// Run diffs (`--compare OLD`, `pix-conformance diff OLD NEW`): what changed since an earlier run,
// clause by clause — newly failed, newly passing, a failure or a missing verdict for a different
// reason, newly skipped or blocked — with loud warnings when the two runs are not comparable
// (another kit, other specs, another profile or depth). It also lists what changed in the observed
// profile (the target's choices where the interface says "not shown"): information, never a
// regression, so it neither fails the diff nor counts as a verdict change.

import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { esc } from './text.ts'
import type { CheckResult, ClauseResult, ClauseStatus, Results } from './types.ts'
import { firstReason } from './waivers.ts'
import { currentLang, statementIn, word } from './i18n.ts'
import { diffKindIn, diffWarningIn, progress } from './progress-i18n.ts'

export class DiffError extends Error {
  override name = 'DiffError'
}

export type ChangeKind = 'newly-failed' | 'newly-passing' | 'changed-reason' | 'newly-skipped' | 'newly-blocked' | 'newly-inconclusive' | 'other'

export interface ClauseChange {
  clause: string
  statement: string
  kind: ChangeKind
  before: ClauseStatus
  after: ClauseStatus
  /** Why the clause has its verdict: the failure's reason line, or the block or skip reason. */
  beforeReason?: string
  afterReason?: string
  /** The checks that decide the verdict in the newer run (the failing ones when it failed). */
  checks: string[]
  /** The newer run's waiver of this failure, when one holds. */
  waived?: boolean
}

export interface RunDiff {
  old: { runId: string; startedAt: string }
  new: { runId: string; startedAt: string }
  /** Differences that make the comparison unreliable (kit version, specs, profile, depth, target, scope). */
  warnings: string[]
  changes: ClauseChange[]
  /** Observations (results.observedProfile) added, removed or changed: information, not regressions. */
  observations: ObservationChange[]
}

export interface ObservationChange {
  /** The not-shown clause the observation belongs to. */
  clause: string
  key: string
  change: 'added' | 'removed' | 'changed'
  before?: unknown
  after?: unknown
}

/**
 * Timings (fields named …Ms) vary from run to run by themselves: two readings count as the same
 * observation when they are within this share of each other, or within TIMING_SLACK_MS.
 */
const TIMING_TOLERANCE = 0.25
const TIMING_SLACK_MS = 50

/** The order changes are shown in: the news that fails a gate first. */
export const CHANGE_KINDS: readonly ChangeKind[] = ['newly-failed', 'changed-reason', 'newly-blocked', 'newly-inconclusive', 'newly-skipped', 'other', 'newly-passing']

const KIND_TITLES: Record<ChangeKind, string> = {
  'newly-failed': 'newly failed',
  'changed-reason': 'failing or without a verdict for a different reason',
  'newly-blocked': 'newly blocked',
  'newly-inconclusive': 'newly inconclusive',
  'newly-skipped': 'newly skipped',
  other: 'other verdict changes',
  'newly-passing': 'newly passing',
}

export function diffResults(before: Results, after: Results): RunDiff {
  const oldClauses = new Map(before.clauses.map((c) => [c.id, c]))
  const newClauses = new Map(after.clauses.map((c) => [c.id, c]))
  const ids = [...new Set([...oldClauses.keys(), ...newClauses.keys()])]
  const order = new Map(after.clauses.map((c, i) => [c.id, i]))
  ids.sort((a, b) => (order.get(a) ?? Infinity) - (order.get(b) ?? Infinity) || a.localeCompare(b))
  const changes = ids
    .map((id) => clauseChange(id, oldClauses.get(id), before.checks, newClauses.get(id), after.checks))
    .filter((c): c is ClauseChange => c !== undefined)
  return {
    old: { runId: before.runId, startedAt: before.startedAt },
    new: { runId: after.runId, startedAt: after.startedAt },
    warnings: comparabilityWarnings(before, after),
    changes,
    observations: observationChanges(before.observedProfile ?? {}, after.observedProfile ?? {}),
  }
}

type Profile = NonNullable<Results['observedProfile']>

/** Every (clause, key) observed in either run whose value differs, in the newer run's order. */
export function observationChanges(before: Profile, after: Profile): ObservationChange[] {
  const changes: ObservationChange[] = []
  const clauses = [...new Set([...Object.keys(after), ...Object.keys(before)])]
  for (const clause of clauses) {
    const was = before[clause] ?? {}
    const is = after[clause] ?? {}
    for (const key of [...new Set([...Object.keys(is), ...Object.keys(was)])]) {
      const inOld = Object.hasOwn(was, key)
      const inNew = Object.hasOwn(is, key)
      if (inOld && inNew && sameObservation(was[key], is[key])) continue
      const change = !inOld ? 'added' : !inNew ? 'removed' : 'changed'
      changes.push({ clause, key, change, ...(inOld ? { before: was[key] } : {}), ...(inNew ? { after: is[key] } : {}) })
    }
  }
  return changes
}

/** Deep equality, except that timings (numbers under a key ending in Ms) need only be close. */
function sameObservation(a: unknown, b: unknown, timing = false): boolean {
  if (timing && typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= Math.max(TIMING_SLACK_MS, TIMING_TOLERANCE * Math.max(Math.abs(a), Math.abs(b)))
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameObservation(v, b[i], timing))
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a)
    if (keys.length !== Object.keys(b).length) return false
    return keys.every((k) => Object.hasOwn(b, k) && sameObservation(a[k], b[k], timing || /Ms$/.test(k)))
  }
  return isDeepStrictEqual(a, b)
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

function clauseChange(id: string, was: ClauseResult | undefined, oldChecks: readonly CheckResult[], is: ClauseResult | undefined, newChecks: readonly CheckResult[]): ClauseChange | undefined {
  const before = was?.status ?? 'uncovered'
  const after = is?.status ?? 'uncovered'
  const beforeReason = reasonOf(id, before, oldChecks)
  const afterReason = reasonOf(id, after, newChecks)
  const kind = changeKind(before, after, beforeReason, afterReason)
  if (!kind) return undefined
  return {
    clause: id,
    statement: (is ?? was)!.statement,
    kind,
    before,
    after,
    ...(beforeReason !== undefined ? { beforeReason } : {}),
    ...(afterReason !== undefined ? { afterReason } : {}),
    checks: decidingChecks(id, after, newChecks).map((c) => c.id),
    ...(is?.waiver && !is.waiver.expired ? { waived: true } : {}),
  }
}

function changeKind(before: ClauseStatus, after: ClauseStatus, beforeReason?: string, afterReason?: string): ChangeKind | undefined {
  if (before === after) return beforeReason !== afterReason && after !== 'passed' ? 'changed-reason' : undefined
  if (after === 'failed') return 'newly-failed'
  if (after === 'passed') return 'newly-passing'
  if (after === 'skipped') return 'newly-skipped'
  if (after === 'blocked') return 'newly-blocked'
  if (after === 'inconclusive') return 'newly-inconclusive'
  return 'other'
}

/** The checks whose verdict on the clause is the clause's verdict. */
function decidingChecks(id: string, status: ClauseStatus, checks: readonly CheckResult[]): CheckResult[] {
  return checks
    .filter((c) => c.clauses.includes(id) && verdictOn(c, id) === status)
    .sort((a, b) => a.id.localeCompare(b.id))
}

function verdictOn(check: CheckResult, clause: string): string {
  if (check.clauseVerdicts?.[clause]) return check.clauseVerdicts[clause]
  return check.status === 'failed' && check.failedClause !== clause ? 'not-reached' : check.status
}

/** The first deciding check's reason (the reason line of its failure, or why it had no verdict). */
function reasonOf(id: string, status: ClauseStatus, checks: readonly CheckResult[]): string | undefined {
  const first = decidingChecks(id, status, checks)[0]
  if (!first) return undefined
  const reason = status === 'failed' ? firstReason(first) : status === 'skipped' ? first.skipReason : status === 'blocked' || status === 'inconclusive' ? first.reason : undefined
  return reason?.split('\n')[0]?.trim() || undefined
}

function comparabilityWarnings(before: Results, after: Results): string[] {
  const warnings: string[] = []
  const differ = (what: string, a: unknown, b: unknown) => {
    if (a !== b) warnings.push(`${what} differs: ${String(a ?? '(none)')} then ${String(b ?? '(none)')}`)
  }
  differ('kit version', before.kitVersion, after.kitVersion)
  if (before.specHash !== after.specHash) warnings.push(`specs differ (interface hash ${before.specHash.slice(0, 12)} then ${after.specHash.slice(0, 12)}): clause verdicts may not mean the same thing`)
  differ('profile', before.profile, after.profile)
  differ('depth', depthText(before), depthText(after))
  const sameTarget = (before.target.embedded && after.target.embedded) || (before.target.baseUrl === after.target.baseUrl && before.target.gatewayUrl === after.target.gatewayUrl)
  if (!sameTarget) warnings.push(`target differs: ${before.target.baseUrl} then ${after.target.baseUrl}`)
  differ('scope (--area/--file)', before.scope?.join(',') ?? 'all', after.scope?.join(',') ?? 'all')
  return warnings
}

function depthText(r: Results): string | undefined {
  if (r.depth) return r.depth.numRunsExplicit ? `--num-runs ${r.numRuns ?? '?'}` : r.depth.profile
  return r.numRuns !== undefined ? `--num-runs ${r.numRuns}` : undefined
}

const changesOf = (diff: RunDiff, kind: ChangeKind) => diff.changes.filter((c) => c.kind === kind)

/** The console text, printed before the run's own summary. */
export function diffText(diff: RunDiff): string {
  const lines = [progress('diff.since', { run: diff.old.runId, at: diff.old.startedAt })]
  for (const w of diff.warnings) lines.push(`  ⚠ ${progress('diff.warning', { text: diffWarningIn(w) })}`)
  if (diff.changes.length === 0) lines.push(progress('diff.none'))
  const extension = (c: ClauseChange) => c.clause.startsWith('x-')
  lines.push(...kindGroups(diff.changes.filter((c) => !extension(c))))
  const extensionChanges = diff.changes.filter(extension)
  if (extensionChanges.length > 0) {
    lines.push(progress('diff.extension', { namespaces: [...new Set(extensionChanges.map((c) => c.clause.split('.')[0]))].join(', ') }))
    lines.push(...kindGroups(extensionChanges))
  }
  if (diff.observations.length > 0) {
    lines.push(progress('diff.observations', { n: diff.observations.length }))
    for (const o of diff.observations) lines.push(`    · ${o.clause} ${o.key}: ${observationText(o)}`)
  }
  return lines.join('\n')
}

/** Changes by kind, the most urgent first. */
function kindGroups(changes: readonly ClauseChange[]): string[] {
  return CHANGE_KINDS.flatMap((kind) => {
    const group = changes.filter((c) => c.kind === kind)
    return group.length === 0 ? [] : [`  ${diffKindIn(kind, KIND_TITLES[kind])} (${group.length}):`, ...group.flatMap(changeLines)]
  })
}

function observationText(o: ObservationChange): string {
  const show = (v: unknown) => clip(JSON.stringify(v) ?? 'undefined', 120)
  if (o.change === 'added') return progress('diff.added', { value: show(o.after) })
  if (o.change === 'removed') return progress('diff.removed', { value: show(o.before) })
  return `${show(o.before)} → ${show(o.after)}`
}

function changeLines(c: ClauseChange): string[] {
  const mark = c.kind === 'newly-passing' ? '✓' : c.kind === 'newly-failed' ? '✗' : '~'
  const lines = [`    ${mark} ${c.clause}  ${word('status', c.before)} → ${word('status', c.after)}${c.waived ? progress('diff.waived') : ''} · ${clip(statementIn(currentLang(), { id: c.clause, statement: c.statement }), 100)}`]
  if (c.kind === 'changed-reason') {
    lines.push(`        ${progress('diff.was', { reason: clip(c.beforeReason ?? progress('diff.noReason'), 200) })}`, `        ${progress('diff.now', { reason: clip(c.afterReason ?? progress('diff.noReason'), 200) })}`)
  } else if (c.afterReason) {
    lines.push(`        ${clip(c.afterReason, 200)}`)
  }
  return lines
}

function clip(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

/** A section for the top of report.html (self-contained markup; classes `diff`, `diff-warning`, `diff-<kind>`). */
export function diffHtml(diff: RunDiff): string {
  const warnings = diff.warnings.map((w) => `<p class="diff-warning"><strong>Warning:</strong> ${esc(w)}</p>`).join('\n')
  const groups = CHANGE_KINDS.map((kind) => {
    const group = changesOf(diff, kind)
    if (group.length === 0) return ''
    const rows = group.map((c) => `<tr><td><code>${esc(c.clause)}</code></td><td>${esc(c.before)} → ${esc(c.after)}${c.waived ? ' (waived)' : ''}</td><td>${esc(c.statement)}</td><td>${
      c.kind === 'changed-reason' ? `was: ${esc(c.beforeReason ?? '(none)')}<br>now: ${esc(c.afterReason ?? '(none)')}` : esc(c.afterReason ?? '')
    }</td></tr>`)
    return `<h3 class="diff-${kind}">${esc(KIND_TITLES[kind])} (${group.length})</h3>\n<table><thead><tr><th>clause</th><th>verdict</th><th>statement</th><th>reason</th></tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>`
  }).filter(Boolean)
  return [
    `<section class="diff" id="changes">`,
    `<h2>Changes since ${esc(diff.old.runId)} <small>(${esc(diff.old.startedAt)})</small></h2>`,
    warnings,
    groups.length === 0 ? '<p>No clause changed its verdict.</p>' : groups.join('\n'),
    observationsHtml(diff.observations),
    `</section>`,
  ].filter(Boolean).join('\n')
}

function observationsHtml(observations: readonly ObservationChange[]): string {
  if (observations.length === 0) return ''
  const cell = (v: unknown, present: boolean) => (present ? `<code>${esc(JSON.stringify(v) ?? 'undefined')}</code>` : '—')
  const rows = observations.map((o) => `<tr><td><code>${esc(o.clause)}</code></td><td>${esc(o.key)}</td><td>${cell(o.before, o.change !== 'added')}</td><td>${cell(o.after, o.change !== 'removed')}</td></tr>`)
  return [
    `<h3 class="diff-observations">Observations changed (${observations.length}): information, not regressions</h3>`,
    `<table><thead><tr><th>clause</th><th>observation</th><th>before</th><th>now</th></tr></thead><tbody>`,
    ...rows,
    `</tbody></table>`,
  ].join('\n')
}

/**
 * A `<testsuite name="changes since …">` to add to junit.xml's `<testsuites>` (indented to match):
 * one testcase per changed clause, a failure for each newly failed one.
 */
export function diffJunitSuite(diff: RunDiff): string {
  const failed = changesOf(diff, 'newly-failed').length
  const cases = diff.changes.map((c) => {
    const open = `    <testcase classname="changes" name="${xml(`${c.clause}: ${c.before} → ${c.after}`)}" time="0">`
    const props = [`      <properties>`, `        <property name="clause" value="${xml(c.clause)}"/>`, `        <property name="change" value="${xml(c.kind)}"/>`, `      </properties>`]
    const failure = c.kind === 'newly-failed' ? [`      <failure message="${xml(`${c.clause} newly failed: ${c.afterReason ?? ''}`)}" type="NewlyFailed">${xml(c.statement)}</failure>`] : []
    return [open, ...props, ...failure, '    </testcase>'].join('\n')
  })
  const warnings = diff.warnings.map((w) => `      <property name="warning" value="${xml(w)}"/>`)
  return [
    `  <testsuite name="${xml(`changes since ${diff.old.runId}`)}" tests="${diff.changes.length}" failures="${failed}" errors="0" skipped="0" time="0">`,
    ...(warnings.length ? ['    <properties>', ...warnings.map((w) => `  ${w}`), '    </properties>'] : []),
    ...cases,
    '  </testsuite>',
  ].join('\n')
}

/** The same suite as a document of its own (`changes.xml`). */
export function diffJunit(diff: RunDiff): string {
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<testsuites name="pix-conformance changes">', diffJunitSuite(diff), '</testsuites>', ''].join('\n')
}

function xml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!)
}

/**
 * Puts the diff into a written report folder: its section first in report.html's <main>, its
 * suite last in junit.xml. `scrub` is the run's Scrubber.text (the texts quote failure reasons).
 */
export function addDiffToReport(runDir: string, diff: RunDiff, scrub: (text: string) => string = (t) => t): void {
  const html = join(runDir, 'report.html')
  const junit = join(runDir, 'junit.xml')
  writeFileSync(html, readFileSync(html, 'utf8').replace('<main>\n', () => `<main>\n${scrub(diffHtml(diff))}\n`))
  writeFileSync(junit, readFileSync(junit, 'utf8').replace(/<\/testsuites>\s*$/, () => `${scrub(diffJunitSuite(diff))}\n</testsuites>\n`))
}

/** Reads `<dir>/results.json`, or the file itself. */
export function readResultsFile(dirOrFile: string, flag = 'diff'): Results {
  const file = existsSync(dirOrFile) && statSync(dirOrFile).isDirectory() ? join(dirOrFile, 'results.json') : dirOrFile
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'))
  } catch (e) {
    const err = e as NodeJS.ErrnoException
    throw new DiffError(`${flag}: ${err.code === 'ENOENT' ? `no results.json at ${dirOrFile}` : `${file} is not readable JSON (${err.message})`}`)
  }
  const r = parsed as Partial<Results> | null
  if (!r || typeof r.runId !== 'string' || !Array.isArray(r.checks) || !Array.isArray(r.clauses) || !r.target) {
    throw new DiffError(`${flag}: ${file} is not a conformance results.json`)
  }
  return r as Results
}

/** The `diff OLD NEW` subcommand: the text to print, and exit 1 when a clause newly failed. */
export function runDiff(oldFile: string, newFile: string): { text: string; exitCode: 0 | 1; diff: RunDiff } {
  const diff = diffResults(readResultsFile(oldFile), readResultsFile(newFile))
  return { text: diffText(diff), exitCode: changesOf(diff, 'newly-failed').length > 0 ? 1 : 0, diff }
}
