import { describe, expect, it } from 'vitest'
import { SlidingWindowLimiter } from '../../../../reference/lib/rate-limit.ts'

function limiter(limit = 60, windowMs = 60_000) {
  const clock = { t: 1_000_000 }
  const l = new SlidingWindowLimiter({ limit, windowMs, now: () => clock.t })
  return { l, clock }
}

describe('SlidingWindowLimiter', () => {
  it('accepts 60 in a minute and refuses the 61st', () => {
    const { l } = limiter()
    for (let i = 1; i <= 60; i++) {
      const r = l.take('acct')
      expect(r).toEqual({ ok: true, limit: 60, remaining: 60 - i, retryAfterMs: 0 })
    }
    const refused = l.take('acct')
    expect(refused.ok).toBe(false)
    expect(refused.remaining).toBe(0)
    expect(refused.limit).toBe(60)
  })

  it('gives the exact time until the oldest accepted request leaves the window', () => {
    const { l, clock } = limiter(3, 60_000)
    l.take('k') // t0
    clock.t += 10_000
    l.take('k') // t0+10s
    clock.t += 5_000
    l.take('k') // t0+15s
    clock.t += 1_000 // t0+16s
    expect(l.take('k')).toEqual({ ok: false, limit: 3, remaining: 0, retryAfterMs: 44_000 })
    clock.t += 43_999
    expect(l.take('k').retryAfterMs).toBe(1)
  })

  it('does not count refused requests', () => {
    const { l, clock } = limiter(2, 1_000)
    l.take('k')
    l.take('k')
    for (let i = 0; i < 50; i++) {
      clock.t += 10
      expect(l.take('k').ok).toBe(false)
    }
    clock.t = 1_000_000 + 1_000 // both accepted requests have left the window
    expect(l.take('k')).toMatchObject({ ok: true, remaining: 1 })
    expect(l.take('k')).toMatchObject({ ok: true, remaining: 0 })
  })

  it('keeps keys independent', () => {
    const { l } = limiter(1, 60_000)
    expect(l.take('a').ok).toBe(true)
    expect(l.take('a').ok).toBe(false)
    expect(l.take('b').ok).toBe(true)
  })

  it('slides: each request frees its place exactly windowMs after it was accepted', () => {
    const { l, clock } = limiter(2, 60_000)
    const start = clock.t
    l.take('k')
    clock.t = start + 30_000
    l.take('k')
    clock.t = start + 59_999
    expect(l.take('k').ok).toBe(false)
    clock.t = start + 60_000 // first one leaves
    expect(l.take('k')).toMatchObject({ ok: true, remaining: 0 })
    expect(l.take('k')).toMatchObject({ ok: false, retryAfterMs: 30_000 })
    clock.t = start + 200_000 // long after: a fresh window
    expect(l.take('k')).toMatchObject({ ok: true, remaining: 1 })
  })

  it('reset forgets every key', () => {
    const { l } = limiter(1)
    l.take('a')
    l.reset()
    expect(l.take('a').ok).toBe(true)
  })

  it('forgets idle keys across many distinct keys yet keeps live ones', () => {
    const { l, clock } = limiter(1, 1_000)
    l.take('live')
    for (let i = 0; i < 5_000; i++) l.take(`k${i}`)
    clock.t += 500
    expect(l.take('live').ok).toBe(false)
    clock.t += 2_000
    for (let i = 0; i < 2_000; i++) l.take(`n${i}`)
    expect((l as unknown as { logs: Map<string, number[]> }).logs.size).toBeLessThanOrEqual(2_000)
  })

  it('refuses nonsensical options', () => {
    expect(() => new SlidingWindowLimiter({ limit: 0, windowMs: 1, now: Date.now })).toThrow(RangeError)
    expect(() => new SlidingWindowLimiter({ limit: 1, windowMs: 0, now: Date.now })).toThrow(RangeError)
  })
})
