// Every check still passes when the target varies in ways the interface allows (variants.ts).
// To keep `npm test` short the variants are applied together in one combined run (see ALL_IN_ONE
// for its two compromises). When it fails, SELFCHECK_VARIANTS=groups runs representation and
// transport apart, and SELFCHECK_VARIANTS=each one certification per variant, to name the culprit.
import { afterAll, describe, test } from 'vitest'
import { allAreas } from './areas.ts'
import { certify, closeReferences, expectClean } from './runner.ts'
import {
  VARIANTS, charsetUtf8, combine, connectionClose, keysShuffled, lateAnswers, latency, timestampsWithMs, timestampsWithoutMs, unknownFields,
  type Variant,
} from './variants.ts'

afterAll(closeReferences)

/** Representation in one run, transport (and the other timestamp form) in the other. */
const GROUPS: readonly Variant[] = [
  combine('representation', [keysShuffled, unknownFields, charsetUtf8, timestampsWithoutMs]),
  combine('transport', [latency, connectionClose, timestampsWithMs]),
]

/**
 * One run for `npm test`. Two compromises, for time: timestamps lose their fraction (the other
 * form, a fraction added, needs a run of its own: groups or each), and one answer in five is late
 * rather than every one (30 ms on each of a full run's answers more than quadruples its time).
 */
const ALL_IN_ONE: readonly Variant[] = [
  combine('all-variants', [keysShuffled, unknownFields, charsetUtf8, timestampsWithoutMs, lateAnswers(5), connectionClose]),
]

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
