import { describe, expect, it } from 'vitest'
import { SimClock } from '../../../../reference/lib/clock.ts'

function pinned(startMs: number) {
  let real = startMs
  const clock = new SimClock(() => real)
  return { clock, tick: (ms: number) => { real += ms } }
}

describe('SimClock', () => {
  it('follows real time when not advanced', () => {
    const { clock, tick } = pinned(1_000_000)
    expect(clock.nowMs()).toBe(1_000_000)
    tick(250)
    expect(clock.nowMs()).toBe(1_000_250)
    expect(clock.now()).toEqual(new Date(1_000_250))
  })

  it('defaults to the wall clock', () => {
    const before = Date.now()
    const t = new SimClock().nowMs()
    expect(t).toBeGreaterThanOrEqual(before)
    expect(t).toBeLessThanOrEqual(Date.now())
  })

  it('advance adds whole and fractional seconds to the offset, cumulatively', () => {
    const { clock, tick } = pinned(0)
    clock.advance(60)
    expect(clock.nowMs()).toBe(60_000)
    clock.advance(0.5)
    expect(clock.nowMs()).toBe(60_500)
    tick(100)
    expect(clock.nowMs()).toBe(60_600)
  })

  it('advance calls every onAdvance listener, after the offset has grown', () => {
    const { clock } = pinned(0)
    const seen: number[] = []
    clock.onAdvance(() => seen.push(clock.nowMs()))
    clock.onAdvance(() => seen.push(-1))
    clock.advance(89 * 86_400)
    expect(seen).toEqual([89 * 86_400_000, -1])
  })

  it('reset returns to real time without calling listeners', () => {
    const { clock } = pinned(5_000)
    let calls = 0
    clock.onAdvance(() => { calls++ })
    clock.advance(10)
    clock.reset()
    expect(clock.nowMs()).toBe(5_000)
    expect(calls).toBe(1)
  })

  it('refuses to run backwards or by a non-number', () => {
    const { clock } = pinned(0)
    expect(() => clock.advance(-1)).toThrow(RangeError)
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError)
    expect(() => clock.advance(Number.POSITIVE_INFINITY)).toThrow(RangeError)
    expect(clock.nowMs()).toBe(0)
  })
})
