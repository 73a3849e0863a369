// One word per run: for every gate (--require-coverage, --require-verified, --fail-on, waivers,
// flaky and --fail-on-flaky, missing shards, nothing run) met and not met, the verdict decides the
// exit code, and every output says the same: the console's last line, results.json, junit.xml,
// report.html, the action's outputs and step summary, and the monitor's run outcome.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { parseArgs } from '../../../cli/args.ts'
import { outcomeOf } from '../../../cli/monitor/loop.ts'
import { mergeResults } from '../../../cli/reporting/merge.ts'
import { paint, summaryText } from '../../../cli/reporting/progress.ts'
import { buildResults } from '../../../cli/reporting/results.ts'
import { Scrubber } from '../../../cli/reporting/scrub.ts'
import type { CheckResult, ClauseInfo, Results } from '../../../cli/reporting/types.ts'
import { applyWaivers, parseWaivers } from '../../../cli/reporting/waivers.ts'
import { writeReport } from '../../../cli/reporting/write.ts'
import { gateSettingsOf } from '../../../cli/certify/run-extras.ts'
// @ts-expect-error: a plain .mjs module of the action, without types
import { actionOutputs, stepSummary } from '../../../scripts/action-outputs.mjs'
import { check, runInfo } from './fixtures.ts'

const CATALOGUE: ClauseInfo[] = [
  { id: '7.bearer-missing-token-401', section: '7', statement: 'no token: 401', testability: 'black-box', level: 'must', severity: 'security' },
  { id: '2.3.net-equals-available', section: '2.3', statement: 'net equals available', testability: 'black-box', level: 'must', severity: 'money' },
  { id: '4.2.token-type', section: '4.2', statement: 'token_type is Bearer', testability: 'black-box', level: 'must', severity: 'data' },
  { id: '4.2.expires-default', section: '4.2', statement: 'expires_in defaults to 3600', testability: 'black-box', level: 'must', severity: 'data' },
]
const ALL = CATALOGUE.map((c) => c.id)

const passing = (clause: string) => check({ id: `auth/x::${clause}`, clauses: [clause], status: 'passed' })
const failing = (clause: string) => check({ id: `auth/x::${clause} broken`, clauses: [clause], status: 'failed', failedClause: clause, message: `${clause} — broken\nexpected a, got b` })
const everyPassing = ALL.map(passing)
const flaky = { ...passing('4.2.token-type'), flaky: true, attempts: [{ message: '4.2.token-type — broken\nfirst attempt', exchanges: [] }] }
const waivers = (expires: string) => parseWaivers(`waivers:\n  - clause: 4.2.token-type\n    reason: known\n    owner: team\n    expires: ${expires}\n`, 'w.yaml', ALL)

interface Case {
  name: string
  argv?: string[]
  checks: CheckResult[]
  waiversExpire?: string
  missingShards?: string[]
  shard?: string
  result: Results['verdict']['result']
  label: string
  exitCode: 0 | 1
  /** What the headline says after the label (the failed gate with its figure, what --fail-on let through). */
  says?: RegExp
}

const CASES: Case[] = [
  { name: 'no gate, every check passed', checks: everyPassing, result: 'PASSED', label: 'PASSED', exitCode: 0 },
  { name: 'no gate, a check failed', checks: [...everyPassing, failing('4.2.token-type')], result: 'FAILED', label: 'FAILED', exitCode: 1 },
  { name: '--require-coverage not met', argv: ['--require-coverage', '90'], checks: everyPassing, result: 'FAILED', label: 'FAILED (gate)', exitCode: 1, says: /^FAILED \(gate\) — status coverage 0% < 90% \(--require-coverage\); 4 of 4 must clauses verified$/ },
  { name: '--require-coverage met', argv: ['--require-coverage', '0'], checks: everyPassing, result: 'PASSED', label: 'PASSED', exitCode: 0 },
  { name: '--require-verified not met', argv: ['--require-verified', '99'], checks: everyPassing.slice(1), result: 'FAILED', label: 'FAILED (gate)', exitCode: 1, says: /^FAILED \(gate\) — must clauses verified 75% < 99% \(--require-verified\); 3 of 4/ },
  { name: '--require-verified met', argv: ['--require-verified', '75'], checks: everyPassing.slice(1), result: 'PASSED', label: 'PASSED', exitCode: 0 },
  { name: '--require-coverage not met beside a failed check', argv: ['--require-coverage', '90'], checks: [...everyPassing, failing('4.2.token-type')], result: 'FAILED', label: 'FAILED', exitCode: 1, says: /^FAILED — status coverage 0% < 90% \(--require-coverage\); / },
  { name: '--fail-on lets failures of other severities through', argv: ['--fail-on', 'security'], checks: [passing('7.bearer-missing-token-401'), failing('2.3.net-equals-available'), failing('4.2.token-type')], result: 'PASSED', label: 'PASSED (--fail-on security)', exitCode: 0, says: /^PASSED \(--fail-on security\) — 2 failures of other severities reported \(money, data\), not gated \(--fail-on security\); 1 of 4/ },
  { name: '--fail-on blocks a failure of its severity', argv: ['--fail-on', 'security'], checks: [failing('7.bearer-missing-token-401'), failing('4.2.token-type')], result: 'FAILED', label: 'FAILED', exitCode: 1 },
  { name: '--fail-on with nothing failed', argv: ['--fail-on', 'security'], checks: everyPassing, result: 'PASSED', label: 'PASSED', exitCode: 0 },
  { name: '--fail-on letting failures through, a gate not met', argv: ['--fail-on', 'security', '--require-verified', '90'], checks: [passing('7.bearer-missing-token-401'), failing('4.2.token-type')], result: 'FAILED', label: 'FAILED (gate)', exitCode: 1, says: /^FAILED \(gate\) — must clauses verified 25% < 90% \(--require-verified\); 1 failure of other severities reported \(data\), not gated \(--fail-on security\); 1 of 4/ },
  { name: 'a waiver in force', checks: [...everyPassing.slice(0, 3), failing('4.2.token-type')], waiversExpire: '2999-12-31', result: 'CONDITIONAL PASS', label: 'CONDITIONAL PASS', exitCode: 0 },
  { name: 'a waiver expired', checks: [...everyPassing.slice(0, 3), failing('4.2.token-type')], waiversExpire: '2020-01-01', result: 'FAILED', label: 'FAILED', exitCode: 1 },
  { name: 'a flaky check without --fail-on-flaky', checks: [...everyPassing.filter((c) => !c.clauses.includes('4.2.token-type')), flaky], result: 'PASSED', label: 'PASSED', exitCode: 0, says: /1 check flaky: passed only on a retry/ },
  { name: 'a flaky check with --fail-on-flaky', argv: ['--fail-on-flaky'], checks: [...everyPassing.filter((c) => !c.clauses.includes('4.2.token-type')), flaky], result: 'FAILED', label: 'FAILED (gate)', exitCode: 1, says: /^FAILED \(gate\) — flaky checks 1 > 0 \(--fail-on-flaky\); / },
  { name: 'merged shards missing', checks: everyPassing, missingShards: ['2/2'], result: 'INCOMPLETE', label: 'INCOMPLETE', exitCode: 0, says: /shard 2\/2 missing/ },
  { name: 'no check ran', checks: [], result: 'NO CHECKS RAN', label: 'NO CHECKS RAN', exitCode: 1 },
  { name: 'no check ran in a shard', checks: [], shard: '2/3', result: 'NO CHECKS RAN', label: 'NO CHECKS RAN', exitCode: 0 },
]

const dir = mkdtempSync(join(tmpdir(), 'verdict-outputs-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function resultsOf(c: Case): Results {
  const built = buildResults(
    runInfo({ ...gateSettingsOf(parseArgs(c.argv ?? [])), ...(c.missingShards ? { missingShards: c.missingShards } : {}), ...(c.shard ? { shard: c.shard } : {}) }),
    c.checks,
    CATALOGUE,
  )
  return c.waiversExpire ? applyWaivers(built, waivers(c.waiversExpire), '2026-11-29', 'w.yaml') : built
}

/** What each output says of the run, read back from the files and texts the kit writes. */
function outputsOf(r: Results, name: string) {
  const runDir = join(dir, name.replace(/\W+/g, '-'))
  writeReport(runDir, r, new Scrubber())
  const json = JSON.parse(readFileSync(join(runDir, 'results.json'), 'utf8')) as Results
  const junit = readFileSync(join(runDir, 'junit.xml'), 'utf8')
  const html = readFileSync(join(runDir, 'report.html'), 'utf8')
  const console = summaryText(r, runDir, paint(false)).split('\n')
  const action = actionOutputs({ exitCode: json.verdict.exitCode, stdout: `Report: ${runDir}\n`, stderr: '', reportDir: runDir, results: json }) as Record<string, string>
  const junitProperty = (p: string) => new RegExp(`<property name="${p}" value="([^"]*)"/>`).exec(junit)?.[1]
  const unescape = (s: string | undefined) => s?.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&#39;/g, "'").replace(/&amp;/g, '&')
  const top = /<testsuites [^>]*failures="(\d+)" errors="(\d+)"/.exec(junit)!
  return {
    json,
    console: { headline: console.find((l) => l.startsWith(`${r.verdict.result}`)) },
    junit: {
      headline: unescape(junitProperty('result')),
      label: unescape(junitProperty('verdict')),
      exitCode: Number(junitProperty('exitCode')),
      failing: Number(top[1]) + Number(top[2]) > 0,
      failureElements: (junit.match(/<failure /g) ?? []).length + (junit.match(/<error /g) ?? []).length,
      topFailures: Number(top[1]) + Number(top[2]),
    },
    html: {
      badge: unescape(/<span class="verdict (\w+)">([^<]*)<\/span>/.exec(html)?.[2]),
      badgeClass: /<span class="verdict (\w+)">/.exec(html)?.[1],
      headline: unescape(/<p class="headline">([^<]*)<\/p>/.exec(html)?.[1]),
      title: unescape(/<title>([^<]*)<\/title>/.exec(html)?.[1]),
    },
    action: { ...action, summary: stepSummary(action, json) as string },
    monitor: outcomeOf(json),
  }
}

describe('every gate × every output', () => {
  test.each(CASES)('$name', (c) => {
    const r = resultsOf(c)
    expect(r.verdict).toMatchObject({ result: c.result, label: c.label, exitCode: c.exitCode })
    expect(r.verdict.headline.startsWith(`${c.label} — `), r.verdict.headline).toBe(true)
    if (c.says) expect(r.verdict.headline).toMatch(c.says)
    const out = outputsOf(r, c.name)

    // results.json: the verdict with its gates and --fail-on, and the settings it was decided with
    expect(out.json.verdict).toEqual(r.verdict)
    const given = gateSettingsOf(parseArgs(c.argv ?? [])).gateSettings
    expect(out.json.gateSettings).toEqual(given)
    expect(out.json.verdict.gates.map((g) => g.flag).sort()).toEqual(
      [...(given?.requireCoverage !== undefined ? ['--require-coverage'] : []), ...(given?.requireVerified !== undefined ? ['--require-verified'] : []), ...(given?.failOnFlaky ? ['--fail-on-flaky'] : [])].sort(),
    )
    expect(out.json.verdict.failOn?.severities).toEqual(given?.failOn)
    for (const gate of out.json.verdict.gates.filter((g) => !g.passed)) expect(r.verdict.headline).toContain(gate.text)

    // console: its verdict line is the headline
    expect(out.console.headline).toBe(r.verdict.headline)

    // junit.xml: the headline, the label and the exit code as properties; failing exactly when the run failed, its counts those of its elements
    expect(out.junit).toMatchObject({ headline: r.verdict.headline, label: c.label, exitCode: c.exitCode, failing: c.result === 'FAILED' })
    expect(out.junit.topFailures).toBe(out.junit.failureElements)

    // report.html: the badge is the label, coloured by the word; the headline and the title say the same
    expect(out.html.badge).toBe(c.label)
    expect(out.html.badgeClass).toBe(c.result === 'PASSED' ? 'passed' : c.result === 'FAILED' ? 'failed' : 'skipped')
    expect(out.html.headline).toBe(r.verdict.headline)
    expect(out.html.title).toContain(c.label)

    // the action: outputs and step summary read from results.json
    expect(out.action).toMatchObject({ 'exit-code': String(c.exitCode), result: c.label, headline: r.verdict.headline })
    expect(out.action.summary).toContain(`### ${r.verdict.headline}`)
    for (const gate of r.verdict.gates) expect(out.action.summary).toContain(gate.text)

    // the monitor: the run's outcome
    expect(out.monitor).toBe(c.exitCode === 0 ? 'passed' : 'failed')
  })
})

describe('a merge decides with the gates it is given', () => {
  test('the shards passed, the merge with --require-verified not met fails on the gate', () => {
    const shard = (n: number, checks: CheckResult[]) => buildResults(runInfo({ runId: `s${n}`, shard: `${n}/2` }), checks, CATALOGUE)
    const parts = [shard(1, everyPassing.slice(0, 2)), shard(2, [])]
    expect(parts.map((p) => p.verdict.exitCode)).toEqual([0, 0])
    const merged = mergeResults(parts, 'merged', gateSettingsOf(parseArgs(['--require-verified', '90'])).gateSettings)
    expect(merged.verdict).toMatchObject({ result: 'FAILED', label: 'FAILED (gate)', exitCode: 1, gates: [{ flag: '--require-verified', figure: 50, threshold: 90, passed: false }] })
    expect(mergeResults(parts, 'merged').verdict).toMatchObject({ result: 'PASSED', exitCode: 0, gates: [] })
  })
})
