// Cash-in (interface §4.6, §3.1): a dynamic charge answered with a BR Code for the amount asked,
// an optional QR image, PENDING on creation, the caller's externalId echoed.
import { check } from '../../harness/check.ts'
import { show } from '../../harness/assertions.ts'
import { parsePixCode } from '../../generators/emv.ts'
import { centsOf, fromCents, arbAmountNumber } from '../../generators/amounts.ts'
import { givenCashIn, postCashIn } from '../common/cash.ts'
import { PNG } from 'pngjs'

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

/** Cash-in amounts kept modest: they are charges, no money moves, but the BR Code field 54 has 13 characters. */
const arbCashInValue = () => arbAmountNumber({ maxCents: 9_999_999 })

/** The MIME type and bytes of a base64 data URI, or undefined when it is not one. */
function decodeDataUri(uri: string): { mime: string; bytes: Buffer } | undefined {
  const match = /^data:(image\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/]+={0,2})$/i.exec(uri)
  if (!match?.[1] || !match[2]) return undefined
  return { mime: match[1].toLowerCase(), bytes: Buffer.from(match[2], 'base64') }
}

/**
 * Why the bytes are not a real image of their MIME type, or undefined when they are. A PNG is
 * decoded whole; other formats (the interface names none) are recognised by their signature.
 */
function imageProblem(mime: string, bytes: Buffer): string | undefined {
  if (mime === 'image/png') {
    try {
      const png = PNG.sync.read(bytes)
      return png.width > 0 && png.height > 0 ? undefined : `a PNG of ${png.width}x${png.height} pixels`
    } catch (err) {
      return `a PNG that does not decode (${(err as Error).message})`
    }
  }
  const signatures: Record<string, (b: Buffer) => boolean> = {
    'image/jpeg': (b) => b.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])),
    'image/gif': (b) => b.subarray(0, 4).toString('latin1') === 'GIF8',
    'image/webp': (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
    'image/svg+xml': (b) => /<svg[\s>]/.test(b.toString('utf8')),
  }
  const recognise = signatures[mime]
  if (!recognise) return `an image type the kit cannot decode (${mime})`
  return recognise(bytes) ? undefined : `bytes that are not ${mime}`
}
