// A model run spread over balance accounts (ModelRunOptions.apart, harness/property.ts runModel):
// the sequences fast-check would run one after another, each once, over the accounts it gets; a
// failure is run again one after another on the check's account, so its verdict and shrunk
// sequence are those of a run without the spread.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { TargetConfig } from '../../../harness/config.ts'
import type { CheckContext } from '../../../harness/context.ts'
import type { CheckMeta } from '../../../harness/meta.ts'
import { runModel, type AnotherAccount, type ModelRun } from '../../../harness/property.ts'

interface Counter { n: number }
interface Real { account: string; log: string[] }

/** Adds to the counter; throws once it passes `limit` (only on account `onlyOn`, when given). */
class Add implements fc.AsyncCommand<Counter, Real> {
  constructor(readonly by: number, readonly limit: number, readonly onlyOn?: string) {}
  check = () => true
  async run(m: Counter, r: Real): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 1))
    r.log.push(String(this))
    m.n += this.by
    if (m.n > this.limit && (this.onlyOn === undefined || this.onlyOn === r.account)) throw new Error(`counter ${m.n} past ${this.limit}`)
  }
  toString = () => `add(${this.by})`
}

const config = { seed: 4242, numRuns: 30, numRunsExplicit: true, depth: 'default', strictDepth: false } as TargetConfig
/** A fake context: runModel hands it to setup and leave only. */
const account = (name: string) => ({ id: name }) as unknown as CheckContext

interface Run { sequences: string[]; accounts: string[]; left: string[]; released: string[]; meta: Partial<CheckMeta>; error?: Error }

/** A counter model run by runModel on account `a` (with `free` to take when `apart`): what ran where, and how it ended. */
async function run(limit: number, apart: boolean, onlyOn?: string, free = ['b', 'c']): Promise<Run> {
  const logs: string[][] = []
  const r: Run = { sequences: [], accounts: [], left: [], released: [], meta: {} }
  const model: ModelRun<Counter, Real, CheckContext> = {
    commands: [fc.integer({ min: 0, max: 3 }).map((by) => new Add(by, limit, onlyOn))],
    maxCommands: 6,
    setup: async (t) => {
      const log: string[] = []
      logs.push(log)
      r.accounts.push(t.id)
      return { model: { n: 0 }, real: { account: t.id, log } }
    },
    leave: async (t) => void r.left.push(t.id),
  }
  const another: AnotherAccount<CheckContext> = async () => {
    const name = free.shift()
    return name === undefined ? undefined : { t: account(name), release: async () => void r.released.push(name) }
  }
  try {
    await runModel(r.meta, config, account('a'), model, { examples: [[new Add(1, limit, onlyOn)]], apart, timeLimitMs: 60_000 }, another)
  } catch (err) {
    r.error = err as Error
  }
  r.sequences = logs.map((log) => log.join(','))
  return r
}

const sorted = (xs: readonly string[]) => [...xs].sort()

describe('a model run spread over balance accounts (ModelRunOptions.apart)', () => {
  test('runs the sequences a run one after another runs, each once, over the accounts it gets; leaves each and gives back the others', async () => {
    const one = await run(1_000, false)
    const spread = await run(1_000, true)
    expect(one.error).toBeUndefined()
    expect(spread.error).toBeUndefined()
    expect(sorted(spread.sequences)).toEqual(sorted(one.sequences))
    expect(spread.sequences).toHaveLength(30)
    expect(new Set(spread.accounts)).toEqual(new Set(['a', 'b', 'c']))
    expect(new Set(one.accounts)).toEqual(new Set(['a']))
    expect(sorted(spread.left)).toEqual(['a', 'b', 'c'])
    expect(sorted(spread.released)).toEqual(['b', 'c'])
    expect(spread.meta.property).toEqual(one.meta.property)
    expect(spread.meta.property).toEqual({ requested: 30, examples: 0, runs: 30, interrupted: false })
  })

  test('a failure is run again one after another on the check\'s account: the same error, shrunk sequence and replay as without the spread', async () => {
    const one = await run(5, false)
    const spread = await run(5, true)
    expect(one.error?.message).toMatch(/counter \d+ past 5[\s\S]*command sequence \(after \d+ shrinks\)/)
    expect(spread.error?.message).toBe(one.error?.message)
    expect(spread.meta.replay).toBe(one.meta.replay)
    expect(spread.meta.property).toEqual(one.meta.property)
    expect(sorted(spread.left)).toEqual(['a', 'b', 'c'])
    expect(sorted(spread.released)).toEqual(['b', 'c'])
  })

  test('a sequence that fails only on another account, and passes when run again on the check\'s, is reported as it failed, not shrunk', async () => {
    const spread = await run(3, true, 'b')
    expect(spread.error?.message).toMatch(/counter \d+ past 3\n.*passed when run again one after another: not shrunk/)
    expect(spread.accounts).toContain('b')
  })

  test('with no other account free every sequence runs on the check\'s account, the same ones', async () => {
    const none = await run(1_000, true, undefined, [])
    const alone = await run(1_000, false)
    expect(new Set(none.accounts)).toEqual(new Set(['a']))
    expect(none.released).toEqual([])
    expect(sorted(none.sequences)).toEqual(sorted(alone.sequences))
  })
})
