// `--lang pt-BR` end to end: the flag reaches the console summary, report.html and the certificate of
// a real (embedded) run; results.json, the exit code and the verdict word stay the machine's English.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { headlineIn } from '../../../cli/reporting/i18n.ts'
import type { Certificate } from '../../../cli/reporting/certificate.ts'
import type { Results } from '../../../cli/reporting/types.ts'
import { runCli, type CliRun } from './fixtures.ts'

const reportDir = mkdtempSync(join(tmpdir(), 'lang-run-'))
const certificateFile = join(reportDir, 'certificate.json')
let run: CliRun
let results: Results
let folder = ''

beforeAll(async () => {
  run = await runCli(['--file', 'balance/shapes.test.ts', '--seed', '77', '--num-runs', '3', '--lang', 'pt-BR', '--report-dir', reportDir, '--certificate', certificateFile], {}, 120_000)
  folder = readdirSync(reportDir).find((f) => f !== 'certificate.json') ?? ''
  results = JSON.parse(readFileSync(join(reportDir, folder, 'results.json'), 'utf8')) as Results
}, 150_000)

afterAll(() => rmSync(reportDir, { recursive: true, force: true }))

describe('a run with --lang pt-BR', () => {
  test('keeps the machine words: results.json, exit code', () => {
    expect(run.code).toBe(0)
    expect(results.verdict.result).toBe('PASSED')
    expect(results.verdict.headline).toMatch(/^PASSED — /)
  })

  test('prints its summary and headline in Portuguese', () => {
    expect(run.stdout).toContain(headlineIn('pt-BR', results.verdict.headline))
    expect(run.stdout).toMatch(/^APROVADO — \d+ de \d+ cláusulas obrigatórias de balance\/shapes\.test\.ts verificadas$/m)
    expect(run.stdout).toContain('cláusulas verificadas:')
    expect(run.stdout).toContain(`Relatório: ${join(reportDir, folder)}`)
    expect(run.stdout).not.toMatch(/must clauses|^Report: /m)
  })

  test('writes report.html and the certificate in Portuguese', () => {
    const html = readFileSync(join(reportDir, folder, 'report.html'), 'utf8')
    expect(html).toContain('<html lang="pt-BR">')
    expect(html).toContain('Relatório de conformidade')
    const certificate = JSON.parse(readFileSync(certificateFile, 'utf8')) as Certificate
    expect(certificate.readable?.lang).toBe('pt-BR')
    expect(certificate.readable?.headline).toBe(headlineIn('pt-BR', results.verdict.headline))
    expect(certificate.result.headline).toBe(results.verdict.headline)
  })
})

test('--lang takes en or pt-BR only', async () => {
  const refused = await runCli(['--lang', 'fr'])
  expect(refused.code).toBe(2)
  expect(refused.stderr).toMatch(/--lang/)
})
