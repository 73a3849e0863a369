// The three balance shapes (§2.3: GET /api/balance, GET /accounts/balances, GET {gateway}/v1/account/balance)
// read as the input of a rule between readings: a movement, an equivalence, a model's expectation.
// One reading for every area; the shapes' own fields are the balance shape checks' business.
// Not a suite file: it declares no check.
import { show } from '../../harness/assertions.ts'
import type { CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { readAmount } from '../../generators/amounts.ts'
import { targetTime, type TargetTime } from '../../harness/target-clock.ts'

type Json = Record<string, unknown>

/** The three answers as they came: each 200 with a JSON object; no amount read yet. */
export interface BalanceAnswers {
  pub: Json
  /** data[0].balanceAmount of the central-bank-style shape ({} when it has none) */
  bcb: Json
  gw: Json
  publicEx: Exchange
  bcbEx: Exchange
  gatewayEx: Exchange
  /** data[0].eventDate of the central-bank-style shape */
  eventDate: unknown
  /** With a timed read: the target's clock before and after the three requests. */
  span?: Span
}

/** A stretch of the target's clock. */
export interface Span { since: TargetTime; until: TargetTime }

/** The three shapes in exact cents. */
export interface Balances {
  public: { gross: number; blocked: number; net: number; consultedAt: unknown }
  bcb: { available: number; blocked: number; eventDate: unknown }
  gateway: { total: number; blocked: number; available: number }
  publicEx: Exchange
  bcbEx: Exchange
  gatewayEx: Exchange
}

const TITLE = (when: string) => `the three balances${when ? ` ${when}` : ''} (GET /api/balance, /accounts/balances, /v1/account/balance)`

/**
 * The three answers, asked at once (one round trip: a distant target makes every one count), each
 * 200 with a JSON object: a precondition. A reader that judges the amounts itself (the ledger model
 * fails the movement a wrong amount breaks) takes them from here as they came.
 */
export function givenBalanceAnswers(t: CheckContext, when = '', timed: Timed = false): Promise<BalanceAnswers> {
  return t.given(TITLE(when), () => balanceAnswers(t, timed))
}

/**
 * The three balances in exact cents (readAmount), read as the input of a rule between readings (a
 * movement, an equivalence): a precondition. The central-bank-style shape must carry its data[0]
 * and a value that is not a number of reais with at most two decimals blocks the check, naming
 * its own 2.3 clause.
 */
export function givenBalances(t: CheckContext, when = ''): Promise<Balances> {
  return t.given(TITLE(when), async () => {
    const { pub, gw, publicEx, bcbEx, gatewayEx } = await balanceAnswers(t)
    const data = t.json('2.3.bcb-data-array', bcbEx).data
    if (!Array.isArray(data) || data.length === 0) t.fail('2.3.bcb-data-array', 'data', 'an array with one item', show(data), bcbEx)
    const item = data[0] as Json | undefined
    const amount = item?.balanceAmount as Json | undefined
    if (!item || amount === null || typeof amount !== 'object') t.fail('2.3.bcb-available', 'data[0].balanceAmount', 'an object', show(data), bcbEx)
    return {
      public: {
        gross: centsField(t, '2.3.public-gross-balance', pub, 'grossBalance', publicEx, 'public'),
        blocked: centsField(t, '2.3.public-blocked-balance', pub, 'blockedBalance', publicEx, 'public'),
        net: centsField(t, '2.3.public-net-balance', pub, 'netBalance', publicEx, 'public'),
        consultedAt: pub.consultedAt,
      },
      bcb: {
        available: centsField(t, '2.3.bcb-available', amount, 'available', bcbEx, 'central-bank-style'),
        blocked: centsField(t, '2.3.bcb-blocked', amount, 'blocked', bcbEx, 'central-bank-style'),
        eventDate: item.eventDate,
      },
      gateway: {
        total: centsField(t, '2.3.gateway-total-balance', gw, 'totalBalance', gatewayEx, 'gateway'),
        blocked: centsField(t, '2.3.gateway-blocked-balance', gw, 'blockedBalance', gatewayEx, 'gateway'),
        available: centsField(t, '2.3.gateway-available-balance', gw, 'availableBalance', gatewayEx, 'gateway'),
      },
      publicEx, bcbEx, gatewayEx,
    }
  })
}

/**
 * `timed`: read between two readings of the target's clock, so the answers' times can be judged:
 * true reads the first one here, a reading already taken after what the answers follow (the clock
 * after a move) stands for it (one round trip fewer; the span then begins a little earlier).
 */
export type Timed = boolean | TargetTime

async function balanceAnswers(t: CheckContext, timed: Timed = false): Promise<BalanceAnswers> {
  const since = timed === true ? await targetTime(t) : timed || undefined
  const [publicEx, bcbEx, gatewayEx] = await Promise.all([t.base.get('/api/balance'), t.base.get('/accounts/balances'), t.gateway.get('/v1/account/balance')])
  const until = timed ? await targetTime(t) : undefined
  t.expectStatus('2.3.public-net-balance', publicEx, 200)
  t.expectStatus('2.3.bcb-data-array', bcbEx, 200)
  t.expectStatus('2.3.gateway-available-balance', gatewayEx, 200)
  const data = t.json('2.3.bcb-data-array', bcbEx).data as Json[] | undefined
  const bcb = ((Array.isArray(data) ? data[0]?.balanceAmount : undefined) ?? {}) as Json
  const eventDate = Array.isArray(data) ? data[0]?.eventDate : undefined
  return { pub: t.json('2.3.public-net-balance', publicEx), bcb, gw: t.json('2.3.gateway-available-balance', gatewayEx), publicEx, bcbEx, gatewayEx, eventDate, ...(since && until ? { span: { since, until } } : {}) }
}

/** A balance value: a number (its field's clause) of reais with at most two decimals (2.3.amounts-in-reais). */
function centsField(t: CheckContext, clause: string, body: Json, field: string, ex: Exchange, where: string): number {
  const value = body[field]
  if (typeof value !== 'number') t.fail(clause, `${where} ${field}`, 'a number', show(value), ex)
  const c = readAmount(value)
  if (c === undefined) t.fail('2.3.amounts-in-reais', `${where} ${field}`, 'a number of reais with at most two decimals', show(value), ex)
  return c
}
