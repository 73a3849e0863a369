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
import { jsonObject, show } from '../../harness/assertions.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { buildPixCode, buildTlv, crc16, parsePixCode, parseTlv, type PixPayload, type Tlv } from '../../generators/emv.ts'
import { boundaryCases } from '../../generators/schema-arb.ts'
import { requestBodySchema, validator } from '../../generators/openapi.ts'
import { newTxid, newUuid } from '../../generators/ids.ts'

const CASH_OUT_REQUEST = requestBodySchema('createCashOutQrCode') as object
const CLIENT_ERRORS = Array.from({ length: 100 }, (_, i) => 400 + i)
const PAYEE: PixPayload = { key: 'kit-bounds-payee@example.com', merchantName: 'KIT BOUNDS PAYEE', merchantCity: 'SAO PAULO' }
const CRC_HEADER = '6304'
const FILLER_IDS = Array.from({ length: 20 }, (_, i) => String(80 + i))

// ---- BR Codes of exact lengths --------------------------------------------------------------------

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
function expectCodec(t: CheckContext, code: string, length: number, amount: string | undefined): void {
  const parsed = parsePixCode(code)
  if (!parsed.ok) t.fail('the built code is a valid BR Code (codec re-check)', 'valid', parsed.error.message)
  if (code.length !== length) t.fail('the built code has the claimed length', String(length), String(code.length))
  if (parsed.value.amount !== amount) t.fail('the built code carries the claimed amount', show(amount), show(parsed.value.amount))
}

// ---- sending --------------------------------------------------------------------------------------

/** Tops the account up through the control API when there is one, so accepted cases never lack funds. */
async function ensureFunds(t: CheckContext): Promise<void> {
  if (t.config.controlUrl) await t.control.incomingPayment({ amount: 50 })
}

function cashOut(t: CheckContext, value: unknown, qrCode: string): Promise<Exchange> {
  return t.base.post('/api/pix/cash-out-qrcode', { value, qrCode, externalId: `kit-cash-bounds-${newUuid()}` })
}

function expectAccepted(t: CheckContext, ex: Exchange, rule: string, what: string): void {
  if (ex.response.status < 200 || ex.response.status > 299) t.fail(rule, `the cash-out accepted (2xx) for ${what}`, `HTTP ${ex.response.status}`, ex)
  const id = jsonObject(ex, rule).transactionId
  if (typeof id !== 'string' || id === '') t.fail(`${rule}: a payment was initiated`, 'a transactionId', show(id), ex)
}

function expectRefused(t: CheckContext, ex: Exchange, rule: string, what: string): void {
  if (!CLIENT_ERRORS.includes(ex.response.status)) t.fail(rule, `a 4xx for ${what}`, `HTTP ${ex.response.status}`, ex)
}

// ---- checks ---------------------------------------------------------------------------------------

check('cash-out qrCode: complete codes of 499 and 500 characters and the shortest one are accepted; 49 and 501 characters are refused', {
  clauses: ['4.7.qr-length'],
  needs: ['mutating'],
}, async (t) => {
  await ensureFunds(t)
  const judge = validator(CASH_OUT_REQUEST)
  const lengths = boundaryCases(CASH_OUT_REQUEST).filter((c) => c.path === '/qrCode' && (c.keyword === 'minLength' || c.keyword === 'maxLength'))
  const upper = lengths.filter((c) => c.keyword === 'maxLength').map((c) => ({ length: (c.value as { qrCode: string }).qrCode.length, valid: c.valid }))
  const rule = 'qrCode of 50 to 500 characters (4.7, 8)'
  for (const { length, valid } of upper) {
    const code = pixCodeOfLength(length, '0.01')
    expectCodec(t, code, length, '0.01')
    if ((judge({ value: 0.01, qrCode: code }) === true) !== valid) t.fail('the bound case is what it claims (schema re-check)', String(valid), String(!valid))
    const ex = await cashOut(t, 0.01, code)
    if (valid) expectAccepted(t, ex, rule, `a code of ${length} characters`)
    else expectRefused(t, ex, rule, `a code of ${length} characters`)
  }
  const shortest = shortestPixCode('0.01')
  expectCodec(t, shortest, shortest.length, '0.01')
  expectAccepted(t, await cashOut(t, 0.01, shortest), rule, `the shortest complete code (${shortest.length} characters)`)
  const tooShort = withCrc([{ id: '00', value: '01' }, { id: '26', value: buildTlv([{ id: '00', value: 'br.gov.bcb.pix' }, { id: '01', value: 'a@b.co.br' }]) }])
  if (tooShort.length !== 49 || judge({ value: 0.01, qrCode: tooShort }) === true) t.fail('the short case has 49 characters and breaks minLength', '49, invalid', String(tooShort.length))
  expectRefused(t, await cashOut(t, 0.01, tooShort), rule, 'a code of 49 characters')
})

check('cash-out qrCode that does not start with 000201 is refused', {
  clauses: ['4.7.qr-prefix'],
  needs: ['mutating'],
}, async (t) => {
  const fields = withoutCrc(buildPixCode({ ...PAYEE, amount: '0.01' }))
  const [indicator, ...rest] = fields
  const notVersion01 = withCrc([{ id: '00', value: '02' }, ...rest])
  const indicatorNotFirst = withCrc([...rest.slice(0, 1), indicator as Tlv, ...rest.slice(1)])
  const judge = validator(CASH_OUT_REQUEST)
  for (const [what, code] of [['payload format indicator 02', notVersion01], ['payload format indicator not first', indicatorNotFirst]] as const) {
    if (code.startsWith('000201') || judge({ value: 0.01, qrCode: code }) === true) t.fail('the case does not start with 000201 (re-check)', 'another prefix', code.slice(0, 6))
    expectRefused(t, await cashOut(t, 0.01, code), 'qrCode begins 000201 (4.7, 8)', `${what} (starts ${code.slice(0, 6)})`)
  }
})

check('cash-out value: two decimals are accepted; three decimals are refused', {
  clauses: ['4.7.value-two-decimals'],
  needs: ['mutating'],
}, async (t) => {
  await ensureFunds(t)
  const code = pixCodeOfLength(200)
  expectCodec(t, code, 200, undefined)
  const judge = validator(CASH_OUT_REQUEST)
  const fromSchema = boundaryCases(CASH_OUT_REQUEST).filter((c) => c.path === '/value' && c.keyword === 'multipleOf' && !c.valid).map((c) => (c.value as { value: number }).value)
  for (const value of [...fromSchema, 1.001, 0.999]) {
    if (judge({ value, qrCode: code }) === true) t.fail('the value has more than two decimals (schema re-check)', 'invalid', String(value))
    expectRefused(t, await cashOut(t, value, code), 'value in reais with up to two decimals (4.7)', `value ${value}`)
  }
  expectAccepted(t, await cashOut(t, 0.01, code), 'value in reais with up to two decimals (4.7)', 'value 0.01')
})

check('cash-out value one cent off the QR amount is refused; the exact amount is accepted', {
  clauses: ['4.7.value-matches-qr'],
  needs: ['mutating'],
}, async (t) => {
  await ensureFunds(t)
  const code = pixCodeOfLength(250, '1.23')
  expectCodec(t, code, 250, '1.23')
  for (const value of [1.22, 1.24]) expectRefused(t, await cashOut(t, value, code), 'value matches the QR amount (4.7)', `value ${value} against 1.23`)
  expectAccepted(t, await cashOut(t, 1.23, code), 'value matches the QR amount (4.7)', 'value 1.23 against 1.23')
})
