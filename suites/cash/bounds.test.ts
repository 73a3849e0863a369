// Cash-out bounds (interface §4.7, §8): the qrCode length at 49, 499, 500 and 501 characters and
// its 000201 prefix; the value's two decimals and its match with the QR's amount at one cent either
// side. The codes are real BR Codes of exact lengths (generators/emv.ts; filler goes into the
// txid and into unreserved templates 80–99, the CRC always recomputed) and each is re-read by the
// codec before it is sent. Accepted cases pay R$ 0.01 or a few reais, each with a fresh externalId.
//
// The lower bound cannot be probed at 50 and 51 on the valid side: the shortest complete BR Code
// (key, merchant name and city, the fixed fields, txid and CRC) is longer than 50 characters, so a
// target that reads the code must refuse any 50-character string anyway. The valid side there is
// the shortest complete code the generator builds; 49 characters must be refused.
import { check, type CheckContext } from '../../harness/check.ts'
import { buildPixCode, buildTlv, type Tlv, crc16, parsePixCode, parseTlv, type PixPayload } from '../../generators/emv.ts'
import { boundaryCases } from '../../generators/schema-arb.ts'
import { expectAccepted, isAccepted, postCashOut } from '../common/cash.ts'
import { show } from '../../harness/assertions.ts'
import { type Exchange } from '../../harness/exchange.ts'
import { newTxid } from '../../generators/ids.ts'
import { requestBodySchema, validator } from '../../generators/openapi.ts'

check('cash-out qrCode: complete codes of 499 and 500 characters and the shortest one are accepted; 49 and 501 characters are refused', {
  clauses: ['4.7.qr-length'],
  needs: ['mutating'],
}, async (t) => {
  const clause = '4.7.qr-length'
  await ensureFunds(t)
  const lengths = boundaryCases(CASH_OUT_REQUEST).filter((c) => c.path === '/qrCode' && (c.keyword === 'minLength' || c.keyword === 'maxLength'))
  const upper = lengths.filter((c) => c.keyword === 'maxLength').map((c) => ({ length: (c.value as { qrCode: string }).qrCode.length, valid: c.valid }))
  for (const { length, valid } of upper) {
    const code = pixCodeOfLength(length, '0.01')
    expectCodec(code, length, '0.01')
    recheckCashOut({ value: 0.01, qrCode: code }, valid, `a code of ${length} characters`)
    const ex = await bareCashOut(t, 0.01, code)
    if (valid) expectPaymentInitiated(t, clause, ex, `a code of ${length} characters`)
    else expectCashOutRefused(t, clause, ex, `a code of ${length} characters`)
  }
  const shortest = shortestPixCode('0.01')
  expectCodec(shortest, shortest.length, '0.01')
  expectPaymentInitiated(t, clause, await bareCashOut(t, 0.01, shortest), `the shortest complete code (${shortest.length} characters)`)
  const tooShort = withCrc([{ id: '00', value: '01' }, { id: '26', value: buildTlv([{ id: '00', value: 'br.gov.bcb.pix' }, { id: '01', value: 'a@b.co.br' }]) }])
  if (tooShort.length !== 49) throw new Error(`kit bug: the short case has ${tooShort.length} characters, not 49`)
  recheckCashOut({ value: 0.01, qrCode: tooShort }, false, 'a code of 49 characters')
  expectCashOutRefused(t, clause, await bareCashOut(t, 0.01, tooShort), 'a code of 49 characters')
})

check('cash-out qrCode that does not start with 000201 is refused', {
  clauses: ['4.7.qr-prefix'],
  needs: ['mutating'],
}, async (t) => {
  const fields = withoutCrc(buildPixCode({ ...PAYEE, amount: '0.01' }))
  const [indicator, ...rest] = fields
  const notVersion01 = withCrc([{ id: '00', value: '02' }, ...rest])
  const indicatorNotFirst = withCrc([...rest.slice(0, 1), indicator as Tlv, ...rest.slice(1)])
  for (const [what, code] of [['payload format indicator 02', notVersion01], ['payload format indicator not first', indicatorNotFirst]] as const) {
    if (code.startsWith('000201')) throw new Error(`kit bug: the case ${what} starts with 000201`)
    recheckCashOut({ value: 0.01, qrCode: code }, false, `a code with ${what}`)
    expectCashOutRefused(t, '4.7.qr-prefix', await bareCashOut(t, 0.01, code), `${what} (starts ${code.slice(0, 6)})`)
  }
})

check('cash-out value: two decimals are accepted; three decimals are refused', {
  clauses: ['4.7.value-two-decimals'],
  needs: ['mutating'],
}, async (t) => {
  const clause = '4.7.value-two-decimals'
  await ensureFunds(t)
  const code = pixCodeOfLength(200)
  expectCodec(code, 200, undefined)
  const fromSchema = boundaryCases(CASH_OUT_REQUEST).filter((c) => c.path === '/value' && c.keyword === 'multipleOf' && !c.valid).map((c) => (c.value as { value: number }).value)
  // the clause asks only for the refusals; a valid value accepted first shows they are about the value
  await t.given('a cash-out of a two-decimal value (POST /api/pix/cash-out-qrcode)', async () => expectPaymentInitiated(t, '4.7.transaction-id', await bareCashOut(t, 0.01, code), 'value 0.01'))
  for (const value of [...fromSchema, 1.001, 0.999]) {
    recheckCashOut({ value, qrCode: code }, false, `value ${value}`)
    expectCashOutRefused(t, clause, await bareCashOut(t, value, code), `value ${value}`)
  }
})

check('cash-out value one cent off the QR amount is refused; the exact amount is accepted', {
  clauses: ['4.7.value-matches-qr'],
  needs: ['mutating'],
}, async (t) => {
  const clause = '4.7.value-matches-qr'
  await ensureFunds(t)
  const code = pixCodeOfLength(250, '1.23')
  expectCodec(code, 250, '1.23')
  await t.given('a cash-out of the exact QR amount (POST /api/pix/cash-out-qrcode)', async () => expectPaymentInitiated(t, '4.7.transaction-id', await bareCashOut(t, 1.23, code), 'value 1.23 against 1.23'))
  for (const value of [1.22, 1.24]) expectCashOutRefused(t, clause, await bareCashOut(t, value, code), `value ${value} against 1.23`)
})

const CASH_OUT_REQUEST = requestBodySchema('createCashOutQrCode') as object

const PAYEE: PixPayload = { key: 'kit-bounds-payee@example.com', merchantName: 'KIT BOUNDS PAYEE', merchantCity: 'SAO PAULO' }

const CRC_HEADER = '6304'

const FILLER_IDS = Array.from({ length: 20 }, (_, i) => String(80 + i))

/** Fields (without the CRC) + a recomputed CRC. */
function withCrc(fields: Tlv[]): string {
  const payload = buildTlv(fields) + CRC_HEADER
  return payload + crc16(payload)
}

const withoutCrc = (code: string): Tlv[] => parseTlv(code).filter((f) => f.id !== '63')

/** Unreserved templates (80–99) carrying exactly `room` characters, headers included (room ≥ 5). */
function fillerTemplates(room: number): Tlv[] {
  const count = Math.ceil(room / 103)
  if (room < 5 || count > FILLER_IDS.length) throw new Error(`cash/bounds: cannot fill ${room} characters`)
  // Split `room` into `count` parts of 5 to 103 characters: a 4-character header and 1 to 99 of value.
  return FILLER_IDS.slice(0, count).map((id, i) => {
    const part = Math.floor(room / count) + (i < room % count ? 1 : 0)
    return { id, value: 'F'.repeat(part - 4) }
  })
}

/** A complete BR Code of exactly `length` characters paying `amount` (or any amount when absent). */
function pixCodeOfLength(length: number, amount?: string): string {
  for (let txidLength = 0; txidLength <= 25; txidLength++) {
    const payload: PixPayload = { ...PAYEE, ...(amount === undefined ? {} : { amount }), ...(txidLength > 0 ? { txid: newTxid().slice(0, txidLength) } : {}) }
    const base = buildPixCode(payload)
    const room = length - base.length
    if (room === 0) return base
    if (room >= 5) return withCrc([...withoutCrc(base), ...fillerTemplates(room)])
  }
  throw new Error(`cash/bounds: no BR Code of ${length} characters`)
}

/** The shortest complete code the generator builds: one-letter merchant name and city. */
function shortestPixCode(amount: string): string {
  return buildPixCode({ key: 'a@b.co', merchantName: 'K', merchantCity: 'S', amount })
}

/** Re-reads a code with the codec: complete, of the claimed length, carrying the claimed amount. */
function expectCodec(code: string, length: number, amount: string | undefined): void {
  const parsed = parsePixCode(code)
  if (!parsed.ok) throw new Error(`kit bug: the built code is not a valid BR Code (${parsed.error.message})`)
  if (code.length !== length) throw new Error(`kit bug: the built code has ${code.length} characters, not ${length}`)
  if (parsed.value.amount !== amount) throw new Error(`kit bug: the built code carries the amount ${show(parsed.value.amount)}, not ${show(amount)}`)
}

/** The case is what it claims by the createCashOutQrCode request schema: a generator that disagrees is a kit bug. */
function recheckCashOut(body: unknown, valid: boolean, what: string): void {
  if ((validator(CASH_OUT_REQUEST)(body) === true) !== valid) throw new Error(`kit bug: ${what} should be ${valid ? 'valid' : 'invalid'} by the createCashOutQrCode request schema`)
}

/** Tops the account up through the control API when there is one, so accepted cases never lack funds. */
async function ensureFunds(t: CheckContext): Promise<void> {
  if (t.config.controlUrl) await t.control.incomingPayment({ amount: 50 })
}

/** POST /api/pix/cash-out-qrcode with nothing but `value`, `qrCode` and a fresh externalId. */
async function bareCashOut(t: CheckContext, value: number, qrCode: string): Promise<Exchange> {
  return (await postCashOut(t, value, qrCode)).ex
}

/** Accepted (any 2xx) and a payment initiated (a transactionId). */
function expectPaymentInitiated(t: CheckContext, clause: string, ex: Exchange, what: string): void {
  expectAccepted(t, clause, ex, `the cash-out accepted for ${what}`)
  t.string(clause, `a payment was initiated for ${what}: its transactionId`, t.json(clause, ex).transactionId, ex, { nonEmpty: true })
}

/** Refused with a 4xx; an acceptance names the case. */
function expectCashOutRefused(t: CheckContext, clause: string, ex: Exchange, what: string): void {
  t.expectThat(clause, `the cash-out refused for ${what}`, !isAccepted(ex), 'a 4xx', `HTTP ${ex.response.status}`, ex)
  t.expectRefused(clause, ex)
}
