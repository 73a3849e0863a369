// Balance (interface §2.3, §4.8, §4.9, §4.13): the three shapes and how their numbers relate. Each
// field fails its own clause; the schema of specs/openapi.yaml then checks what is left of the shape.
import { show } from '../../harness/assertions.ts'
import { check, type CheckContext } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { expectDateTime, type Json } from './fixtures.ts'
import { readAmount } from '../../generators/amounts.ts'

const publicBalance = (t: CheckContext) => givenBalance(t, '4.8.status-200', () => t.base.get('/api/balance'), 'the public balance (GET /api/balance)')
const bcbBalance = (t: CheckContext) => givenBalance(t, '4.9.status-200', () => t.base.get('/accounts/balances'), 'the central-bank-style balance (GET /accounts/balances)')
const gatewayBalance = (t: CheckContext) => givenBalance(t, '4.13.status-200', () => t.gateway.get('/v1/account/balance'), 'the gateway balance (GET /v1/account/balance)')

check('public balance: 200 with grossBalance, blockedBalance, netBalance and consultedAt', {
  clauses: ['4.8.status-200', '2.3.public-gross-balance', '2.3.public-blocked-balance', '2.3.public-net-balance', '2.3.public-consulted-at'],
}, async (t) => {
  const ex = await t.base.get('/api/balance')
  t.expectStatus('4.8.status-200', ex, 200)
  const body = t.json('4.8.status-200', ex)
  expectNumber(t, '2.3.public-gross-balance', body, 'grossBalance', ex)
  expectNumber(t, '2.3.public-blocked-balance', body, 'blockedBalance', ex)
  expectNumber(t, '2.3.public-net-balance', body, 'netBalance', ex)
  expectDateTime(t, '2.3.public-consulted-at', body, 'consultedAt', ex)
  t.expectSchema('4.8.status-200', ex, 'getBalance')
})

check('central-bank-style balance: 200 with one item of eventDate and balanceAmount, overdraft 0', {
  clauses: ['4.9.status-200', '2.3.bcb-data-array', '2.3.bcb-event-date', '2.3.bcb-available', '2.3.bcb-blocked', '2.3.bcb-overdraft-zero'],
}, async (t) => {
  const ex = await t.base.get('/accounts/balances')
  t.expectStatus('4.9.status-200', ex, 200)
  const body = t.json('4.9.status-200', ex)
  const data = body.data
  t.expectThat('2.3.bcb-data-array', 'data', Array.isArray(data) && data.length === 1, 'an array of one item', Array.isArray(data) ? `${data.length} items` : show(data), ex)
  const item = firstItem(t, '2.3.bcb-available', body, ex)
  expectDateTime(t, '2.3.bcb-event-date', item, 'eventDate', ex, 'data[0].')
  expectNumber(t, '2.3.bcb-available', item.balanceAmount, 'available', ex, 'data[0].balanceAmount.')
  expectNumber(t, '2.3.bcb-blocked', item.balanceAmount, 'blocked', ex, 'data[0].balanceAmount.')
  t.expectEqual('2.3.bcb-overdraft-zero', 'data[0].balanceAmount.overdraft', item.balanceAmount.overdraft, 0, ex)
  t.expectSchema('4.9.status-200', ex, 'getAccountBalances')
})

check('gateway balance: 200 with id, totalBalance, blockedBalance, availableBalance and consultedAt', {
  clauses: ['4.13.status-200', '2.3.gateway-id', '2.3.gateway-total-balance', '2.3.gateway-blocked-balance', '2.3.gateway-available-balance', '2.3.gateway-consulted-at'],
}, async (t) => {
  const ex = await t.gateway.get('/v1/account/balance')
  t.expectStatus('4.13.status-200', ex, 200)
  const body = t.json('4.13.status-200', ex)
  t.string('2.3.gateway-id', 'id', body.id, ex, { expected: 'a string (the account id)' })
  expectNumber(t, '2.3.gateway-total-balance', body, 'totalBalance', ex)
  expectNumber(t, '2.3.gateway-blocked-balance', body, 'blockedBalance', ex)
  expectNumber(t, '2.3.gateway-available-balance', body, 'availableBalance', ex)
  expectDateTime(t, '2.3.gateway-consulted-at', body, 'consultedAt', ex)
  t.expectSchema('4.13.status-200', ex, 'getGatewayBalance')
})

check('public and central-bank-style balances agree: gross = available + blocked, blocked = blocked, net = available', {
  alone: ALONE.balances,
  clauses: ['2.3.gross-equals-available-plus-blocked', '2.3.blocked-equals-blocked', '2.3.net-equals-available'],
}, async (t) => {
  const pub = await publicBalance(t)
  const bcb = await bcbBalance(t)
  const amount = await t.given('central-bank-style available and blocked in reais (GET /accounts/balances)', () => {
    t.expectSchema('4.9.status-200', bcb.ex, 'getAccountBalances')
    const { balanceAmount } = firstItem(t, '2.3.bcb-available', bcb.body, bcb.ex)
    const [available, blocked] = [readAmount(balanceAmount.available, { numberOnly: true }), readAmount(balanceAmount.blocked, { numberOnly: true })]
    t.expectThat('2.3.amounts-in-reais', 'available and blocked', available !== undefined && blocked !== undefined, 'numbers of reais', show(balanceAmount), bcb.ex)
    return { available: available!, blocked: blocked!, shown: balanceAmount }
  })
  const pairs: [string, string, unknown, number][] = [
    ['2.3.gross-equals-available-plus-blocked', 'grossBalance = available + blocked', pub.body.grossBalance, amount.available + amount.blocked],
    ['2.3.blocked-equals-blocked', 'blockedBalance = blocked', pub.body.blockedBalance, amount.blocked],
    ['2.3.net-equals-available', 'netBalance = available', pub.body.netBalance, amount.available],
  ]
  for (const [clause, rule, got, expectedCents] of pairs) {
    t.expectThat(clause, rule, readAmount(got, { numberOnly: true }) === expectedCents, (expectedCents / 100).toFixed(2), `${show(got)} (central-bank-style: ${show(amount.shown)})`, pub.ex)
  }
})

check('gateway balance: totalBalance = availableBalance + blockedBalance', {
  clauses: ['2.3.gateway-total-equals-available-plus-blocked'],
}, async (t) => {
  const { ex, body } = await gatewayBalance(t)
  const [total, available, blocked] = [readAmount(body.totalBalance, { numberOnly: true }), readAmount(body.availableBalance, { numberOnly: true }), readAmount(body.blockedBalance, { numberOnly: true })]
  const adds = total !== undefined && available !== undefined && blocked !== undefined && total === available + blocked
  t.expectThat('2.3.gateway-total-equals-available-plus-blocked', 'totalBalance = availableBalance + blockedBalance', adds, 'equal to the cent',
    `total ${show(body.totalBalance)}, available ${show(body.availableBalance)}, blocked ${show(body.blockedBalance)}`, ex)
})

check('every balance value of the three shapes is reais with at most two decimals', { clauses: ['2.3.amounts-in-reais'] }, async (t) => {
  const pub = await publicBalance(t)
  const bcb = await bcbBalance(t)
  const gw = await gatewayBalance(t)
  const amount = await t.given('data[0].balanceAmount (GET /accounts/balances)', () => firstItem(t, '2.3.bcb-available', bcb.body, bcb.ex).balanceAmount)
  const values: [string, unknown, Exchange][] = [
    ...fieldsOf(pub.body, ['grossBalance', 'blockedBalance', 'netBalance'], pub.ex),
    ...fieldsOf(amount, ['available', 'blocked', 'overdraft'], bcb.ex, 'balanceAmount.'),
    ...fieldsOf(gw.body, ['totalBalance', 'availableBalance', 'blockedBalance'], gw.ex, 'gateway '),
  ]
  for (const [field, value, ex] of values) {
    t.expectThat('2.3.amounts-in-reais', `${field} in reais`, readAmount(value, { numberOnly: true }) !== undefined, 'a number with at most two decimals', show(value), ex)
  }
})

/** One balance answer read as the input of a rule: 200 and its JSON object, a precondition. */
function givenBalance(t: CheckContext, clause: string, read: () => Promise<Exchange>, what: string): Promise<{ ex: Exchange; body: Json }> {
  return t.given(what, async () => {
    const ex = await read()
    t.expectStatus(clause, ex, 200)
    return { ex, body: t.json(clause, ex) }
  })
}

/** data[0] of GET /accounts/balances with its balanceAmount object, or a failure of `clause`. */
function firstItem(t: CheckContext, clause: string, body: Json, ex: Exchange): Json & { balanceAmount: Json } {
  const data = body.data
  const item = Array.isArray(data) ? (data[0] as Json | undefined) : undefined
  const amount = item?.balanceAmount
  const isObject = amount !== null && typeof amount === 'object' && !Array.isArray(amount)
  t.expectThat(clause, 'data[0].balanceAmount', item !== undefined && isObject, 'an object', show(data), ex)
  return item as Json & { balanceAmount: Json }
}

/** `field` of `obj` is present and a number, or `clause` fails. */
function expectNumber(t: CheckContext, clause: string, obj: Json, field: string, ex: Exchange, where = ''): void {
  t.number(clause, `${where}${field}`, obj[field], ex)
}

/** `[name, value, answer]` of each of `fields` of `obj`, the name prefixed. */
function fieldsOf(obj: Json, fields: string[], ex: Exchange, prefix = ''): [string, unknown, Exchange][] {
  return fields.map((f) => [`${prefix}${f}`, obj[f], ex])
}
