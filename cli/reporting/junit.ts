// junit.xml for CI (docs/ARCHITECTURE.md "Reports"): one <testsuite> per area, one <testcase> per check,
// each carrying its clause ids as <property name="clause">. Written from results.json so a merged
// report gets the same file as a single run.

import { firstLine } from './text.ts'
import { blockingFailures } from './severity.ts'
import type { CheckResult, GateOutcome, Results } from './types.ts'
import { exchangeTraceparent, traceIdOfCheck } from './trace.ts'

// The counts of every suite are those of its <failure>, <error> and <skipped> elements, so a CI
// system reading them says what the exit code says: a failure a waiver in force excuses, or one
// --fail-on lets through, is a <skipped> with its message; each gate of the verdict is a testcase
// of the suite "gates", failed when not met.
export function renderJunit(results: Results): string {
  const blocking = new Set(blockingFailures(results, results.verdict.failOn?.severities))
  const outcome = (c: CheckResult): Outcome => outcomeOf(c, blocking, results.verdict.failOn?.severities)
  const suites = results.areas.map((a) => a.area).map((area) => testsuite(area, results.checks.filter((c) => c.area === area), results.finishedAt, outcome))
  const gates = results.verdict.gates ?? []
  const errors = results.errors.map((e, i) => errorCase(e, i))
  const outcomes = results.checks.map(outcome)
  const failures = outcomes.filter((o) => o === 'failure').length + gates.filter((g) => !g.passed).length
  const skipped = outcomes.filter((o) => o !== 'failure' && o !== 'ok').length
  const time = seconds(Date.parse(results.finishedAt) - Date.parse(results.startedAt))
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="pix-conformance ${attr(results.runId)}" tests="${results.checks.length + gates.length + errors.length}" failures="${failures}" errors="${errors.length}" skipped="${skipped}" time="${time}">`,
    `  <properties>`,
    `    ${property('result', results.verdict.headline)}`,
    `    ${property('verdict', results.verdict.label ?? results.verdict.result)}`,
    ...(results.verdict.exitCode !== undefined ? [`    ${property('exitCode', String(results.verdict.exitCode))}`] : []),
    ...gates.map((g) => `    ${property('gate', `${g.text}: ${g.passed ? 'met' : 'not met'}`)}`),
    ...(results.verdict.failOn ? [`    ${property('failOn', results.verdict.failOn.severities.join(','))}`] : []),
    ...(results.verdict.extension ? [`    ${property('extension', results.verdict.extension)}`] : []),
    `  </properties>`,
    ...suites,
    ...(gates.length > 0
      ? [`  <testsuite name="gates" tests="${gates.length}" failures="${gates.filter((g) => !g.passed).length}" errors="0" skipped="0" time="0">`, ...gates.map(gateCase), '  </testsuite>']
      : []),
    ...(errors.length > 0
      ? [`  <testsuite name="run errors" tests="${errors.length}" failures="0" errors="${errors.length}" skipped="0" time="0">`, ...errors, '  </testsuite>']
      : []),
    '</testsuites>',
    '',
  ].join('\n')
}

/** How a check shows in JUnit: ok (passed), a failure, or skipped for one of four reasons. */
type Outcome = 'ok' | 'failure' | 'waived' | 'reported' | 'skipped' | 'no-verdict'

function outcomeOf(c: CheckResult, blocking: ReadonlySet<CheckResult>, failOn: readonly string[] | undefined): Outcome {
  if (c.status === 'passed') return 'ok'
  if (c.status === 'skipped') return 'skipped'
  if (c.status === 'blocked' || c.status === 'inconclusive') return 'no-verdict'
  if (c.waiver && !c.waiver.expired) return 'waived'
  return failOn && !blocking.has(c) ? 'reported' : 'failure'
}

function testsuite(area: string, checks: CheckResult[], timestamp: string, outcome: (c: CheckResult) => Outcome): string {
  const outcomes = checks.map(outcome)
  const failed = outcomes.filter((o) => o === 'failure').length
  const skipped = outcomes.filter((o) => o !== 'failure' && o !== 'ok').length
  const time = seconds(checks.reduce((sum, c) => sum + c.durationMs, 0))
  return [
    `  <testsuite name="${attr(area)}" tests="${checks.length}" failures="${failed}" errors="0" skipped="${skipped}" time="${time}" timestamp="${attr(timestamp)}">`,
    ...checks.map((c) => testcase(c, outcome(c))),
    '  </testsuite>',
  ].join('\n')
}

function gateCase(g: GateOutcome): string {
  return [
    `    <testcase classname="gates" name="${attr(`${g.name} (${g.flag} ${g.threshold})`)}" time="0">`,
    `      <properties>`,
    `        ${property('figure', String(g.figure))}`,
    `        ${property('threshold', String(g.threshold))}`,
    `      </properties>`,
    ...(g.passed ? [] : [`      <failure message="${attr(g.text)}" type="GateNotMet">${text(g.text)}</failure>`]),
    '    </testcase>',
  ].join('\n')
}

function testcase(c: CheckResult, outcome: Outcome): string {
  const properties = [
    property('verdict', c.status),
    ...(c.failedClause ? [property('failedClause', c.failedClause)] : []),
    ...(c.severity ? [property('severity', c.severity)] : []),
    ...(c.flaky ? [property('flaky', `passed on attempt ${(c.attempts?.length ?? 0) + 1}: ${headOf(c.attempts?.[0]?.message ?? '')}`)] : []),
    ...(c.waiver ? [property('waived', `${c.waiver.reason ?? ''} (owner ${c.waiver.owner ?? '?'}, expires ${c.waiver.expires ?? '?'})`)] : []),
    ...c.clauses.map((id) => property('clause', id)),
    ...(c.property ? [property('propertyRuns', `${c.property.runs}${c.property.interrupted ? ` (interrupted: ${c.property.reason ?? ''})` : ''}`)] : []),
    ...c.needs.map((n) => property('needs', n)),
    ...(c.seed !== undefined ? [property('seed', String(c.seed))] : []),
    ...(c.replay ? [property('replay', c.replay)] : []),
    ...(c.replayCommand ? [property('replayCommand', c.replayCommand)] : []),
    ...traceProperties(c),
  ]
  const open = `    <testcase classname="${attr(c.file)}" name="${attr(c.title)}" time="${seconds(c.durationMs)}" file="${attr(c.file)}">`
  const body = [`      <properties>`, ...properties.map((p) => `        ${p}`), `      </properties>`]
  if (outcome === 'waived') {
    body.push(`      <skipped message="${attr(`waived: ${c.failedClause ?? ''} — ${c.waiver?.reason ?? ''}`)}"/>`, `      <system-out>${text(c.message ?? '')}</system-out>`)
  } else if (outcome === 'reported') {
    body.push(`      <skipped message="${attr(`reported, not gated (--fail-on): [${c.severity ?? ''}] ${headOf(c.message ?? 'failed')}`)}"/>`, `      <system-out>${text(c.message ?? '')}</system-out>`)
  } else if (c.status === 'failed') {
    const message = c.message ?? 'failed'
    body.push(`      <failure message="${attr(`${c.severity ? `[${c.severity}] ` : ''}${headOf(message)}`)}" type="${c.failedClause ? 'ClauseFailure' : 'KitError'}">${text(message)}</failure>`)
  } else if (c.status === 'skipped') {
    body.push(`      <skipped message="${attr(c.skipReason ?? 'skipped')}"/>`)
  } else if (c.status === 'blocked' || c.status === 'inconclusive') {
    body.push(`      <skipped message="${attr(`${c.status}: ${c.reason ?? ''}`)}"/>`)
  }
  return [open, ...body, '    </testcase>'].join('\n')
}

/** The check's trace id and each recorded request's traceparent. */
function traceProperties(c: CheckResult): string[] {
  const id = traceIdOfCheck(c)
  const each = (c.exchanges ?? []).map(exchangeTraceparent).filter((t): t is string => t !== undefined)
  return [...(id ? [property('traceId', id)] : []), ...each.map((t) => property('traceparent', t))]
}

function errorCase(message: string, index: number): string {
  return [
    `    <testcase classname="run" name="error ${index + 1}" time="0">`,
    `      <error message="${attr(firstLine(message))}">${text(message)}</error>`,
    '    </testcase>',
  ].join('\n')
}

function property(name: string, value: string): string {
  return `<property name="${attr(name)}" value="${attr(value)}"/>`
}

/** The clause line and the reason line: CI systems show only the message attribute. */
function headOf(message: string): string {
  return message.split('\n').slice(0, 2).join(' — ')
}

function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3)
}

// characters XML 1.0 cannot carry at all, even escaped
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g

function text(s: string): string {
  return s.replace(XML_INVALID, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

function attr(s: string): string {
  return text(s).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;')
}
