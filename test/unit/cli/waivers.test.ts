import { describe, expect, test } from 'vitest'
import { buildResults } from '../../../cli/reporting/results.ts'
import { WaiverError, applyWaivers, draftWaivers, parseWaivers } from '../../../cli/reporting/waivers.ts'
import { CLAUSES, check, runInfo } from './fixtures.ts'

const KNOWN = CLAUSES.map((c) => c.id)

const FAILED_MESSAGE = '4.2.expires-default — expires_in defaults to 3600\nexpected 3600, got 60'

function run(extra: Parameters<typeof check>[0][] = []) {
  return buildResults(runInfo(), [
    check({ id: 'auth/tokens::type', clauses: ['4.2.token-type'], status: 'passed' }),
    check({ id: 'auth/tokens::expiry', title: 'token expiry default', clauses: ['4.2.expires-default'], status: 'failed', failedClause: '4.2.expires-default', message: FAILED_MESSAGE }),
    ...extra.map(check),
  ], CLAUSES)
}

const waiverYaml = (expires: string, extra = '') => `waivers:
  - clause: 4.2.expires-default
    reason: the provider follows the central bank's 60 s default
    owner: payments-team
    expires: ${expires}
    ticket: PAY-12
${extra}`

describe('parseWaivers', () => {
  test('reads entries with their line', () => {
    const waivers = parseWaivers(waiverYaml('2026-12-31'), 'waivers.yaml', KNOWN)
    expect(waivers).toEqual([{ clause: '4.2.expires-default', reason: expect.any(String), owner: 'payments-team', expires: '2026-12-31', ticket: 'PAY-12', line: 2 }])
  })

  test.each([
    ['a missing owner', 'waivers:\n  - clause: 4.2.token-type\n    reason: r\n    expires: 2026-12-31\n', /waivers\.yaml:2: waivers\[0\] needs "owner"/],
    ['an unknown clause', 'waivers:\n  - clause: 4.2.token-type\n    reason: r\n    owner: o\n    expires: 2026-12-31\n  - clause: 9.made-up\n    reason: r\n    owner: o\n    expires: 2026-12-31\n', /waivers\.yaml:6: clause "9\.made-up" is not in specs\/clauses\.yaml/],
    ['a bad date', 'waivers:\n  - clause: 4.2.token-type\n    reason: r\n    owner: o\n    expires: 31/12/2026\n', /waivers\.yaml:5: waivers\[0\]\.expires must be a date YYYY-MM-DD/],
    ['an impossible date', 'waivers:\n  - clause: 4.2.token-type\n    reason: r\n    owner: o\n    expires: 2026-02-30\n', /waivers\.yaml:5: expires "2026-02-30" is not a calendar date/],
    ['an empty reason', 'waivers:\n  - clause: 4.2.token-type\n    reason: ""\n    owner: o\n    expires: 2026-12-31\n', /waivers\.yaml:3: waivers\[0\]\.reason must not be empty/],
    ['an unknown key', 'waivers:\n  - clause: 4.2.token-type\n    reason: r\n    owner: o\n    expires: 2026-12-31\n    expiry: soon\n', /waivers\.yaml:6: .*unknown key "expiry"/],
    ['a bad pattern', 'waivers:\n  - clause: 4.2.token-type\n    check: "(unclosed"\n    reason: r\n    owner: o\n    expires: 2026-12-31\n', /waivers\.yaml:3: check "\(unclosed"/],
    ['not YAML', 'waivers:\n  - clause: [\n', /waivers\.yaml:\d+: not valid YAML/],
    ['no list', 'clause: 4.2.token-type\n', /waivers\.yaml:1: .*needs "waivers"/],
  ])('refuses %s, naming the line', (_, text, message) => {
    expect(() => parseWaivers(text, 'waivers.yaml', KNOWN)).toThrow(WaiverError)
    expect(() => parseWaivers(text, 'waivers.yaml', KNOWN)).toThrow(message)
  })
})

describe('applyWaivers', () => {
  test('a waived failure keeps status failed, the run is a CONDITIONAL PASS and exits 0', () => {
    const r = applyWaivers(run(), parseWaivers(waiverYaml('2026-12-31'), 'w.yaml', KNOWN), '2026-11-24', 'w.yaml')
    const failed = r.checks.find((c) => c.id === 'auth/tokens::expiry')!
    expect(failed.status).toBe('failed')
    expect(failed.waiver).toMatchObject({ owner: 'payments-team', expired: false })
    expect(r.clauses.find((c) => c.id === '4.2.expires-default')).toMatchObject({ status: 'failed', waiver: { expired: false } })
    expect(r.verdict.result).toBe('CONDITIONAL PASS')
    expect(r.verdict.headline).toMatch(/1 waived/)
    expect(r.waivers).toMatchObject({ file: 'w.yaml', applied: [{ check: 'auth/tokens::expiry', clause: '4.2.expires-default' }], expired: [] })
    expect(r.verdict.exitCode).toBe(0)
  })

  test('the waiver holds on its expiry day and fails the run the day after, listed as expired', () => {
    const waivers = parseWaivers(waiverYaml('2026-11-24'), 'w.yaml', KNOWN)
    expect(applyWaivers(run(), waivers, '2026-11-24').verdict.result).toBe('CONDITIONAL PASS')
    const late = applyWaivers(run(), waivers, '2026-11-25')
    expect(late.verdict.result).toBe('FAILED')
    expect(late.waivers!.expired).toMatchObject([{ check: 'auth/tokens::expiry', waiver: { expires: '2026-11-24', expired: true } }])
    expect(late.verdict.exitCode).toBe(1)
  })

  test('a failure no waiver covers still fails the run', () => {
    const r = applyWaivers(
      run([{ id: 'charges/cob::len', clauses: ['4.10.txid-length'], status: 'failed', failedClause: '4.10.txid-length', message: '4.10.txid-length — …\ntoo short' }]),
      parseWaivers(waiverYaml('2026-12-31'), 'w.yaml', KNOWN),
      '2026-11-24',
    )
    expect(r.verdict.result).toBe('FAILED')
    expect(r.verdict.exitCode).toBe(1)
  })

  test('a check id or title pattern narrows the waiver', () => {
    const extra = [{ id: 'auth/tokens::expiry-2', title: 'refresh expiry', clauses: ['4.2.expires-default'], status: 'failed' as const, failedClause: '4.2.expires-default', message: FAILED_MESSAGE }]
    const byId = applyWaivers(run(extra), parseWaivers(waiverYaml('2026-12-31', '    check: auth/tokens::expiry\n').replace('    ticket: PAY-12\n', ''), 'w.yaml', KNOWN), '2026-11-24')
    expect(byId.checks.filter((c) => c.waiver).map((c) => c.id)).toEqual(['auth/tokens::expiry'])
    expect(byId.verdict.result).toBe('FAILED')
    expect(byId.clauses.find((c) => c.id === '4.2.expires-default')!.waiver).toBeUndefined()
    const byTitle = applyWaivers(run(extra), parseWaivers(waiverYaml('2026-12-31').replace('    ticket', '    check: "expiry"\n    ticket'), 'w.yaml', KNOWN), '2026-11-24')
    expect(byTitle.checks.filter((c) => c.waiver).map((c) => c.id)).toEqual(['auth/tokens::expiry', 'auth/tokens::expiry-2'])
  })

  test('a waiver whose clause passed is no longer needed; one on a clause without a verdict is unused', () => {
    const text = `waivers:
  - { clause: 4.2.token-type, reason: r, owner: o, expires: 2026-12-31 }
  - { clause: 4.10.txid-length, reason: r, owner: o, expires: 2026-12-31 }
`
    const r = applyWaivers(run(), parseWaivers(text, 'w.yaml', KNOWN), '2026-11-24')
    expect(r.waivers!.noLongerNeeded.map((w) => w.clause)).toEqual(['4.2.token-type'])
    expect(r.waivers!.unused.map((w) => w.clause)).toEqual(['4.10.txid-length'])
    expect(r.verdict.result).toBe('FAILED')
  })

  test('blocked checks or missing shards beside waived failures make the run INCOMPLETE, still exit 0', () => {
    const waivers = parseWaivers(waiverYaml('2026-12-31'), 'w.yaml', KNOWN)
    const blocked = applyWaivers(run([{ id: 'balance::gross', clauses: ['2.3.gross'], status: 'blocked', reason: 'token refused' }]), waivers, '2026-11-24')
    expect(blocked.verdict.result).toBe('INCOMPLETE')
    expect(blocked.verdict.exitCode).toBe(0)
    const partial = buildResults(runInfo({ missingShards: ['2/2'] }), run().checks, CLAUSES)
    expect(applyWaivers(partial, waivers, '2026-11-24').verdict.headline).toMatch(/shard 2\/2 missing/)
  })

  test('applying waivers again replaces the earlier ones', () => {
    const once = applyWaivers(run(), parseWaivers(waiverYaml('2026-12-31'), 'w.yaml', KNOWN), '2026-11-24')
    const again = applyWaivers(once, [], '2026-11-24')
    expect(again.checks.some((c) => c.waiver)).toBe(false)
    expect(again.verdict.result).toBe('FAILED')
  })

  test('a kit error (no failed clause) cannot be waived', () => {
    const r = applyWaivers(buildResults(runInfo(), [check({ id: 'auth/tokens::(suite error)', status: 'failed', message: 'boom' })], CLAUSES), [], '2026-11-24')
    expect(r.verdict.result).toBe('FAILED')
  })
})

describe('draftWaivers', () => {
  test('drafts one entry per failed clause, refused until filled in', () => {
    const text = draftWaivers(run())
    expect(text).toMatch(/# failed by auth\/tokens::expiry: expected 3600, got 60/)
    expect(() => parseWaivers(text, 'draft.yaml', KNOWN)).toThrow(/draft\.yaml:\d+: waivers\[0\]\.reason must not be empty/)
    const filled = text.replace('reason: ""', 'reason: known').replace('owner: ""', 'owner: me').replace('expires: ""', 'expires: 2026-12-31')
    const waivers = parseWaivers(filled, 'draft.yaml', KNOWN)
    expect(waivers.map((w) => w.clause)).toEqual(['4.2.expires-default'])
    expect(applyWaivers(run(), waivers, '2026-11-24').verdict.result).toBe('CONDITIONAL PASS')
  })

  test('a run without failures drafts an empty list', () => {
    const text = draftWaivers(buildResults(runInfo(), [check({ id: 'a::b', clauses: ['4.2.token-type'] })], CLAUSES))
    expect(parseWaivers(text, 'draft.yaml', KNOWN)).toEqual([])
  })
})
