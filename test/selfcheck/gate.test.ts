// The CI gate end to end (waivers, run diffs, certificates, the gate flags): a run with one injected
// failure and a matching waiver exits 0 with CONDITIONAL PASS; the same waiver expired exits 1;
// --compare against a clean run names exactly that clause; the certificate of the run verifies, and
// does not once a verdict in it is changed. Every run's outputs say one word: the exit code, the
// console's headline, results.json, junit.xml, report.html and the action's outputs and summary
// (test/unit/cli/verdict-outputs.test.ts walks every gate on synthetic results).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { verifyCertificate } from '../../cli/reporting/certificate.ts'
import { defineFault, jsonObjectOf } from './fault.ts'
import { expectOneWord } from './one-word.ts'
import { certify, closeReferences } from './runner.ts'

const CLAUSE = '3.2.create-ativa'
const CHECK = 'charges/lifecycle::new charge: 201 with status ATIVA and revisao 0'
const dir = mkdtempSync(join(tmpdir(), 'pix-gate-'))

/** PUT /cob answers revisao 1: one clause of the charge answer broken, nothing else. */
const revisaoOne = defineFault({
  id: 'gate-cob-revisao-one',
  area: 'charges',
  clauses: [CLAUSE],
  description: 'PUT /cob answers revisao 1 for a new charge',
  onResponse(req, res) {
    const body = jsonObjectOf(res)
    if (req.api === 'base' && req.method === 'PUT' && req.path.startsWith('/cob/') && body) body.revisao = 1
    return res
  },
})

afterAll(async () => {
  await closeReferences()
  rmSync(dir, { recursive: true, force: true })
})

function waivers(clause: string, expires: string): string {
  const file = join(dir, `waivers-${expires}.yaml`)
  writeFileSync(file, `waivers:\n  - clause: ${clause}\n    reason: known deviation, fixed in the next release\n    owner: payments-team\n    expires: ${expires}\n`)
  return file
}

test('one waived failure: CONDITIONAL PASS, exit 0; the waiver expired: exit 1; --compare names the clause; the certificate verifies until tampered', async () => {
  const clean = await certify({ areas: ['charges'], extraArgs: ['--check', CHECK, '--seed', '5'], reportFiles: true })
  expectOneWord(clean, 'PASSED', 0)
  const cleanResults = join(dir, 'clean.json')
  writeFileSync(cleanResults, JSON.stringify(clean))

  const broken = await certify({ areas: ['charges'], fault: revisaoOne, extraArgs: ['--check', CHECK, '--seed', '5', '--retries', '0'] })
  const failed = broken.checks.filter((c) => c.status === 'failed').map((c) => c.failedClause)
  expect(failed.length).toBeGreaterThan(0)
  const clause = failed[0]!
  expect(failed.every((c) => c === clause)).toBe(true)

  const certificate = join(dir, 'certificate.json')
  const waived = await certify({
    areas: ['charges'], fault: revisaoOne,
    extraArgs: ['--check', CHECK, '--seed', '5', '--retries', '0', '--waivers', waivers(clause, '2999-12-31'), '--compare', cleanResults, '--certificate', certificate],
    reportFiles: true,
  })
  expectOneWord(waived, 'CONDITIONAL PASS', 0)
  expect(waived.run.output).toContain(clause)
  expect(waived.run.output).toMatch(/newly failed/i)

  const expired = await certify({ areas: ['charges'], fault: revisaoOne, extraArgs: ['--check', CHECK, '--seed', '5', '--retries', '0', '--waivers', waivers(clause, '2020-01-01')], reportFiles: true })
  expectOneWord(expired, 'FAILED', 1)

  expect(verifyCertificate(certificate, {}).ok).toBe(true)
  const tampered = JSON.parse(readFileSync(certificate, 'utf8')) as Record<string, unknown>
  const text = JSON.stringify(tampered).replace(`"${clause}":"failed"`, `"${clause}":"passed"`)
  expect(text).not.toBe(JSON.stringify(tampered))
  writeFileSync(certificate, text)
  expect(verifyCertificate(certificate, {}).ok).toBe(false)
})

test('the gate flags: a gate not met fails the run on every output, naming its figure; --fail-on that lets a failure through passes it on every output, saying so', async () => {
  const [coverage, verified, failOnPassed, failOnFailed] = await Promise.all([
    certify({ areas: ['charges'], extraArgs: ['--check', CHECK, '--seed', '5', '--require-coverage', '90'], reportFiles: true }),
    // a waived failure leaves the run a CONDITIONAL PASS with one of its two clauses verified
    certify({ areas: ['charges'], fault: revisaoOne, extraArgs: ['--check', CHECK, '--seed', '5', '--retries', '0', '--waivers', waivers(CLAUSE, '2999-12-31'), '--require-verified', '99'], reportFiles: true }),
    // the fault breaks a clause of severity data
    certify({ areas: ['charges'], fault: revisaoOne, extraArgs: ['--check', CHECK, '--seed', '5', '--retries', '0', '--fail-on', 'security'], reportFiles: true }),
    certify({ areas: ['charges'], fault: revisaoOne, extraArgs: ['--check', CHECK, '--seed', '5', '--retries', '0', '--fail-on', 'security,data'], reportFiles: true }),
  ])
  expectOneWord(coverage, 'FAILED (gate)', 1)
  expect(coverage.verdict.headline).toMatch(/^FAILED \(gate\) — status coverage \d+(\.\d)?% < 90% \(--require-coverage\); /)
  expect(coverage.verdict.gates).toMatchObject([{ flag: '--require-coverage', threshold: 90, figure: coverage.statusCoverage!.percent, passed: false }])
  expect(coverage.run.files!.junit).toMatch(/<testcase classname="gates" name="status coverage \(--require-coverage 90\)"[^]*?<failure message="status coverage/)

  expectOneWord(verified, 'FAILED (gate)', 1)
  expect(verified.verdict.headline).toMatch(/^FAILED \(gate\) — must clauses verified \d+(\.\d)?% < 99% \(--require-verified\); \d+ of \d+ must clauses of [^ ]+ verified \(1 waived/)

  expectOneWord(failOnPassed, 'PASSED (--fail-on security)', 0)
  expect(failOnPassed.verdict.headline).toMatch(/^PASSED \(--fail-on security\) — 1 failure of other severities reported \(data\), not gated \(--fail-on security\); /)
  expect(failOnPassed.verdict.failOn).toEqual({ severities: ['security'], blocking: 0, reportedOnly: 1, reportedSeverities: ['data'] })
  expect(failOnPassed.gateSettings).toEqual({ failOn: ['security'] })

  expectOneWord(failOnFailed, 'FAILED', 1)
  expect(failOnFailed.verdict.failOn).toMatchObject({ severities: ['security', 'data'], blocking: 1, reportedOnly: 0 })
})
