// Without a fault the proxy is transparent: every area certifies clean through it.
import { afterAll, expect, test } from 'vitest'
import { certify, closeReferences, expectClean } from './runner.ts'
import { allAreas } from './areas.ts'

afterAll(closeReferences)

test('every area passes through the transparent proxy', async () => {
  const results = await certify({ areas: allAreas(), timeLimitMs: 600_000, extraArgs: ['--workers', '2'] })
  expectClean(results)
  expect(new Set(results.checks.map((c) => c.area))).toEqual(new Set(allAreas()))
}, 620_000)
