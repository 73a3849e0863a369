// Every check still passes when the target varies in ways the interface allows (variants.ts).
// To keep `npm test` short every variant is applied in one combined run (each transformation
// composes with the others). When it fails, SELFCHECK_VARIANTS=groups runs representation and
// transport apart, and SELFCHECK_VARIANTS=each one certification per variant, to name the culprit.
import { afterAll, describe, test } from 'vitest'
import { allAreas } from './areas.ts'
import { certify, closeReferences, expectClean } from './runner.ts'
import {
  VARIANTS, charsetUtf8, combine, connectionClose, keysShuffled, latency, timestampsWithMs, timestampsWithoutMs, unknownFields,
  type Variant,
} from './variants.ts'

afterAll(closeReferences)

/** Representation in one run, transport (and the other timestamp form) in the other. */
const GROUPS: readonly Variant[] = [
  combine('representation', [keysShuffled, unknownFields, charsetUtf8, timestampsWithoutMs]),
  combine('transport', [latency, connectionClose, timestampsWithMs]),
]

/** timestamps-with-ms only adds a fraction where there is none, so after without-ms it adds ".000" back to every one: both forms are seen only across runs; the combined run strips them. */
const ALL_IN_ONE: readonly Variant[] = [combine('all-variants', [keysShuffled, unknownFields, charsetUtf8, timestampsWithoutMs, latency, connectionClose])]

const mode = process.env.SELFCHECK_VARIANTS
const runs = mode === 'each' ? VARIANTS : mode === 'groups' ? GROUPS : ALL_IN_ONE

describe.concurrent('variants', () => {
  for (const variant of runs) {
    test(`${variant.id}: ${variant.description}`, async () => {
      const results = await certify({ areas: allAreas(), variant, timeLimitMs: 600_000 })
      expectClean(results)
    }, 620_000)
  }
})
