// A readonly run of a sandbox whose clock an earlier sandbox run moved (the reference started
// standalone, its simulated clock advanced three days through the control API, never reset). "Now"
// is the target's in every profile: its control clock when PIX_CONTROL_URL is configured (GET
// /control/clock is a read), else the Date header of its answers. Judged on this machine's clock,
// the balance's consultedAt ("the moment of the query") failed 2.3.consulted-at-is-event-date.
// Run: npx vitest run --project robustness test/profiles/readonly-moved-clock.test.ts
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startReference, type RunningReference } from '../../reference/index.ts'
import { certify, resultsOf, type Certification } from '../foreign/run.ts'
import { checksWhere, failedChecks } from '../foreign/verdicts.ts'

const AHEAD_S = 3 * 86_400 + 2 * 3_600

let reference: RunningReference
const runs: { withControl?: Certification; withoutControl?: Certification } = {}

beforeAll(async () => {
  reference = await startReference({ quiet: true })
  const moved = await fetch(`${reference.controlUrl}/control/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seconds: AHEAD_S }) })
  expect(moved.status).toBe(200)
  const { PIX_PROFILE: _sandbox, ...readonly } = reference.env  // a target that says nothing of its profile: readonly
  const { PIX_CONTROL_URL: _control, ...withoutControl } = readonly
  ;[runs.withControl, runs.withoutControl] = await Promise.all([certify(readonly), certify(withoutControl)])
}, 300_000)

afterAll(async () => {
  await reference?.close()
})

describe.each([
  ['with PIX_CONTROL_URL (its clock is read)', () => runs.withControl!, 'GET /control/clock'],
  ['without it (the Date header of its answers)', () => runs.withoutControl!, 'the Date header of its answers'],
])('a readonly run %s', (_name, run, source) => {
  test('passes: no check fails, and the balance\'s moment of the query is verified', () => {
    const c = run()
    const r = resultsOf(c)
    expect(c.lines.some((l) => l.startsWith('profile readonly ·')), c.tail).toBe(true)
    expect(failedChecks(r), c.tail).toEqual([])
    expect(c.run.exitCode, c.tail).toBe(0)
    const consultedAt = checksWhere(r, (k) => k.clauses.includes('2.3.consulted-at-is-event-date'))
    // the checks that move the clock themselves need a mutating profile: skipped in readonly
    expect(consultedAt.filter((k) => k.status !== 'skipped').map((k) => k.status)).toEqual(['passed'])
  })

  test('the preflight says the target\'s clock is ahead of this machine\'s, and where it read it', () => {
    const c = run()
    expect(c.lines.filter((l) => /^warning: the target's clock/.test(l)), c.tail).toEqual([expect.stringMatching(new RegExp(`^warning: the target's clock is 3 d (2 h|1 h 59 min)( \\d+ min)?( \\d+ s)? ahead of this machine's \\(${source.replace(/[()/]/g, '\\$&')};`))])
  })
})
