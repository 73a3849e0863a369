// §4.11 request of PUT /pix/{e2eid}/devolucao/{id}, read field by field (400 `invalid`).
import { E2EID as E2E_RE } from '../../generators/formats.ts'
import { bad, bodyObject, checkString, stringField } from '../model/fields.ts'
import { centsFromDecimalString } from '../model/money.ts'
import type { PixReturn } from '../model/types.ts'

/**
 * §2.5/§4.11/§8 say only "1 to 35 characters" (counted as Unicode code points, after URL decoding).
 * A `/` could not round-trip as one path segment and control characters cannot be echoed safely,
 * so those two are refused; anything else is the client's choice.
 */
const RETURN_ID_RE = /^[^/\p{Cc}]{1,35}$/u

export interface ReturnRequest {
  e2eid: string
  id: string
  valorCents: number
  natureza: PixReturn['natureza']
  descricao: string | undefined
}

export function readReturn(e2eid: string, id: string, body: unknown): ReturnRequest {
  checkString(e2eid, 'e2eid', { pattern: E2E_RE, patternText: 'exactly 32 alphanumeric characters' })
  checkString(id, 'id', { pattern: RETURN_ID_RE, patternText: '1 to 35 characters, none of them / or a control character' })
  const o = bodyObject(body)
  const valor = stringField(o, 'valor', 'valor', { required: true }) as string
  const natureza = stringField(o, 'natureza', 'natureza') ?? 'ORIGINAL'
  if (natureza === 'MED_OPERACIONAL' || natureza === 'MED_FRAUDE') throw bad(`natureza ${natureza} appears only in responses and must not be sent`)
  if (natureza !== 'ORIGINAL' && natureza !== 'RETIRADA') throw bad('natureza must be ORIGINAL or RETIRADA')
  return {
    e2eid,
    id,
    valorCents: centsFromDecimalString(valor, 'valor'),
    natureza,
    descricao: stringField(o, 'descricao', 'descricao', { max: 140 }),
  }
}
