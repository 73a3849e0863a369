// The clause vocabulary results.json is typed with stays the catalogue's (reporting-types.types.ts).
import { expect, it } from 'vitest'
import { typeErrors } from '../typecheck.ts'

it('cli/reporting/types.ts states a clause as generators/clauses.ts loads it', () => {
  expect(typeErrors(new URL('./reporting-types.types.ts', import.meta.url))).toEqual([])
}, 60_000)
