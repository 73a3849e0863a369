import { readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import * as formats from '../../../generators/formats.ts'
import {
  DATE_TIME_UTC, HTTPS_URL, OBJECT_ID, UUID, dateTimeMs, isDate, isHttpsUrl, isIsoDateTime, isReturnId, isRtrId, isUtcDateTime,
} from '../../../generators/formats.ts'
import { loadOpenApi } from '../../../generators/openapi.ts'

/** Every `pattern` of the OpenAPI document with its JSON pointer (the x-clause maps name keywords, not patterns). */
function patternsOf(doc: unknown): { at: string; pattern: string }[] {
  const found: { at: string; pattern: string }[] = []
  const walk = (v: unknown, at: string): void => {
    if (v === null || typeof v !== 'object') return
    for (const [k, x] of Object.entries(v)) {
      if (k === 'x-clause') continue
      if (k === 'pattern' && typeof x === 'string') found.push({ at, pattern: x })
      else walk(x, `${at}/${k}`)
    }
  }
  walk(doc, '#')
  return found
}

const REPO = fileURLToPath(new URL('../../../', import.meta.url))

const moduleSources = new Set(Object.values(formats).filter((v): v is RegExp => v instanceof RegExp).map((re) => re.source))

describe('generators/formats: the one definition of each format', () => {
  it("every pattern of specs/openapi.yaml is a formats.ts RegExp's source", () => {
    const patterns = patternsOf(loadOpenApi())
    expect(patterns.length).toBeGreaterThan(20)
    // new RegExp(...).source normalises what a YAML string need not escape (a "/")
    const strays = patterns.filter((p) => !moduleSources.has(new RegExp(p.pattern).source))
    expect(strays).toEqual([])
  })

  it('the document has no format keyword that would be a second definition (date-time, uuid)', () => {
    const text = JSON.stringify(loadOpenApi())
    expect(text).not.toMatch(/"format":"(date-time|uuid)"/)
  })

  it('the Timestamp, amount, txid, e2eid, UUID, object id and HTTPS url schemas use their format', () => {
    const doc = loadOpenApi() as any
    const schemas = doc.components.schemas
    expect(new RegExp(schemas.Timestamp.pattern).source).toBe(DATE_TIME_UTC.source)
    expect(new RegExp(schemas.TwoDecimalString.pattern).source).toBe(formats.AMOUNT_TWO_DECIMALS.source)
    expect(new RegExp(schemas.Txid.pattern).source).toBe(formats.TXID.source)
    expect(new RegExp(schemas.E2eId.pattern).source).toBe(formats.E2EID.source)
    expect(new RegExp(schemas.MaskedDocument.pattern).source).toBe(formats.MASKED_DOCUMENT.source)
    expect(schemas.GatewayTransactionId.anyOf.map((s: { pattern: string }) => new RegExp(s.pattern).source)).toEqual([UUID.source, OBJECT_ID.source])
    expect(patternsOf(doc).some((p) => new RegExp(p.pattern).source === HTTPS_URL.source)).toBe(true)
  })

  it('no pattern writes \\d, which other languages read as any Unicode digit', () => {
    for (const { pattern } of patternsOf(loadOpenApi())) expect(pattern).not.toContain('\\d')
    for (const source of moduleSources) expect(source).not.toContain('\\d')
  })
})

describe('date-times: ISO 8601 in UTC (Conventions)', () => {
  it('takes every ISO 8601 writing of UTC, with or without a fraction or seconds', () => {
    for (const s of [
      '2026-01-31T12:34:56Z', '2026-01-31T12:34:56.789Z', '2026-01-31T12:34:56.123456789Z', '2026-01-31T12:34:56,5Z',
      '2026-01-31T12:34:56+00:00', '2026-01-31T12:34:56.000+00:00', '2026-01-31T12:34:56+00', '2026-01-31T12:34Z',
      '20260131T123456Z', '20260131T123456+0000', '2026-01-31t12:34:56z', '2024-02-29T23:59:60Z',
    ]) expect(isUtcDateTime(s), s).toBe(true)
  })

  it('refuses other zones, no zone, mixed formats and what is not on the calendar or the clock', () => {
    for (const s of [
      '2026-01-31T12:34:56+03:00', '2026-01-31T12:34:56-00:00', '2026-01-31T12:34:56', '2026-01-31T12:34:56+0000',
      '2026-01-31 12:34:56Z', '2026-02-30T12:34:56Z', '2026-01-31T25:00:00Z', '2026-01-31T12:60:00Z', '2026-01-31T12:34:56.Z',
      '2026-01-31T12:34:5٣Z', '２026-01-31T12:34:56Z', ' 2026-01-31T12:34:56Z', '2026-01-31T12:34:56Z\n', '2026-01-31',
    ]) expect(isUtcDateTime(s), s).toBe(false)
  })

  it('an ISO 8601 date-time with another offset or none is still ISO 8601 (its zone is 0.timestamps-utc)', () => {
    expect(isIsoDateTime('2026-01-31T09:34:56-03:00')).toBe(true)
    expect(isIsoDateTime('2026-01-31T12:34:56')).toBe(true)
    expect(isIsoDateTime('2026-01-31T12:34:56+0000')).toBe(false) // extended time, basic offset: mixed
  })

  it('dateTimeMs reads what Date.parse reads, and the comma, basic and reduced forms', () => {
    const at = Date.parse('2026-01-31T12:34:56.5Z')
    for (const s of ['2026-01-31T12:34:56.5Z', '2026-01-31T12:34:56,5Z', '20260131T123456.5Z', '2026-01-31T09:34:56.5-03:00', '2026-01-31T12:34:56.500+00:00']) {
      expect(dateTimeMs(s), s).toBe(at)
    }
    expect(dateTimeMs('2026-01-31T12:34Z')).toBe(Date.parse('2026-01-31T12:34:00Z'))
    expect(dateTimeMs('2026-01-31T12:34:56')).toBe(Date.parse('2026-01-31T12:34:56Z'))
    expect(dateTimeMs('not a date')).toBeNaN()
  })

  it('dates are YYYY-MM-DD on the calendar', () => {
    expect(isDate('2024-02-29')).toBe(true)
    expect(isDate('2025-02-29')).toBe(false)
    expect(isDate('2025-1-01')).toBe(false)
  })
})

describe('ids, URLs and bounds in characters', () => {
  it('UUID and object id hex digits may be upper case', () => {
    expect(UUID.test('3F2B8C1E-9D4A-4B7E-8A6F-0C1D2E3F4A5B')).toBe(true)
    expect(OBJECT_ID.test('65F1C2A9B3D4E5F6A7B8C9D0')).toBe(true)
  })

  it('an HTTPS URL: the scheme in any case, a host; http is not HTTPS', () => {
    expect(isHttpsUrl('https://example.com/hook')).toBe(true)
    expect(isHttpsUrl('HTTPS://example.com/hook')).toBe(true)
    expect(isHttpsUrl('http://example.com/hook')).toBe(false)
    expect(isHttpsUrl('https://')).toBe(false)
    expect(isHttpsUrl(' https://example.com')).toBe(false)
  })

  it('return ids and rtrIds are bounded in characters, not bytes or UTF-16 units', () => {
    expect(isReturnId('ã'.repeat(35))).toBe(true)
    expect(isReturnId('😀'.repeat(35))).toBe(true)
    expect(isReturnId('😀'.repeat(36))).toBe(false)
    expect(isRtrId('é'.repeat(32))).toBe(true)
  })
})

describe('no second definition of a format in suites/, harness/ or generators/', () => {
  // What a format's pattern looks like when written again by hand (in code, not in a comment).
  const SIGNS = [
    /\\d\{4\}-\\d\{2\}/, /\[0-9\]\{4\}-\[0-9\]\{2\}/, // a date or date-time
    /T\\d\{2\}/, // a date-time's hour
    /\\d\+\\\.\\d\{2\}/, /\[0-9\]\+\\\.\[0-9\]\{2\}/, // a two-decimal amount
    /\[a-zA-Z0-9\]\{(26,35|32)\}/, // a txid, an e2eid
    /\[0-9a-fA-F\]\{(8|24)\}/, /\[0-9a-f\]\{(8|24)\}/, // a UUID, an object id
    /\^https\?:/, // a URL scheme
  ]
  const roots = ['suites', 'harness', 'generators'].map((d) => join(REPO, d))
  const files = roots.flatMap((root) => readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => join(root, f)))

  it('every hand-written format pattern lives in generators/formats.ts', () => {
    const strays: string[] = []
    for (const file of files) {
      if (file.endsWith(join('generators', 'formats.ts'))) continue
      if (file.endsWith(join('harness', 'http.ts'))) continue // an absolute URL handed to the HTTP client, no format of the interface
      readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
        const code = line.trim()
        if (code.startsWith('//') || code.startsWith('*') || code.startsWith('/*')) return
        if (SIGNS.some((sign) => sign.test(code))) strays.push(`${relative(REPO, file)}:${i + 1}: ${code.slice(0, 100)}`)
      })
    }
    expect(strays).toEqual([])
  })
})
