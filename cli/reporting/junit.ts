// junit.xml for CI (ARCHITECTURE.md "Reports"): one <testsuite> per area, one <testcase> per check,
// each carrying its clause ids as <property name="clause">. Written from results.json so a merged
// report gets the same file as a single run.

import { firstLine } from './text.ts'
import type { CheckResult, Results } from './types.ts'
import { exchangeTraceparent, traceIdOfCheck } from './trace.ts'

export function renderJunit(results: Results): string {
  const areas = results.areas.map((a) => a.area)
  const suites = areas.map((area) => testsuite(area, results.checks.filter((c) => c.area === area), results.finishedAt))
  const errors = results.errors.map((e, i) => errorCase(e, i))
  const s = results.summary
  const time = seconds(Date.parse(results.finishedAt) - Date.parse(results.startedAt))
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="pix-conformance ${attr(results.runId)}" tests="${s.total + errors.length}" failures="${s.failed}" errors="${errors.length}" skipped="${s.skipped + s.blocked + s.inconclusive}" time="${time}">`,
    `  <properties>`,
    `    ${property('result', results.verdict.headline)}`,
    ...(results.verdict.extension ? [`    ${property('extension', results.verdict.extension)}`] : []),
    `  </properties>`,
    ...suites,
    ...(errors.length > 0
      ? [`  <testsuite name="run errors" tests="${errors.length}" failures="0" errors="${errors.length}" skipped="0" time="0">`, ...errors, '  </testsuite>']
      : []),
    '</testsuites>',
    '',
  ].join('\n')
}

function testsuite(area: string, checks: CheckResult[], timestamp: string): string {
  const failed = checks.filter((c) => c.status === 'failed').length
  const skipped = checks.filter((c) => c.status === 'skipped' || c.status === 'blocked' || c.status === 'inconclusive').length
  const time = seconds(checks.reduce((sum, c) => sum + c.durationMs, 0))
  return [
    `  <testsuite name="${attr(area)}" tests="${checks.length}" failures="${failed}" errors="0" skipped="${skipped}" time="${time}" timestamp="${attr(timestamp)}">`,
    ...checks.map(testcase),
    '  </testsuite>',
  ].join('\n')
}

function testcase(c: CheckResult): string {
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
  if (c.status === 'failed' && c.waiver && !c.waiver.expired) {
    body.push(`      <skipped message="${attr(`waived: ${c.failedClause ?? ''} — ${c.waiver.reason ?? ''}`)}"/>`, `      <system-out>${text(c.message ?? '')}</system-out>`)
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
