// Run by vocabulary.test.ts through a nested vitest: the comparison verbs of the check context,
// each failing case a check of its own (a check stops at its first failure).
import { check } from '../../../../../../harness/check.ts'

const ID = '2.3.gateway-id'
const TOTAL = '2.3.gateway-total-balance'

check('the four verbs pass when their comparison holds', { clauses: [ID] }, (t) => {
  t.expectEqual(ID, 'deep equality', { a: [1, { b: 'x' }] }, { a: [1, { b: 'x' }] })
  t.expectEqual(ID, 'a -0 from a JSON body is 0', JSON.parse('-0'), 0)
  t.expectOneOf(ID, 'one of', 'CONCLUIDA', ['ATIVA', 'CONCLUIDA'])
  t.expectOneOf(ID, 'one of, deeply', { s: 1 }, [{ s: 0 }, { s: 1 }])
  t.expectAmount(ID, 'a number against a decimal string', 10.5, '10.50')
  t.expectAmount(ID, 'a decimal string against a number', '10.50', 10.5)
  t.expectAmount(ID, 'trailing zeros are no digits', '7.1', 7.10)
  t.expectAmount(ID, 'beyond two places, every digit counts', '10.504', 10.504)
  t.expectAmount(ID, 'as a number', 30, '30.00', undefined, { as: 'number' })
  t.expectAmount(ID, 'as a string', '61.02', 61.02, undefined, { as: 'string' })
  t.expectThat(ID, 'a rule that holds', true, 'anything', 'whatever was seen')
})

check('expectEqual fails with the rule, both values and the exchange', { clauses: [ID, TOTAL] }, async (t) => {
  const ex = await t.gateway.get('/v1/account/balance')
  t.expectStatus(ID, ex, 200)
  t.expectEqual(TOTAL, 'totalBalance', t.json(TOTAL, ex).totalBalance, 2, ex)
})

check('expectEqual compares deeply', { clauses: [ID] }, (t) => {
  t.expectEqual(ID, 'items', [1, 2], [1, 3])
})

check('expectEqual names an absent value', { clauses: [ID] }, (t) => {
  t.expectEqual(ID, 'txid', undefined, 'abc')
})

check('expectEqual tells a string from a number', { clauses: [ID] }, (t) => {
  t.expectEqual(ID, 'revisao', '0', 0)
})

check('expectOneOf fails naming every allowed value', { clauses: [ID] }, (t) => {
  t.expectOneOf(ID, 'status is a charge status', 'PAGA', ['ATIVA', 'CONCLUIDA'])
})

check('expectAmount fails showing the expected amount in reais', { clauses: [ID] }, (t) => {
  t.expectAmount(ID, 'valor', '10.49', 10.5)
})

check('expectAmount fails on what is not an amount', { clauses: [ID] }, (t) => {
  t.expectAmount(ID, 'valor', 'ten', '10.00')
})

check('expectAmount fails, not crashes, on an expected value that is no amount', { clauses: [ID] }, (t) => {
  t.expectAmount(ID, 'totalBalance = available + blocked', 10, Number.NaN)
})

check('expectAmount is exact: 10.504 is not 10.50', { clauses: [ID] }, (t) => {
  t.expectAmount(ID, 'value', 10.504, '10.50')
})

check('expectAmount is exact: a float sum is not its rounding', { clauses: [ID] }, (t) => {
  t.expectAmount(ID, 'sum', 0.1 + 0.2, '0.30')
})

check('expectAmount as a number refuses the same amount as a string', { clauses: [ID] }, (t) => {
  t.expectAmount(ID, 'payment.amount', '30.00', 30, undefined, { as: 'number' })
})

check('the shape verbs return the value typed when the shape holds', { clauses: [ID] }, (t) => {
  const s: string = t.string(ID, 'id', 'acc-1')
  const n: number = t.number(ID, 'total', 3, undefined, { integer: true, min: 0 })
  const o: Record<string, unknown> = t.object(ID, 'body', { a: 1 })
  const d: string = t.dateTime(ID, 'consultedAt', '2026-01-01T00:00:00Z', undefined, { utc: true })
  const absent: string | undefined = t.string(ID, 'motivo', undefined, undefined, { optional: true })
  t.expectEqual(ID, 'the values come back', [s, n, o, d, absent], ['acc-1', 3, { a: 1 }, '2026-01-01T00:00:00Z', undefined])
  t.string(ID, 'phone', '11987654321', undefined, { pattern: /^\d{10,}$/, expected: 'a string of at least 10 digits' })
})

check('t.string fails with the rule, the shape and what came, typed', { clauses: [ID, TOTAL] }, async (t) => {
  const ex = await t.gateway.get('/v1/account/balance')
  t.string(TOTAL, 'totalBalance', t.json(TOTAL, ex).totalBalance, ex)
})

check('t.string fails on an absent value unless optional', { clauses: [ID] }, (t) => {
  t.string(ID, 'txid', undefined)
})

check('t.string with a pattern says what it stands for', { clauses: [ID] }, (t) => {
  t.string(ID, 'phone', '12-34', undefined, { pattern: /^\d{10,}$/, expected: 'a string of at least 10 digits' })
})

check('t.number fails on a number below its minimum', { clauses: [ID] }, (t) => {
  t.number(ID, 'metadata.total', -1, undefined, { integer: true, min: 0 })
})

check('t.object fails on an array', { clauses: [ID] }, (t) => {
  t.object(ID, 'balanceAmount', [1])
})

check('t.dateTime fails on a date that is no date-time', { clauses: [ID] }, (t) => {
  t.dateTime(ID, 'createdAt', '2026-02-30T10:00:00Z')
})

check('expectThat fails with a got that is a string as it is', { clauses: [ID] }, (t) => {
  t.expectThat(ID, 'qrCodeImage decodes to an image', false, 'a decodable image/png', 'bytes that are not image/png')
})

check('expectThat shows a got that is not a string', { clauses: [ID] }, (t) => {
  t.expectThat(ID, 'data', false, 'an array', { n: 1 })
})

check('a verb that fails inside t.given blocks the check', { clauses: [ID] }, async (t) => {
  await t.given('the available balance', () => t.expectThat(TOTAL, 'the available balance after the drain', false, 'below 100.00', '120.00 still available'))
  t.fail(ID, 'never reached', 'x', 'y')
})

check('a failing verb naming a clause its check does not name is a kit bug', { clauses: [ID] }, (t) => {
  t.expectEqual(TOTAL, 'totalBalance', 1, 2)
})

check('a passing verb naming a clause its check does not name is a kit bug too', { clauses: [ID] }, (t) => {
  t.expectEqual(TOTAL, 'totalBalance', 1, 1)
})

// t.case: a check over several cases judges every case it can reach.
const AVAILABLE = '2.3.gateway-available-balance'
const blockedCase = (t: Parameters<Parameters<typeof check>[2]>[0]) => t.given('the refund of the case', () => t.fail(ID, 'the refund', 'HTTP 200', 'HTTP 404'))

check('t.case: one unreachable case leaves the clauses the other cases verified passed', { clauses: [ID, TOTAL] }, async (t) => {
  for (const name of ['PAYMENT', 'REFUND_IN', 'WITHDRAW']) {
    await t.case(name, async () => {
      if (name === 'REFUND_IN') await blockedCase(t)
      t.expectEqual(ID, 'the case', name, name)
    })
  }
})

check('t.case: a clause only the unreachable case covers is blocked, the others passed', { clauses: [ID, TOTAL, AVAILABLE] }, async (t) => {
  await t.case('PAYMENT', () => t.expectEqual(ID, 'the case', 1, 1), { clauses: [ID, TOTAL] })
  await t.case('REFUND_IN', () => blockedCase(t), { clauses: [AVAILABLE] })
})

check('t.case: when no case is judged the check is inconclusive', { clauses: [ID] }, async (t) => {
  await t.case('REFUND_IN', () => t.inconclusive('several items match the refund'))
})

check('t.case: a failing case fails the check', { clauses: [ID] }, async (t) => {
  await t.case('PAYMENT', () => blockedCase(t))
  await t.case('WITHDRAW', () => t.expectEqual(ID, 'the case', 'WITHDRAW', 'PAYMENT'))
})
