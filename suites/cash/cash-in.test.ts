// Cash-in (interface §4.6, §3.1): a dynamic charge answered with a BR Code for the amount asked,
// an optional QR image, PENDING on creation, the caller's externalId echoed.
import { PNG } from 'pngjs'
import { check, type CheckContext } from '../../harness/check.ts'
import { jsonObject, show } from '../../harness/assertions.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { parsePixCode } from '../../generators/emv.ts'
import { arbAmountNumber, centsOf, fromCents } from '../../generators/amounts.ts'
import { newUuid } from '../../generators/ids.ts'
import { randomCpf } from '../../generators/documents.ts'

/** Cash-in amounts kept modest: they are charges, no money moves, but the BR Code field 54 has 13 characters. */
const arbCashInValue = () => arbAmountNumber().filter((v) => v <= 99_999.99)

interface CashIn {
  externalId: string
  ex: Exchange
  body: Record<string, unknown>
}

/** POST /api/pix/cash-in with every documented field; `transaction` fields override the defaults. */
async function createCashIn(t: CheckContext, transaction: Record<string, unknown> = {}): Promise<CashIn> {
  const externalId = `kit-cash-in-${newUuid()}`
  const ex = await t.base.post('/api/pix/cash-in', {
    transaction: { value: 25.5, description: 'conformance kit cash-in', externalId, expirationTime: 3600, ...transaction },
    payer: { fullName: 'Cash In Payer', document: randomCpf() },
    additionalInfo: { purpose: 'conformance' },
  })
  t.expectStatus(ex, [200, 201])
  return { externalId, ex, body: jsonObject(ex) }
}

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

check('new cash-in: status PENDING', { clauses: ['3.1.new-results-pending'], needs: ['mutating'] }, async (t) => {
  const { ex, body } = await createCashIn(t)
  t.expectSchema(ex, 'createCashIn')
  if (body.status !== 'PENDING') t.fail('a new cash-in is PENDING (3.1, 4.6)', '"PENDING"', show(body.status), ex)
})

check('cash-in: externalId is echoed', { clauses: ['4.6.external-id-echoed'], needs: ['mutating'] }, async (t) => {
  const { externalId, ex, body } = await createCashIn(t)
  if (body.externalId !== externalId) t.fail('externalId echoed (4.6)', show(externalId), show(body.externalId), ex)
})

check('cash-in: pixCode is a BR Code with a correct CRC carrying the charged amount', { clauses: ['4.6.pix-code-emv'], needs: ['mutating'] }, async (t) => {
  await t.property([arbCashInValue()], async (value) => {
    const { ex, body } = await createCashIn(t, { value })
    if (typeof body.pixCode !== 'string') return t.fail('pixCode (4.6)', 'a string', show(body.pixCode), ex)
    const parsed = parsePixCode(body.pixCode)
    if (!parsed.ok) return t.fail('pixCode is an EMV BR Code (4.6)', 'a code that parses with a correct CRC16', parsed.error.message, ex)
    const expected = fromCents(centsOf(value))
    if (parsed.value.amount !== expected) t.fail('the BR Code amount (field 54) is the charged value (4.6)', show(expected), show(parsed.value.amount), ex)
  }, { numRuns: Math.min(t.config.numRuns, 10) })
})

check('cash-in with generateQrCode true: qrCodeImage is a base64 data URI of a real image', { clauses: ['4.6.qr-image-when-requested'], needs: ['mutating'] }, async (t) => {
  const { ex, body } = await createCashIn(t, { generateQrCode: true })
  const image = body.qrCodeImage
  if (typeof image !== 'string') return t.fail('qrCodeImage when asked for (4.6)', 'a string', show(image), ex)
  const decoded = decodeDataUri(image)
  if (!decoded) return t.fail('qrCodeImage is a base64 image data URI (4.6)', 'data:image/<type>;base64,<data>', show(image.slice(0, 60)), ex)
  const problem = imageProblem(decoded.mime, decoded.bytes)
  if (problem) t.fail('qrCodeImage decodes to an image (4.6)', `a decodable ${decoded.mime}`, problem, ex)
})

check('cash-in without generateQrCode true: no qrCodeImage', { clauses: ['4.6.qr-image-absent'], needs: ['mutating'] }, async (t) => {
  for (const generateQrCode of [undefined, false]) {
    const { ex, body } = await createCashIn(t, { generateQrCode })
    if ('qrCodeImage' in body) t.fail('qrCodeImage only when asked for (4.6)', `no qrCodeImage with generateQrCode ${show(generateQrCode)}`, `qrCodeImage ${show(String(body.qrCodeImage).slice(0, 40))}`, ex)
  }
})
