import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  arbCorruptedPixCode,
  arbPixCode,
  arbPixPayload,
  buildPixCode,
  buildTlv,
  crc16,
  EmvError,
  parsePixCode,
  parseTlv,
  type EmvErrorCode,
  type PixPayload,
} from '../../../generators/emv.ts'

// The BR Code manual's example (static code, EVP key, no amount).
const MANUAL_EXAMPLE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D'

// The Pix initiation manual's dynamic and composite examples, and the BR Code manual's
// multi-arrangement example (a card-network field 04, another arrangement in 27, postal code 61,
// an unreserved template 80, a txid with a hyphen).
const MANUAL_DYNAMIC =
  '00020101021226700014br.gov.bcb.pix2548pix.example.com/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***630464E4'
const MANUAL_COMPOSITE =
  '00020101021226700014br.gov.bcb.pix2548pix.example.com/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***80740014br.gov.bcb.pix2552pix.example.com/rec/2353c790eefb11eaadc10242ac1200026304FB42'
const BRCODE_MULTI_ARRANGEMENT =
  '00020104141234567890123426580014BR.GOV.BCB.PIX0136123e4567-e12b-12d1-a456-42665544000027300012BR.COM.OUTRO011001234567895204000053039865406123.455802BR5917NOME DO RECEBEDOR6008BRASILIA61087007490062190515RP12345678-201980390012BR.COM.OUTRO01190123.ABCD.3456.WXYZ6304AD38'
// A code seen in the wild whose city (60) has 19 characters, over the EMV maximum of 15.
const CITY_TOO_LONG =
  '00020126580014br.gov.bcb.pix0136bee05743-4291-4f3c-9259-595df1307ba1520400005303986540510.005802BR5914Alexandre Lima6019Presidente Prudente62180514Um-Id-Qualquer6304D475'

function errorCode(code: string): EmvErrorCode | 'ok' {
  const r = parsePixCode(code)
  return r.ok ? 'ok' : r.error.code
}

/** Recomputes the CRC so that a test reaches the rule after the CRC check. */
function withCrc(withoutCrcValue: string): string {
  return withoutCrcValue + crc16(withoutCrcValue)
}

describe('CRC16/CCITT-FALSE', () => {
  it('has the standard check value 29B1 for "123456789"', () => {
    expect(crc16('123456789')).toBe('29B1')
  })

  it('gives FFFF for the empty string (the initial value, no final xor)', () => {
    expect(crc16('')).toBe('FFFF')
  })

  it('gives 1D3D for the BR Code manual example up to 6304', () => {
    expect(crc16(MANUAL_EXAMPLE.slice(0, -4))).toBe('1D3D')
  })

  it('is always 4 upper-case hex digits', () => {
    fc.assert(fc.property(fc.string(), (s) => /^[0-9A-F]{4}$/.test(crc16(s))))
  })
})

describe('TLV', () => {
  it('builds id, two-digit length, value', () => {
    expect(buildTlv([{ id: '00', value: '01' }, { id: '59', value: 'Fulano de Tal' }])).toBe('0002015913Fulano de Tal')
  })

  it('parses what it builds (property)', () => {
    const field = fc.record({ id: fc.integer({ min: 0, max: 99 }).map((n) => String(n).padStart(2, '0')), value: fc.string({ minLength: 1, maxLength: 99 }) })
    fc.assert(fc.property(fc.array(field, { maxLength: 8 }), (fields) => {
      expect(parseTlv(buildTlv(fields))).toEqual(fields)
    }))
  })

  it('refuses what EMV cannot carry', () => {
    expect(() => buildTlv([{ id: '5', value: 'x' }])).toThrow(EmvError)
    expect(() => buildTlv([{ id: '59', value: '' }])).toThrow(/BAD_LENGTH/)
    expect(() => buildTlv([{ id: '59', value: 'x'.repeat(100) }])).toThrow(/BAD_LENGTH/)
  })

  it.each([
    ['0005abc', 'BAD_LENGTH', 'length runs past the end'],
    ['000', 'BAD_LENGTH', 'header cut short'],
    ['0000', 'BAD_LENGTH', 'zero length'],
    ['0A02ab', 'MALFORMED', 'id not digits'],
    ['00x2ab', 'MALFORMED', 'length not digits'],
  ])('parseTlv(%s) throws %s (%s)', (s, code) => {
    try {
      parseTlv(s)
      expect.unreachable('parseTlv should throw')
    } catch (e) {
      expect(e).toBeInstanceOf(EmvError)
      expect((e as EmvError).code).toBe(code)
    }
  })
})

describe('parsePixCode on published and hand-made vectors', () => {
  it('reads the manual example', () => {
    const r = parsePixCode(MANUAL_EXAMPLE)
    expect(r.ok).toBe(true)
    if (!r.ok) return
    const { fields, ...payload } = r.value
    expect(payload).toEqual({ key: '123e4567-e12b-12d1-a456-426655440000', merchantName: 'Fulano de Tal', merchantCity: 'BRASILIA' })
    expect(fields.map((f) => f.id)).toEqual(['00', '26', '52', '53', '58', '59', '60', '62', '63'])
  })

  it('reads the other published examples', () => {
    const strip = (code: string) => {
      const r = parsePixCode(code)
      if (!r.ok) throw r.error
      const { fields: _fields, ...payload } = r.value
      return payload
    }
    expect(strip(MANUAL_DYNAMIC)).toStrictEqual({ url: 'pix.example.com/8b3da2f39a4140d1a91abd93113bd441', merchantName: 'Fulano de Tal', merchantCity: 'BRASILIA' })
    expect(strip(MANUAL_COMPOSITE)).toStrictEqual(strip(MANUAL_DYNAMIC))
    expect(strip(BRCODE_MULTI_ARRANGEMENT)).toStrictEqual({
      key: '123e4567-e12b-12d1-a456-426655440000',
      amount: '123.45',
      txid: 'RP12345678-2019',
      merchantName: 'NOME DO RECEBEDOR',
      merchantCity: 'BRASILIA',
    })
    for (const code of [MANUAL_DYNAMIC, MANUAL_COMPOSITE, BRCODE_MULTI_ARRANGEMENT, CITY_TOO_LONG]) {
      expect(crc16(code.slice(0, -4))).toBe(code.slice(-4))
    }
  })

  it('refuses a published code whose city exceeds 15 characters', () => {
    expect(errorCode(CITY_TOO_LONG)).toBe('BAD_LENGTH')
  })

  it('builds the manual example exactly', () => {
    expect(buildPixCode({ key: '123e4567-e12b-12d1-a456-426655440000', merchantName: 'Fulano de Tal', merchantCity: 'BRASILIA' })).toBe(MANUAL_EXAMPLE)
  })

  it('reads amount, txid, description and a dynamic URL', () => {
    const code = buildPixCode({
      url: 'pix.example.com/qr/v2/9d36b84f-c70b-478f-b95c-12729b90ca25',
      txid: 'abc123ABC456def789GHI012jkl',
      amount: '10.50',
      merchantName: 'Loja',
      merchantCity: 'SAO PAULO',
      description: 'pedido 42',
    })
    expect(code).toMatch(/^000201/)
    expect(code).toContain('540510.50')
    expect(code).toContain('0527abc123ABC456def789GHI012jkl')
    const r = parsePixCode(code)
    expect(r.ok && r.value.url).toBe('pix.example.com/qr/v2/9d36b84f-c70b-478f-b95c-12729b90ca25')
    expect(r.ok && r.value.amount).toBe('10.50')
    expect(r.ok && r.value.description).toBe('pedido 42')
  })

  it('says BAD_PREFIX when the code does not start 000201', () => {
    expect(errorCode(MANUAL_EXAMPLE.slice(6))).toBe('BAD_PREFIX')
    expect(errorCode('000202' + MANUAL_EXAMPLE.slice(6))).toBe('BAD_PREFIX')
    expect(errorCode('')).toBe('BAD_PREFIX')
  })

  it('says BAD_CRC on a wrong or lower-case CRC', () => {
    expect(errorCode(MANUAL_EXAMPLE.slice(0, -4) + '1D3E')).toBe('BAD_CRC')
    expect(errorCode(MANUAL_EXAMPLE.slice(0, -4) + '1d3d')).toBe('BAD_CRC')
    expect(errorCode(MANUAL_EXAMPLE.replace('Fulano', 'Fulana'))).toBe('BAD_CRC')
  })

  it('says BAD_LENGTH when a length runs past the end or a field is too long', () => {
    expect(errorCode(MANUAL_EXAMPLE.slice(0, -1))).toBe('BAD_LENGTH')
    const longName = 'N'.repeat(26)
    const body = MANUAL_EXAMPLE.slice(0, -8).replace('5913Fulano de Tal', `5926${longName}`)
    expect(errorCode(withCrc(body + '6304'))).toBe('BAD_LENGTH')
    const longCity = MANUAL_EXAMPLE.slice(0, -8).replace('6008BRASILIA', '6016BRASILIA BRASIL')
    expect(errorCode(withCrc(longCity + '6304'))).toBe('BAD_LENGTH')
  })

  it('says MISSING_FIELD when a required field is absent', () => {
    const body = MANUAL_EXAMPLE.slice(0, -8)
    expect(errorCode(body)).toBe('MISSING_FIELD') // no 63
    expect(errorCode(withCrc(body.replace('5913Fulano de Tal', '') + '6304'))).toBe('MISSING_FIELD') // no 59
    expect(errorCode(withCrc(body.replace('6008BRASILIA', '') + '6304'))).toBe('MISSING_FIELD') // no 60
    expect(errorCode(withCrc(body.replace('62070503***', '') + '6304'))).toBe('MISSING_FIELD') // no 62
    expect(errorCode(withCrc(body.replace('0014br.gov.bcb.pix', '0014br.gov.bcb.xyz') + '6304'))).toBe('MISSING_FIELD') // no PIX GUI
    const noKey = body.replace('26580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000', '26180014br.gov.bcb.pix')
    expect(errorCode(withCrc(noKey + '6304'))).toBe('MISSING_FIELD') // neither key nor URL
  })

  it('says MALFORMED for wrong fixed values, duplicates, CRC not last and a bad amount', () => {
    const body = MANUAL_EXAMPLE.slice(0, -8)
    expect(errorCode(withCrc(body.replace('5303986', '5303840') + '6304'))).toBe('MALFORMED')
    expect(errorCode(withCrc(body.replace('5802BR', '5802US') + '6304'))).toBe('MALFORMED')
    expect(errorCode(withCrc(body + '5802BR6304'))).toBe('MALFORMED')
    expect(errorCode(withCrc(body.replace('5802BR', '540410.55802BR') + '6304'))).toBe('MALFORMED')
    const crcInMiddle = body.replace('5802BR', '63041234') + '6304'
    expect(errorCode(withCrc(crcInMiddle))).toBe('MALFORMED')
  })

  it('accepts the GUI in upper case and the point of initiation method 12', () => {
    const body = MANUAL_EXAMPLE.slice(0, -8).replace('br.gov.bcb.pix', 'BR.GOV.BCB.PIX').replace('000201', '000201010212')
    expect(errorCode(withCrc(body + '6304'))).toBe('ok')
  })

  it('refuses txids outside 1..35 [a-zA-Z0-9] when building', () => {
    const base: PixPayload = { key: 'k', merchantName: 'N', merchantCity: 'C' }
    expect(() => buildPixCode({ ...base, txid: 'x'.repeat(36) })).toThrow(/BAD_LENGTH/)
    expect(() => buildPixCode({ ...base, txid: 'abc-def' })).toThrow(/MALFORMED/)
    expect(() => buildPixCode({ ...base, amount: '10.5' })).toThrow(/MALFORMED/)
    expect(() => buildPixCode({ merchantName: 'N', merchantCity: 'C' })).toThrow(/MISSING_FIELD/)
  })
})

describe('properties', () => {
  it('parsePixCode(buildPixCode(p)) round-trips p', () => {
    fc.assert(
      fc.property(arbPixPayload(), (p) => {
        const r = parsePixCode(buildPixCode(p))
        if (!r.ok) throw r.error
        const { fields, ...payload } = r.value
        expect(payload).toStrictEqual(p)
        expect(fields[0]).toEqual({ id: '00', value: '01' })
        expect(fields[fields.length - 1]?.id).toBe('63')
      }),
    )
  })

  it('every arbPixCode value is 50..500 characters and starts 000201 (cash-out bounds)', () => {
    fc.assert(fc.property(arbPixCode(), (code) => code.length >= 50 && code.length <= 500 && code.startsWith('000201')))
  })

  it('changing any character before the CRC value is never accepted', () => {
    fc.assert(
      fc.property(arbCorruptedPixCode(), ({ corrupted }) => {
        expect(parsePixCode(corrupted).ok).toBe(false)
      }),
      { numRuns: 300 },
    )
  })

  it('a change inside a value (lengths intact) is reported as BAD_CRC', () => {
    const body = MANUAL_EXAMPLE.slice(0, -4)
    const start = body.indexOf('Fulano')
    for (let i = start; i < start + 'Fulano de Tal'.length; i++) {
      const corrupted = body.slice(0, i) + (body[i] === 'X' ? 'Y' : 'X') + body.slice(i + 1) + '1D3D'
      expect(errorCode(corrupted)).toBe('BAD_CRC')
    }
  })
})
