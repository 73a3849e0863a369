// A run of an extension's checks alone (--suites with an x- area) verifies none of the interface's
// clauses: its headline says what it verified of the extension, not "0 of 0 must clauses".
import { expect, test } from 'vitest'
import { buildResults } from '../../../cli/reporting/results.ts'
import type { ClauseInfo } from '../../../cli/reporting/types.ts'
import { check, runInfo } from './fixtures.ts'

const ACME: ClauseInfo[] = [
  { id: 'x-acme.reference', section: 'x-acme', statement: 'the account info carries an Acme reference', testability: 'black-box', level: 'must' },
  { id: 'x-acme.region', section: 'x-acme', statement: 'the account info names its region', testability: 'black-box', level: 'must' },
]

test("an extension-only run's headline is the extension's count", () => {
  const r = buildResults(runInfo({ scope: ['x-acme'] }), [check({ id: 'x-acme/a::b', area: 'x-acme', clauses: ['x-acme.reference', 'x-acme.region'] })], ACME)
  expect(r.verdict.headline).toBe('PASSED — x-acme — 2 of 2 must clauses of the extension verified')
  expect(r.verdict.headline).not.toMatch(/0 of 0/)
})
