// Balance (interface §2.3, §4.8, §4.9, §4.13): the three shapes and how their numbers relate.
import { check } from '../../harness/check.ts'
import { fail, jsonObject, show } from '../../harness/assertions.ts'
import type { Exchange } from '../../harness/exchange.ts'

/** Exact integer cents of a reais amount; undefined when it has more than two decimals. */
function cents(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined
  const c = Math.round(value * 100)
  return Math.abs(value * 100 - c) < 1e-6 ? c : undefined
}

function firstItem(ex: Exchange): Record<string, unknown> & { balanceAmount: Record<string, unknown> } {
  const data = jsonObject(ex).data
  const item = Array.isArray(data) ? (data[0] as Record<string, unknown> | undefined) : undefined
  const amount = item?.balanceAmount
  if (!item || amount === null || typeof amount !== 'object') fail('data[0].balanceAmount (2.3)', 'an object', show(data), ex)
  return item as Record<string, unknown> & { balanceAmount: Record<string, unknown> }
}

check('public balance: 200 with grossBalance, blockedBalance, netBalance and consultedAt', {
  clauses: ['4.8.status-200', '2.3.public-gross-balance', '2.3.public-blocked-balance', '2.3.public-net-balance', '2.3.public-consulted-at'],
}, async (t) => {
  const ex = await t.base.get('/api/balance')
  t.expectStatus(ex, 200)
  t.expectSchema(ex, 'getBalance')
})

check('central-bank-style balance: 200 with one item of eventDate and balanceAmount, overdraft 0', {
  clauses: ['4.9.status-200', '2.3.bcb-data-array', '2.3.bcb-event-date', '2.3.bcb-available', '2.3.bcb-blocked', '2.3.bcb-overdraft-zero'],
}, async (t) => {
  const ex = await t.base.get('/accounts/balances')
  t.expectStatus(ex, 200)
  t.expectSchema(ex, 'getAccountBalances')
  const data = jsonObject(ex).data as unknown[]
  if (data.length !== 1) t.fail('data holds one item (2.3)', '1 item', `${data.length} items`, ex)
  const overdraft = firstItem(ex).balanceAmount.overdraft
  if (overdraft !== 0) t.fail('overdraft is 0 (2.3)', 'the number 0', show(overdraft), ex)
})

check('gateway balance: 200 with id, totalBalance, blockedBalance, availableBalance and consultedAt', {
  clauses: ['4.13.status-200', '2.3.gateway-id', '2.3.gateway-total-balance', '2.3.gateway-blocked-balance', '2.3.gateway-available-balance', '2.3.gateway-consulted-at'],
}, async (t) => {
  const ex = await t.gateway.get('/v1/account/balance')
  t.expectStatus(ex, 200)
  t.expectSchema(ex, 'getGatewayBalance')
})

check('public and central-bank-style balances agree: gross = available + blocked, blocked = blocked, net = available', {
  clauses: ['2.3.gross-equals-available-plus-blocked', '2.3.blocked-equals-blocked', '2.3.net-equals-available'],
}, async (t) => {
  const publicEx = await t.base.get('/api/balance')
  const bcbEx = await t.base.get('/accounts/balances')
  t.expectStatus(publicEx, 200)
  t.expectStatus(bcbEx, 200)
  t.expectSchema(bcbEx, 'getAccountBalances')
  const pub = jsonObject(publicEx)
  const amount = firstItem(bcbEx).balanceAmount
  const available = cents(amount.available)
  const blocked = cents(amount.blocked)
  const pairs: [string, unknown, number | undefined][] = [
    ['grossBalance = available + blocked (2.3)', pub.grossBalance, available === undefined || blocked === undefined ? undefined : available + blocked],
    ['blockedBalance = blocked (2.3)', pub.blockedBalance, blocked],
    ['netBalance = available (2.3)', pub.netBalance, available],
  ]
  for (const [rule, got, expectedCents] of pairs) {
    if (expectedCents === undefined || cents(got) !== expectedCents) {
      t.fail(rule, expectedCents === undefined ? 'numbers in reais' : (expectedCents / 100).toFixed(2), `${show(got)} (central-bank-style: ${show(amount)})`, publicEx)
    }
  }
})

check('gateway balance: totalBalance = availableBalance + blockedBalance', {
  clauses: ['2.3.gateway-total-equals-available-plus-blocked'],
}, async (t) => {
  const ex = await t.gateway.get('/v1/account/balance')
  t.expectStatus(ex, 200)
  const body = jsonObject(ex)
  const [total, available, blocked] = [cents(body.totalBalance), cents(body.availableBalance), cents(body.blockedBalance)]
  if (total === undefined || available === undefined || blocked === undefined || total !== available + blocked) {
    t.fail('totalBalance = availableBalance + blockedBalance (2.3)', 'equal to the cent',
      `total ${show(body.totalBalance)}, available ${show(body.availableBalance)}, blocked ${show(body.blockedBalance)}`, ex)
  }
})

check('every balance value of the three shapes is reais with at most two decimals', { clauses: ['2.3.amounts-in-reais'] }, async (t) => {
  const publicEx = await t.base.get('/api/balance')
  const bcbEx = await t.base.get('/accounts/balances')
  const gatewayEx = await t.gateway.get('/v1/account/balance')
  for (const ex of [publicEx, bcbEx, gatewayEx]) t.expectStatus(ex, 200)
  const amount = firstItem(bcbEx).balanceAmount
  const pub = jsonObject(publicEx)
  const gw = jsonObject(gatewayEx)
  const values: [string, unknown, Exchange][] = [
    ['grossBalance', pub.grossBalance, publicEx], ['blockedBalance', pub.blockedBalance, publicEx], ['netBalance', pub.netBalance, publicEx],
    ['balanceAmount.available', amount.available, bcbEx], ['balanceAmount.blocked', amount.blocked, bcbEx], ['balanceAmount.overdraft', amount.overdraft, bcbEx],
    ['totalBalance', gw.totalBalance, gatewayEx], ['availableBalance', gw.availableBalance, gatewayEx], ['blockedBalance (gateway)', gw.blockedBalance, gatewayEx],
  ]
  for (const [field, value, ex] of values) {
    if (cents(value) === undefined) t.fail(`${field} in reais (2.3)`, 'a number with at most two decimals', show(value), ex)
  }
})
