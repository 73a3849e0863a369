import { PNG } from 'pngjs'
import { describe, expect, it } from 'vitest'
import { qrPngDataUri } from '../../../../reference/lib/qr-image.ts'

const EMV = '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D'

function decodeDataUri(uri: string) {
  const match = /^data:image\/png;base64,([A-Za-z0-9+/]+={0,2})$/.exec(uri)
  expect(match, 'a base64 PNG data URI').not.toBeNull()
  return PNG.sync.read(Buffer.from(match![1]!, 'base64'))
}

describe('qrPngDataUri', () => {
  it('is a PNG data URI that decodes to a real, square, black-and-white image', async () => {
    const png = decodeDataUri(await qrPngDataUri(EMV))
    expect(png.width).toBeGreaterThan(0)
    expect(png.height).toBe(png.width)
    const values = new Set<number>()
    for (let i = 0; i < png.data.length; i += 4) values.add(png.data[i]!)
    expect(values.has(0)).toBe(true)
    expect(values.has(255)).toBe(true)
  })

  it('grows with the text it encodes', async () => {
    const small = decodeDataUri(await qrPngDataUri('000201'))
    const large = decodeDataUri(await qrPngDataUri(EMV.repeat(3)))
    expect(large.width).toBeGreaterThan(small.width)
  })

  it('rejects an empty text', async () => {
    await expect(qrPngDataUri('')).rejects.toThrow()
  })
})
