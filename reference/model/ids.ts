// Identifiers the reference mints: end-to-end ids (§2.1), return ids rtrId (§2.5), EMV txids of
// cash-ins, and tokens. Random parts use node:crypto.
import { randomBytes, randomInt } from 'node:crypto'

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

export function randomAlnum(length: number): string {
  let s = ''
  for (let i = 0; i < length; i++) s += ALNUM[randomInt(ALNUM.length)]
  return s
}

function stamp(at: Date): string {
  return at.toISOString().replace(/[-T:]/g, '').slice(0, 12) // yyyyMMddHHmm
}

/** 'E' + ISPB (8) + yyyyMMddHHmm + 11 alphanumerics = 32 characters. */
export function newE2eId(ispb: string, at: Date): string {
  return `E${ispb}${stamp(at)}${randomAlnum(11)}`
}

/** 'D' + ISPB (8) + yyyyMMddHHmm + 11 alphanumerics = 32 characters. */
export function newRtrId(ispb: string, at: Date): string {
  return `D${ispb}${stamp(at)}${randomAlnum(11)}`
}

/** A cash-in txid: 25 alphanumerics, the most an EMV field 62/05 carries. */
export function newCashInTxid(): string {
  return randomAlnum(25)
}

export function newToken(): string {
  return randomBytes(24).toString('base64url')
}
