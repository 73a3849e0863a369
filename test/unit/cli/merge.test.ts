import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { MergeError, mergeResults } from '../../../cli/reporting/merge.ts'
import { buildResults } from '../../../cli/reporting/results.ts'
import type { Results } from '../../../cli/reporting/types.ts'
import { CLAUSES, check, runCli, runInfo } from './fixtures.ts'

const shard1 = buildResults(runInfo({ runId: 'r-shard1of2', shard: '1/2', command: 'npm run conformance -- --seed 42 --shard 1/2', startedAt: '2026-11-21T19:00:00.000Z', finishedAt: '2026-11-21T19:00:04.000Z' }), [
  check({ id: 'auth/tokens::a', clauses: ['4.2.token-type'], status: 'passed' }),
  check({ id: 'auth/tokens::b', clauses: ['4.2.expires-default'], status: 'passed' }),
], CLAUSES)
const shard2 = buildResults(runInfo({ runId: 'r-shard2of2', shard: '2/2', startedAt: '2026-11-21T19:00:01.000Z', finishedAt: '2026-11-21T19:00:09.000Z' }), [
  check({ id: 'charges/cob::c', area: 'charges', clauses: ['4.2.token-type', '4.10.txid-length'], status: 'failed', failedClause: '4.10.txid-length', message: 'boom' }),
], CLAUSES)

describe('mergeResults', () => {
  const merged = mergeResults([shard1, shard2], 'r-merged')

  test('concatenates checks and recomputes counts and clause verdicts', () => {
    expect(merged.checks.map((c) => c.id)).toEqual(['auth/tokens::a', 'auth/tokens::b', 'charges/cob::c'])
    expect(merged.summary).toEqual({ passed: 2, failed: 1, skipped: 0, blocked: 0, inconclusive: 0, total: 3 })
    const status = Object.fromEntries(merged.clauses.map((c) => [c.id, c.status]))
    expect(status).toMatchObject({ '4.2.token-type': 'passed', '4.2.expires-default': 'passed', '4.10.txid-length': 'failed', '2.3.gross': 'uncovered' })
    expect(merged.clauses.find((c) => c.id === '4.2.token-type')?.checks).toEqual(['auth/tokens::a', 'charges/cob::c'])
  })

  test('spans the shards in time and names them', () => {
    expect(merged).toMatchObject({ runId: 'r-merged', startedAt: '2026-11-21T19:00:00.000Z', finishedAt: '2026-11-21T19:00:09.000Z', mergedFrom: ['r-shard1of2', 'r-shard2of2'] })
    expect(merged.command).toBe('npm run conformance -- --seed 42')
    expect(merged.shard).toBeUndefined()
  })

  test('the same shard given twice counts once', () => {
    expect(mergeResults([shard1, shard1], 'x').summary.total).toBe(2)
  })

  test('a missing shard is named, and the run is not PASSED', () => {
    const alone = mergeResults([shard1], 'x')
    expect(alone.verdict.result).toBe('INCOMPLETE')
    expect(alone.verdict.headline).toMatch(/shard 2\/2 missing/)
  })

  test('shards of other seeds or kits cannot be merged', () => {
    expect(() => mergeResults([shard1, { ...shard2, seed: 43 }], 'x')).toThrow(/seed 43/)
    expect(() => mergeResults([shard1, { ...shard2, kitVersion: '9.9.9' }], 'x')).toThrow(/kit 9\.9\.9/)
  })

  test('shards of different targets or profiles cannot be merged', () => {
    expect(() => mergeResults([shard1, { ...shard2, profile: 'readonly' }], 'x')).toThrow(MergeError)
    const elsewhere = { ...shard2.target, baseUrl: 'http://other', embedded: false }
    expect(() => mergeResults([{ ...shard1, target: { ...shard1.target, embedded: false } }, { ...shard2, target: elsewhere }], 'x')).toThrow(/certified http:\/\/other/)
  })

  test('embedded runs merge although each reference had its own ports', () => {
    const otherPorts = { ...shard2.target, baseUrl: 'http://127.0.0.1:5000', gatewayUrl: 'http://127.0.0.1:5001' }
    expect(mergeResults([shard1, { ...shard2, target: otherPorts }], 'x').summary.total).toBe(3)
  })
})

describe('conformance --merge', () => {
  const root = mkdtempSync(join(tmpdir(), 'merge-'))
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  function writeShard(name: string, r: Results): string {
    const dir = join(root, name)
    mkdirSync(dir)
    writeFileSync(join(dir, 'results.json'), JSON.stringify(r))
    return dir
  }

  test('writes one report folder with all three files and exits 1 when a merged check failed', async () => {
    const out = join(root, 'out')
    const run = await runCli(['--merge', writeShard('s1', shard1), writeShard('s2', shard2), '--report-dir', out])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(1)
    const [folder] = readdirSync(out)
    expect(folder).toMatch(/-merged$/)
    expect(readdirSync(join(out, folder ?? '')).sort()).toEqual(['junit.xml', 'report.html', 'results.json'])
    const merged = JSON.parse(readFileSync(join(out, folder ?? '', 'results.json'), 'utf8')) as Results
    expect(merged.summary.total).toBe(3)
    expect(run.stdout).toContain('Merged 2 results (r-shard1of2, r-shard2of2)')
  })

  test('exits 0 when every merged check passed', async () => {
    const run = await runCli(['--merge', join(root, 's1'), '--report-dir', join(root, 'out0')])
    expect(run.code).toBe(0)
  })

  test('a --report-dir that is a regular file is a usage error (exit 2), not a crash', async () => {
    const file = join(root, 'a-file')
    writeFileSync(file, 'not a folder')
    const run = await runCli(['--merge', join(root, 's1'), '--report-dir', file])
    expect(run.code).toBe(2)
    expect(run.stderr.trim()).toBe(`conformance: --report-dir: cannot write reports under ${file} (it is not a folder)`)
  })

  test('a folder without results.json is a usage error (exit 2)', async () => {
    const run = await runCli(['--merge', join(root, 'nothing-here'), '--report-dir', join(root, 'out2')])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/--merge: no results\.json in/)
  })
})
