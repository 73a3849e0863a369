// Observe's rules on hand-made sessions: each rule fails the clause it names on a session that
// breaks it, and gives no failure on sessions a conforming provider (or another reading) produces.
import { describe, expect, it } from 'vitest'
import { Judge } from '../../cli/observe/judge.ts'
import type { ObservedExchange } from '../../cli/observe/exchanges.ts'
import { BASE, charge, devolucao, E2E, ex, GATEWAY, item, page, TXID, view } from './exchanges.ts'

function judge(exchanges: ObservedExchange[]): { failed: string[]; passed: string[]; why: (clause: string) => string } {
  const j = new Judge()
  for (const e of exchanges) j.add(e)
  const tally = j.finish()
  expect(j.errors).toEqual([])
  expect([...tally.unknown]).toEqual([])
  const all = tally.clauses()
  return {
    failed: all.filter((t) => t.failed > 0).map((t) => t.clause),
    passed: all.filter((t) => t.failed === 0).map((t) => t.clause),
    why: (clause) => tally.get(clause)?.failures.map((f) => f.why).join('; ') ?? '',
  }
}

const COB = { calendario: { expiracao: 86400 }, valor: { original: '10.00' } }
const cobRead = (status: string) => ex('GET', `${BASE}/cob/${TXID}`, 200, charge(status))
const returnPath = `${BASE}/pix/${E2E}/devolucao/d1`

describe('state transitions the application saw, in order', () => {
  const cases: [string, ObservedExchange[], string | undefined, string | undefined][] = [
    ['a charge CONCLUIDA then ATIVA', [ex('PUT', `${BASE}/cob/${TXID}`, 201, charge('ATIVA'), { request: COB }), cobRead('CONCLUIDA'), cobRead('ATIVA')], '3.2.final-states', '3.2.pay-ativa-concluida'],
    ['a charge ATIVA then CONCLUIDA then CONCLUIDA', [ex('PUT', `${BASE}/cob/${TXID}`, 201, charge('ATIVA'), { request: COB }), cobRead('CONCLUIDA'), cobRead('CONCLUIDA')], undefined, '3.2.final-states'],
    ['a return DEVOLVIDO then EM_PROCESSAMENTO', [ex('PUT', returnPath, 201, devolucao('EM_PROCESSAMENTO'), { request: { valor: '1.00' } }), ex('GET', returnPath, 200, devolucao('DEVOLVIDO')), ex('GET', returnPath, 200, devolucao('EM_PROCESSAMENTO'))], '3.3.final-states', '3.3.settle-devolvido'],
    ['a return EM_PROCESSAMENTO then NAO_REALIZADO', [ex('PUT', returnPath, 201, devolucao('EM_PROCESSAMENTO'), { request: { valor: '1.00' } }), ex('GET', returnPath, 200, devolucao('NAO_REALIZADO'))], undefined, '3.3.fail-nao-realizado'],
    ['a new return answered DEVOLVIDO', [ex('PUT', returnPath, 201, devolucao('DEVOLVIDO'), { request: { valor: '1.00' } })], '3.3.create-em-processamento', undefined],
  ]
  it.each(cases)('%s', (_name, session, fails, passes) => {
    const r = judge(session)
    if (fails) expect(r.failed).toContain(fails)
    else expect(r.failed).toEqual([])
    if (passes) expect(r.passed).toContain(passes)
  })
})

describe('one record across surfaces', () => {
  const viewAt = (status: string, extra = {}) => ex('GET', `${BASE}/api/pix/transaction/101`, 200, view(status, extra))
  const listing = (i: Record<string, unknown>) => ex('GET', `${BASE}/api/transactions`, 200, page([i]))

  it('a listing between two views of one status shows it mapped', () => {
    const r = judge([viewAt('CONFIRMED'), listing(item('Confirmado')), viewAt('CONFIRMED')])
    expect(r.failed).toEqual([])
    expect(r.passed).toEqual(expect.arrayContaining(['2.2.status-map-confirmed', '2.1.view-current', '2.2.mask-cpf', '2.2.type-map-payment', '2.2.end-to-end-id']))
  })
  it('a status that moved on between the two views is no verdict on the mapping (§3.1 shows no transition)', () => {
    const r = judge([viewAt('PENDING'), listing(item('Error')), viewAt('CONFIRMED')])
    expect(r.failed).toEqual([])
    expect(r.passed).not.toContain('2.2.status-map-pending')
  })
  it('nor is a listing read long after the only view', () => {
    expect(judge([viewAt('PENDING'), ex('GET', `${BASE}/api/transactions`, 200, page([item('Error')]), { at: 60_000 })]).failed).toEqual([])
  })
  it('a status the view shows a moment before the listing, mapped otherwise, fails its mapping', () => {
    expect(judge([viewAt('CONFIRMED'), listing(item('Pendente'))]).failed).toEqual(['2.2.status-map-confirmed'])
  })
  it('an amount that differs fails it', () => {
    expect(judge([viewAt('CONFIRMED'), listing(item('Confirmado', { originalAmount: 12.51 }))]).failed).toEqual(['2.1.view-current'])
  })
  it('a document masked wrongly fails the mask, against the unmasked one in the view', () => {
    const r = judge([viewAt('CONFIRMED'), listing(item('Confirmado', { counterpart: { ...(item('x').counterpart as object), document: '***.982.247-26' } }))])
    expect(r.failed).toContain('2.2.mask-cpf')
  })
  it('a type mapped wrongly fails the type mapping', () => {
    expect(judge([viewAt('CONFIRMED', { type: 'WITHDRAW' }), listing(item('Confirmado', { operationType: 'Pix in', movementType: 'CREDIT' }))]).failed).toContain('2.2.type-map-withdraw')
  })
  it('a transaction the session saw listed and then not found in the single view fails the look-up', () => {
    expect(judge([listing(item('Confirmado')), ex('GET', `${BASE}/api/pix/transaction/101`, 404, { statusCode: 404, message: 'not found', error: 'Not Found' })]).failed).toEqual(['4.3.get-by-id'])
  })
})

describe('one exchange', () => {
  it('an error body whose statusCode is not the status fails 7.error-status-code-matches', () => {
    const r = judge([ex('GET', `${BASE}/api/pix/transaction/9`, 404, { statusCode: 400, message: 'x', error: 'Not Found' })])
    expect(r.failed).toEqual(['7.error-status-code-matches'])
  })
  it('either reason phrase the HTTP specifications gave a status is the reason phrase', () => {
    const body = (error: string) => ({ statusCode: 422, message: 'late', error })
    const r = judge([ex('PUT', returnPath, 422, body('Unprocessable Entity'), { request: { valor: '1.00' } }), ex('PUT', `${BASE}/pix/${E2E}/devolucao/d2`, 422, body('Unprocessable Content'), { request: { valor: '1.00' } })])
    expect(r.failed).toEqual([])
    expect(r.passed).toContain('7.error-reason-phrase')
  })
  it('error bodies the interface does not show (cash-in) are not judged', () => {
    const r = judge([ex('POST', `${BASE}/api/pix/cash-in`, 400, 'Bad Request', { request: { transaction: { value: 1 } }, responseType: 'text/plain' })])
    expect(r.failed).toEqual([])
    expect(r.passed).toEqual([])
  })
  it('a JSON body labelled text/plain fails 0.json-bodies', () => {
    expect(judge([ex('GET', `${BASE}/api/balance`, 200, JSON.stringify({ grossBalance: 1, blockedBalance: 0, netBalance: 1, consultedAt: '2026-11-20T12:00:00Z' }), { responseType: 'text/plain' })]).failed).toContain('0.json-bodies')
  })
  it('a page size above 100 served instead of refused fails 4.4.size-range; refused, it passes', () => {
    expect(judge([ex('GET', `${BASE}/api/transactions?size=101`, 200, page([]))]).failed).toEqual(['4.4.size-range'])
    expect(judge([ex('GET', `${BASE}/api/transactions?size=101`, 400, { statusCode: 400, message: 'size', error: 'Bad Request' })]).passed).toContain('4.4.size-range')
  })
  it('an interval over 31 days served fails 7.list-interval-over-31-days-400', () => {
    expect(judge([ex('GET', `${BASE}/api/transactions?startDate=2026-09-01&endDate=2026-11-20`, 200, page([]))]).failed).toEqual(['7.list-interval-over-31-days-400'])
  })
  it('a pix-key listing reporting a total above 1000 fails 4.5.total-at-most-1000', () => {
    const r = judge([ex('GET', `${BASE}/api/pix/transactions/pix-key/k@x.com?size=1000`, 200, page([], { size: 1000, total: 1001, totalPages: 2, hasNext: true }))])
    expect(r.failed).toContain('4.5.total-at-most-1000')
  })
  it('an empty listing may say totalPages 0 or 1 (two readings)', () => {
    for (const totalPages of [0, 1]) expect(judge([ex('GET', `${BASE}/api/transactions`, 200, page([], { totalPages }))]).failed).toEqual([])
  })
  it('a listing masking a CNPJ with its branch shown fails 2.2.mask-cnpj', () => {
    const i = item('Confirmado', { counterpart: { ...(item('x').counterpart as object), document: '**.222.333/0001-**' } })
    expect(judge([ex('GET', `${BASE}/api/transactions`, 200, page([i]))]).failed).toContain('2.2.mask-cnpj')
  })
  it('a request without a token served fails 7.bearer-missing-token-401', () => {
    const r = judge([ex('GET', `${BASE}/api/balance`, 200, { grossBalance: 1, blockedBalance: 0, netBalance: 1, consultedAt: '2026-11-20T12:00:00Z' }, { headers: {} })])
    expect(r.failed).toEqual(['7.bearer-missing-token-401'])
  })
  it('a gateway balance whose total is not available plus blocked fails its clause', () => {
    const r = judge([ex('GET', `${GATEWAY}/v1/account/balance`, 200, { id: 'a', totalBalance: 10, blockedBalance: 1, availableBalance: 8, consultedAt: '2026-11-20T12:00:00Z' })])
    expect(r.failed).toEqual(['2.3.gateway-total-equals-available-plus-blocked'])
  })
  it('paths the interface does not have are not judged, and the API may sit under a prefix', () => {
    const j = new Judge()
    j.add(ex('GET', `${BASE}/health`, 500, 'down'))
    j.add(ex('GET', `${BASE}/sandbox/v1/account/balance`, 200, { id: 'a', totalBalance: 9, blockedBalance: 1, availableBalance: 8, consultedAt: '2026-11-20T12:00:00Z' }, { headers: { 'x-api-key': 'k' } }))
    expect([j.judged, j.unmatched]).toEqual([1, 1])
    expect(j.finish().failedClauses()).toEqual([])
  })
})

describe('limits on what was asked', () => {
  it('a charge with a 35-character txid refused with 400 fails 4.10.txid-length', () => {
    const r = judge([ex('PUT', `${BASE}/cob/${'b'.repeat(35)}`, 400, { statusCode: 400, message: 'txid', error: 'Bad Request' }, { request: { ...COB, devedor: { cpf: '52998224725', nome: 'X' } } })])
    expect(r.failed).toEqual(['4.10.txid-length'])
  })
  it('a second charge with a txid the session saw created must be 409: 400 fails it, 409 passes', () => {
    const created = ex('PUT', `${BASE}/cob/${TXID}`, 201, charge('ATIVA'), { request: COB })
    const again = (status: number) => ex('PUT', `${BASE}/cob/${TXID}`, status, { statusCode: status, message: 'dup', error: status === 409 ? 'Conflict' : 'Bad Request' }, { request: COB })
    expect(judge([created, again(400)]).failed).toEqual(['7.create-charge-duplicate-txid-409'])
    expect(judge([created, again(409)]).failed).toEqual([])
  })
  it('returns beyond the original accepted fail 7.return-value-exceeds-refundable-400', () => {
    const r = judge([
      ex('GET', `${BASE}/api/pix/transaction/101`, 200, view('CONFIRMED')),
      ex('PUT', returnPath, 201, devolucao('EM_PROCESSAMENTO'), { request: { valor: '10.00' } }),
      ex('PUT', `${BASE}/pix/${E2E}/devolucao/d2`, 201, { ...devolucao('EM_PROCESSAMENTO', 'd2'), valor: '5.00' }, { request: { valor: '5.00' } }),
    ])
    expect(r.failed).toContain('7.return-value-exceeds-refundable-400')
  })
  it('a second cash-out with the same externalId that pays again fails 4.7.external-id-unique', () => {
    const pay = (id: string) => ex('POST', `${BASE}/api/pix/cash-out-qrcode`, 200, { transactionId: id, externalId: 'p1', status: 'PENDING', generateTime: '2026-11-20T12:00:00Z' }, { request: { value: 1, qrCode: `000201${'0'.repeat(60)}`, externalId: 'p1' } })
    expect(judge([pay('1'), pay('2')]).failed).toContain('4.7.external-id-unique')
    expect(judge([pay('1'), pay('1')]).failed).not.toContain('4.7.external-id-unique')
  })
})

describe('notifications the relay carried', () => {
  const receive = (document: string, amount = '10.00') => ({
    ...ex('POST', 'http://app.example/webhooks', 200, '', { request: { type: 'RECEIVE', data: { id: 1, txId: TXID, status: 'LIQUIDATED', payment: { amount, currency: 'BRL' }, endToEndId: E2E, debtorAccount: { name: 'Fulano', document } } }, headers: { 'content-type': 'application/json' } }),
    notification: true,
  })
  const created = () => ex('PUT', `${BASE}/cob/${TXID}`, 201, charge('ATIVA'), { request: COB })

  it('a RECEIVE for a charge moves it to CONCLUIDA: a later read of ATIVA fails 3.2.final-states', () => {
    const r = judge([created(), receive('***.456.789-**'), cobRead('ATIVA')])
    expect(r.failed).toEqual(['3.2.final-states'])
    expect(r.passed).toEqual(expect.arrayContaining(['3.2.pay-ativa-concluida', '6.2.receive-txid-of-charge']))
  })
  it('a RECEIVE with the debtor document unmasked fails 6.2.receive-debtor-masked', () => {
    expect(judge([created(), receive('12345678909')]).failed).toContain('6.2.receive-debtor-masked')
  })
  it('a RECEIVE for another amount than the charge fails 6.2.receive-txid-of-charge', () => {
    expect(judge([created(), receive('***.456.789-**', '10.01')]).failed).toEqual(['6.2.receive-txid-of-charge'])
  })
})
