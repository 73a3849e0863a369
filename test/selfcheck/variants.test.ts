// Every check still passes when the target varies in ways the interface allows (variants.ts), and
// when the reference makes the other choice wherever the interface leaves one open (its reading
// switches, reference/readings.ts, docs/READINGS.md). To keep `npm test` short the variants are
// applied together in one combined run, on a reference with every switch on (see ALL_IN_ONE for its
// two compromises). When it fails, SELFCHECK_VARIANTS=groups runs representation and transport
// apart, SELFCHECK_VARIANTS=each one certification per variant, and SELFCHECK_READINGS=each one
// certification per reading switch (no proxy variant), to name the culprit.
import { afterAll, describe, test } from 'vitest'
import { allAreas } from './areas.ts'
import { OTHER_READINGS, eachOtherReading, type Readings } from '../../reference/readings.ts'
import { certify, closeReferences, expectClean } from './runner.ts'
import {
  VARIANTS, charsetUtf8, combine, connectionClose, keysShuffled, lateAnswers, latency, timestampsOffsetZero, timestampsWithMs, timestampsWithoutMs, unknownFields,
  type Variant,
} from './variants.ts'

afterAll(closeReferences)

/** Representation in one run, transport (and the other timestamp form) in the other. */
const GROUPS: readonly Variant[] = [
  combine('representation', [keysShuffled, unknownFields, charsetUtf8, timestampsWithoutMs, timestampsOffsetZero]),
  combine('transport', [latency, connectionClose, timestampsWithMs]),
]

/**
 * One run for `npm test`. Two compromises, for time: timestamps lose their fraction (the other
 * form, a fraction added, needs a run of its own: groups or each), and one answer in five is late
 * rather than every one (30 ms on each of a full run's answers more than quadruples its time).
 */
const ALL_IN_ONE: readonly Variant[] = [
  combine('all-variants', [keysShuffled, unknownFields, charsetUtf8, timestampsWithoutMs, timestampsOffsetZero, lateAnswers(5), connectionClose]),
]

interface Run {
  title: string
  variant?: Variant
  readings: Partial<Readings>
}

/** One run per other value of each reading switch, on the bare reference. */
const EACH_READING: readonly Run[] = eachOtherReading().map((r) => ({ title: `reading ${r.name}=${r.value}`, readings: r.readings }))

const variantsMode = process.env.SELFCHECK_VARIANTS
const readingsMode = process.env.SELFCHECK_READINGS
const variantRuns = variantsMode === 'each' ? VARIANTS : variantsMode === 'groups' ? GROUPS : ALL_IN_ONE
const describeReadings = (readings: Partial<Readings>) => Object.entries(readings).map(([k, v]) => `${k}=${v}`).join(', ')
/** The combined run (and the groups) take every switch on; `each` of the variants runs on the reference's own readings, to name a variant alone. */
const runs: readonly Run[] = readingsMode === 'each'
  ? EACH_READING
  : variantRuns.map((variant) => {
    const readings = variantsMode === 'each' ? {} : OTHER_READINGS
    return { title: `${variant.id}: ${variant.description}${variantsMode === 'each' ? '' : `; readings ${describeReadings(readings)}`}`, variant, readings }
  })

/** Checks a reading leaves with nothing to provoke: inconclusive under it, by design. */
function inconclusiveUnder(readings: Partial<Readings>): string[] {
  return readings.limitedBalance === 'allowed' ? ['gateway balance with a valid key lacking permission answers 403 with the error body, never 401'] : []
}

describe.concurrent('variants', () => {
  for (const run of runs) {
    test(run.title, async () => {
      const results = await certify({ areas: allAreas(), ...(run.variant ? { variant: run.variant } : {}), readings: run.readings, timeLimitMs: 600_000 })
      expectClean(results, { inconclusive: inconclusiveUnder(run.readings) })
    }, 620_000)
  }
})
