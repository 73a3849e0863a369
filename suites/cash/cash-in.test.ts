// Cash-in (interface §4.6, §3.1): a dynamic charge answered with a BR Code for the amount asked,
// an optional QR image, PENDING on creation, the caller's externalId echoed.
import { check } from '../../harness/check.ts'
import { show } from '../../harness/assertions.ts'
import { parsePixCode } from '../../generators/emv.ts'
import { centsOf, fromCents } from '../../generators/amounts.ts'
import { arbCashInValue, decodeDataUri, givenCashIn, imageProblem, postCashIn } from './fixtures.ts'

check('new cash-in: status PENDING', { clauses: ['3.1.new-results-pending'], needs: ['mutating'] }, async (t) => {
  const { ex, body } = await givenCashIn(t)
  t.expectEqual('3.1.new-results-pending', 'a new cash-in is PENDING', body.status, 'PENDING', ex)
})

check('cash-in: externalId is echoed', { clauses: ['4.6.external-id-echoed'], needs: ['mutating'] }, async (t) => {
  const { externalId, ex, body } = await givenCashIn(t)
  t.expectEqual('4.6.external-id-echoed', 'externalId echoed', body.externalId, externalId, ex)
})

check('cash-in: pixCode is a BR Code with a correct CRC carrying the charged amount', { clauses: ['4.6.pix-code-emv'], needs: ['mutating'] }, async (t) => {
  const clause = '4.6.pix-code-emv'
  await t.property([arbCashInValue()], async (value) => {
    const { ex, body } = await givenCashIn(t, { value })
    const parsed = parsePixCode(t.string(clause, 'pixCode', body.pixCode, ex))
    if (!parsed.ok) return t.fail(clause, 'pixCode is an EMV BR Code', 'a code that parses with a correct CRC16', parsed.error.message, ex)
    t.expectEqual(clause, 'the BR Code amount (field 54) is the charged value', parsed.value.amount, fromCents(centsOf(value)), ex)
  }, { examples: [[0.01], [10], [99_999.99]] })
})

check('cash-in with generateQrCode true: qrCodeImage is a base64 data URI of a real image', { clauses: ['4.6.qr-image-when-requested'], needs: ['mutating'] }, async (t) => {
  const clause = '4.6.qr-image-when-requested'
  const { ex, body } = await givenCashIn(t, { generateQrCode: true })
  const image = t.string(clause, 'qrCodeImage when asked for', body.qrCodeImage, ex)
  const decoded = decodeDataUri(image)
  if (!decoded) return t.fail(clause, 'qrCodeImage is a base64 image data URI', 'data:image/<type>;base64,<data>', show(image.slice(0, 60)), ex)
  const problem = imageProblem(decoded.mime, decoded.bytes)
  t.expectThat(clause, 'qrCodeImage decodes to an image', problem === undefined, `a decodable ${decoded.mime}`, problem, ex)
})

check('cash-in without generateQrCode true: no qrCodeImage', { clauses: ['4.6.qr-image-absent'], needs: ['mutating'] }, async (t) => {
  // Reading cash-in-required-set: a target may require generateQrCode; its refusal of the request
  // without it is observed, and false still decides the clause.
  const without = await postCashIn(t, { generateQrCode: undefined })
  if (without.ex.response.status >= 400 && without.ex.response.status < 500) t.observe('4.6.qr-image-absent', 'withoutGenerateQrCode', `refused with HTTP ${without.ex.response.status}`)
  for (const generateQrCode of without.ex.response.status >= 400 ? [false] : [undefined, false]) {
    const { ex, body } = await givenCashIn(t, { generateQrCode })
    t.expectThat('4.6.qr-image-absent', 'qrCodeImage only when asked for', !('qrCodeImage' in body), `no qrCodeImage with generateQrCode ${show(generateQrCode)}`, `qrCodeImage ${show(String(body.qrCodeImage).slice(0, 40))}`, ex)
  }
})
