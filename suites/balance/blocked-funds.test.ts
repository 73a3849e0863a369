// What each balance field means (interface §2.3, §3.6), judged where the meaning shows: with funds
// actually blocked (a pending cash-out), grossBalance is available plus blocked, netBalance the
// available part only, the gateway's blockedBalance the amount held and its totalBalance the sum; a
// known credit moves every shape by that many reais (not cents); consultedAt is the time of its own
// query. At rest blocked is 0, where gross equals net and total equals available whatever a target
// computes, so these rules are judged only once the pending payment holds funds.
import { show } from '../../harness/assertions.ts'
import { check, type CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { ALONE } from '../../harness/schedule.ts'
import { cashOut, receivedRecord } from '../common/records.ts'
import { inOrder } from '../common/waves.ts'
import { finalCents, signed, type Json } from './fixtures.ts'
import { TRUNCATION_MS } from '../common/times.ts'


/** Cents of a balance value, rounded (its decimals are judged on their own, by the field's clause). */
const roundCents = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v * 100) : Number.NaN)
/** True when the number is written with at most two decimals (100.000000001 is not, 0.29 is). */
const twoDecimals = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v) && Number(v.toFixed(2)) === v
const reais = (c: number) => (c / 100).toFixed(2)

interface Reading {
  pub: Json
  bcb: Json
  gw: Json
  publicEx: Exchange
  bcbEx: Exchange
  gatewayEx: Exchange
}

/** The three balance answers, each 200 with a JSON object: the input of the rules (a precondition). */
function givenReading(t: CheckContext, when: string): Promise<Reading> {
  return t.given(`the three balances ${when} (GET /api/balance, /accounts/balances, /v1/account/balance)`, async () => {
    // the three at once (one round trip): nothing else moves this account's money meanwhile (ALONE.balances)
    const [publicEx, bcbEx, gatewayEx] = await Promise.all([t.base.get('/api/balance'), t.base.get('/accounts/balances'), t.gateway.get('/v1/account/balance')])
    t.expectStatus('4.8.status-200', publicEx, 200)
    t.expectStatus('4.9.status-200', bcbEx, 200)
    t.expectStatus('4.13.status-200', gatewayEx, 200)
    const data = t.json('2.3.bcb-data-array', bcbEx).data
    const bcb = (Array.isArray(data) ? (data[0] as Json | undefined)?.balanceAmount : undefined) as Json | undefined
    if (bcb === null || typeof bcb !== 'object') return t.fail('2.3.bcb-data-array', 'data[0].balanceAmount', 'an object', show(data), bcbEx)
    return { pub: t.json('2.3.public-net-balance', publicEx), bcb, gw: t.json('2.3.gateway-total-balance', gatewayEx), publicEx, bcbEx, gatewayEx }
  })
}

check('while a pending cash-out holds funds blocked: netBalance drops by it, grossBalance = net + blocked, the gateway holds it in blockedBalance, totalBalance = available + blocked, availableBalance = netBalance', {
  alone: ALONE.balances,
  clauses: ['2.3.public-net-balance', '2.3.public-gross-balance', '2.3.gateway-blocked-balance', '2.3.gateway-total-balance', '2.3.gateway-available-balance'],
  needs: ['control', 'mutating'],
}, async (t) => {
  const before = await givenReading(t, 'before the cash-out')
  const out = await cashOut(t)
  try {
    const [amount, after] = await inOrder(finalCents(t, out), givenReading(t, 'while the cash-out is pending'))
    // Funds are blocked: the central-bank-style surface shows them (its own clauses judge it); else nothing here can show.
    const bcbBlocked = roundCents(after.bcb.blocked)
    await t.given('funds blocked by the pending cash-out', () => t.expectThat('3.6.accept-moves-to-blocked', 'central-bank-style blocked', bcbBlocked > 0, 'above 0', show(after.bcb.blocked), after.bcbEx))
    const [net0, net1] = [roundCents(before.pub.netBalance), roundCents(after.pub.netBalance)]
    t.expectThat('2.3.public-net-balance', 'netBalance (available for use) drops by the blocked cash-out', net1 - net0 === -amount, `a change of ${signed(-amount)}`,
      `netBalance ${show(before.pub.netBalance)} then ${show(after.pub.netBalance)}`, after.publicEx)
    t.expectAmount('2.3.public-net-balance', 'netBalance = central-bank-style available', after.pub.netBalance, after.bcb.available as number, after.publicEx)
    const [gross, blocked] = [roundCents(after.pub.grossBalance), roundCents(after.pub.blockedBalance)]
    t.expectThat('2.3.public-gross-balance', 'grossBalance = available + blocked, with funds blocked', gross === net1 + blocked && blocked > 0, `${reais(net1 + blocked)} (netBalance ${show(after.pub.netBalance)} + blockedBalance ${show(after.pub.blockedBalance)}, above netBalance)`,
      show(after.pub.grossBalance), after.publicEx)
    const [gwBlocked0, gwBlocked1] = [roundCents(before.gw.blockedBalance), roundCents(after.gw.blockedBalance)]
    t.expectThat('2.3.gateway-blocked-balance', 'gateway blockedBalance holds the pending cash-out', gwBlocked1 - gwBlocked0 === amount && gwBlocked1 === bcbBlocked, `a change of ${signed(amount)}, to ${reais(bcbBlocked)} (the blocked funds)`,
      `${show(before.gw.blockedBalance)} then ${show(after.gw.blockedBalance)}`, after.gatewayEx)
    const [total, available] = [roundCents(after.gw.totalBalance), roundCents(after.gw.availableBalance)]
    t.expectThat('2.3.gateway-total-balance', 'gateway totalBalance = availableBalance + blockedBalance, with funds blocked', total === available + gwBlocked1, reais(available + gwBlocked1),
      `totalBalance ${show(after.gw.totalBalance)} (availableBalance ${show(after.gw.availableBalance)}, blockedBalance ${show(after.gw.blockedBalance)})`, after.gatewayEx)
    t.expectThat('2.3.gateway-available-balance', 'gateway availableBalance is reais with at most two decimals', twoDecimals(after.gw.availableBalance), 'a number like 10.5 or 10.25', show(after.gw.availableBalance), after.gatewayEx)
    t.expectAmount('2.3.gateway-available-balance', 'gateway availableBalance = public netBalance (the funds available for use)', after.gw.availableBalance, after.pub.netBalance as number, after.gatewayEx)
  } finally {
    await t.control.settleTransaction(out.id)
  }
})

check('gateway balance: availableBalance is reais with at most two decimals and equals the public netBalance', {
  alone: ALONE.balances,
  clauses: ['2.3.gateway-available-balance'],
}, async (t) => {
  const r = await givenReading(t, 'at rest')
  t.expectThat('2.3.gateway-available-balance', 'gateway availableBalance is reais with at most two decimals', twoDecimals(r.gw.availableBalance), 'a number like 10.5 or 10.25', show(r.gw.availableBalance), r.gatewayEx)
  t.expectAmount('2.3.gateway-available-balance', 'gateway availableBalance = public netBalance', r.gw.availableBalance, r.pub.netBalance as number, r.gatewayEx)
})

check('a credit of R$ 12.34 raises every balance shape by 12.34 reais: the values are reais, not cents', {
  alone: ALONE.balances,
  clauses: ['2.3.amounts-in-reais'],
  needs: ['control', 'mutating'],
}, async (t) => {
  const before = await givenReading(t, 'before the credit')
  const paid = await receivedRecord(t, { cents: 1_234 })
  const [amount, after] = await inOrder(finalCents(t, paid), givenReading(t, 'after the credit'))
  const moved: [string, unknown, unknown, Exchange][] = [
    ['public netBalance', before.pub.netBalance, after.pub.netBalance, after.publicEx],
    ['central-bank-style available', before.bcb.available, after.bcb.available, after.bcbEx],
    ['gateway availableBalance', before.gw.availableBalance, after.gw.availableBalance, after.gatewayEx],
  ]
  for (const [field, b, a, ex] of moved) {
    t.expectThat('2.3.amounts-in-reais', `${field} grows by the credit's finalAmount, in reais`, roundCents(a) - roundCents(b) === amount, `a change of ${signed(amount)}`, `${show(b)} then ${show(a)}`, ex)
  }
})

check('gateway balance: consultedAt is the moment of its own query, on the target clock, query after query', {
  clauses: ['2.3.gateway-consulted-at'],
  needs: ['control'],
}, async (t) => {
  // The target's own clock (a driver without GET /control/clock skips the check): two seconds apart, the kit's clock and its skew allowance could not tell.
  const clock = async () => Date.parse((await t.control.clock()).now)
  const skew = 0
  for (const round of [1, 2]) {
    // A pause longer than a second's truncation: a consultedAt served from an earlier query is older than this one.
    if (round === 2) await new Promise((resolve) => setTimeout(resolve, 2 * TRUNCATION_MS + 200))
    const start = await clock()
    const ex = await t.gateway.get('/v1/account/balance')
    const end = await clock()
    t.expectStatus('2.3.gateway-consulted-at', ex, 200)
    const value = t.json('2.3.gateway-consulted-at', ex).consultedAt
    const at = typeof value === 'string' ? Date.parse(value) : Number.NaN
    t.expectThat('2.3.gateway-consulted-at', `consultedAt of query ${round} is the moment of that query`, at >= start - skew - TRUNCATION_MS && at <= end + skew,
      `between ${new Date(start).toISOString()} and ${new Date(end).toISOString()}${skew ? ` (± ${skew / 60_000} min clock skew)` : ''}`, show(value), ex)
  }
})
