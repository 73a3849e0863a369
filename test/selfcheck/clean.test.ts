// Without a fault the proxy is transparent: every area certifies clean through it.
import { afterAll, expect, test } from 'vitest'
import { certify, closeReferences, expectClean } from './runner.ts'
import { allAreas } from './areas.ts'

afterAll(closeReferences)

test('every area passes through the transparent proxy', async () => {
  const results = await certify({ areas: allAreas(), timeLimitMs: 600_000, extraArgs: ['--workers', '2'] })
  expectClean(results)
  expect(new Set(results.checks.map((c) => c.area))).toEqual(new Set(allAreas()))
  expect(unseenRowsOfSection7(results), 'every §7 row that can be provoked is seen on the reference').toEqual([])
}, 620_000)

type Outcome = { status?: number; code?: string; sources: string[]; state: string; unprovokable?: boolean }
function unseenRowsOfSection7(results: { statusCoverage?: { operations: { operationId: string; outcomes: Outcome[] }[] } }): string[] {
  const operations = results.statusCoverage?.operations ?? []
  expect(operations.length, 'results.json has a status coverage').toBeGreaterThan(10)
  return operations.flatMap((op) => op.outcomes
    .filter((o) => o.sources.includes('§7') && !o.unprovokable && o.state === 'never-seen')
    .map((o) => `${op.operationId} ${o.status ?? ''} ${o.code ?? ''}`.trim()))
}
