// What a run says of its reproducers: how many were written, and each failure that got none with
// why (a failure whose evidence names no rule the reproducer can assert); a one-check run prints no
// documented-statuses block.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { afterRun } from '../../../cli/certify/run-extras.ts'
import type { CliArgs } from '../../../cli/flags.ts'
import { buildResults } from '../../../cli/reporting/results.ts'
import { CLAUSES, check, runInfo } from './fixtures.ts'

const dir = mkdtempSync(join(tmpdir(), 'pix-repro-console-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const exchange = (status: number) => ({
  request: { method: 'POST', url: 'http://127.0.0.1:4000/oauth/token', headers: { 'content-type': 'application/json' }, body: '{}' },
  response: { status, headers: { 'content-type': 'application/json' }, body: '{}', durationMs: 3 },
})

const args = { failOn: undefined, otlpEndpoint: undefined } as unknown as CliArgs

test('the failures without a reproducer are listed with why', async () => {
  const results = buildResults(runInfo(), [
    check({ id: 'auth/a::status', clauses: ['4.2.token-type'], status: 'failed', failedClause: '4.2.token-type', message: '4.2.token-type — token_type is Bearer\nstatus: expected HTTP 201, got HTTP 400', exchanges: [exchange(400)] }),
    check({ id: 'auth/b::free text', clauses: ['4.2.expires-default'], status: 'failed', failedClause: '4.2.expires-default', message: '4.2.expires-default — expires_in defaults to 3600\nthe token never expired', exchanges: [exchange(201)] }),
    check({ id: 'auth/c::no evidence', clauses: ['2.3.gross'], status: 'failed', failedClause: '2.3.gross', message: '2.3.gross — x\ntotal: expected 3, got 4' }),
  ], CLAUSES)
  const lines: string[] = []
  await afterRun(args, results, (l) => lines.push(l), (l) => lines.push(`ERR ${l}`), dir)
  expect(readdirSync(join(dir, 'repro'))).toHaveLength(1)
  const text = lines.join('\n')
  expect(text).toContain('reproducers: 1 standalone script')
  expect(text).toContain('no reproducer for 2 failures:')
  expect(text).toContain('    auth/b::free text: its message names no "<rule>: expected …, got …" line to assert')
  expect(text).toContain('    auth/c::no evidence: no recorded exchange to replay')
})

test('a one-check run prints no documented-statuses block; a larger one does', async () => {
  const one = buildResults(runInfo(), [check({ id: 'auth/a::one', clauses: ['4.2.token-type'], exchanges: [exchange(201)] })], CLAUSES)
  const lines: string[] = []
  await afterRun(args, one, (l) => lines.push(l), (l) => lines.push(l))
  expect(lines.join('\n')).not.toMatch(/documented statuses|never seen/)
  const two = buildResults(runInfo(), [check({ id: 'auth/a::one', clauses: ['4.2.token-type'], exchanges: [exchange(201)] }), check({ id: 'auth/a::two', clauses: ['4.2.token-type'], exchanges: [exchange(201)] })], CLAUSES)
  lines.length = 0
  await afterRun(args, two, (l) => lines.push(l), (l) => lines.push(l))
  expect(lines.join('\n')).toMatch(/documented statuses/)
})
