// The CI gate end to end (waivers, run diffs, certificates): a run with one injected failure
// and a matching waiver exits 0 with CONDITIONAL PASS; the same waiver expired exits 1; --compare
// against a clean run names exactly that clause; the certificate of the run verifies, and does not
// once a verdict in it is changed.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { verifyCertificate } from '../../cli/reporting/certificate.ts'
import { defineFault, jsonObjectOf } from './fault.ts'
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
  const clean = await certify({ areas: ['charges'], extraArgs: ['--check', CHECK, '--seed', '5'] })
  expect(clean.run.exitCode, clean.run.output.slice(-2000)).toBe(0)
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
  })
  expect(waived.run.exitCode, waived.run.output.slice(-3000)).toBe(0)
  expect(waived.verdict.result).toBe('CONDITIONAL PASS')
  expect(waived.run.output).toContain(clause)
  expect(waived.run.output).toMatch(/newly failed/i)

  const expired = await certify({ areas: ['charges'], fault: revisaoOne, extraArgs: ['--check', CHECK, '--seed', '5', '--retries', '0', '--waivers', waivers(clause, '2020-01-01')] })
  expect(expired.run.exitCode).toBe(1)

  expect(verifyCertificate(certificate, {}).ok).toBe(true)
  const tampered = JSON.parse(readFileSync(certificate, 'utf8')) as Record<string, unknown>
  const text = JSON.stringify(tampered).replace(`"${clause}":"failed"`, `"${clause}":"passed"`)
  expect(text).not.toBe(JSON.stringify(tampered))
  writeFileSync(certificate, text)
  expect(verifyCertificate(certificate, {}).ok).toBe(false)
})
