import { describe, expect, test } from 'vitest'
import { Redactor } from '../../../harness/redact.ts'
import { Recorder, curlOf, MAX_BODY_CHARS, MAX_EXCHANGES } from '../../../harness/recorder.ts'
import type { Exchange } from '../../../harness/exchange.ts'

const PEM = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2VydA==\n-----END CERTIFICATE-----\n'
const SECRET = 'p@ss w0rd/+&='

function redactor(): Redactor {
  return new Redactor([
    { name: 'PIX_CLIENT_SECRET', value: SECRET },
    { name: 'PIX_API_KEY', value: 'key-abcdef' },
    { name: 'PIX_CERT_FILE', value: PEM },
  ])
}

function exchange(parts: { url?: string; headers?: Record<string, string>; body?: string; response?: string; json?: unknown }): Exchange {
  return {
    request: { method: 'POST', url: parts.url ?? 'http://t.test/x', headers: parts.headers ?? {}, ...(parts.body === undefined ? {} : { body: parts.body }) },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: parts.response ?? '', ...(parts.json === undefined ? {} : { json: parts.json }), durationMs: 1 },
  }
}

function everyText(ex: Exchange): string {
  return JSON.stringify(ex)
}

describe('Redactor', () => {
  test('replaces a secret in its plain, URL-encoded, form-encoded and JSON-escaped forms', () => {
    const r = redactor()
    for (const form of [SECRET, encodeURIComponent(SECRET), new URLSearchParams({ a: SECRET }).toString().slice(2), JSON.stringify(SECRET).slice(1, -1)]) {
      expect(r.text(`before ${form} after`)).toBe('before «redacted:PIX_CLIENT_SECRET» after')
    }
  })

  test('a URL-encoded PEM in the certificate header, a JSON-escaped PEM in a body', () => {
    const r = redactor()
    const ex = r.exchange(exchange({
      headers: { 'X-SSL-Client-Cert': encodeURIComponent(PEM) },
      body: JSON.stringify({ note: PEM }),
      response: JSON.stringify({ echo: PEM }),
      json: { echo: PEM },
    }))
    const text = everyText(ex)
    expect(text).not.toContain('MIIBszCCAVmgAwIBAgIUQ2VydA')
    expect(ex.request.headers['X-SSL-Client-Cert']).toBe('«redacted:PIX_CERT_FILE»')
    expect(ex.response.json).toEqual({ echo: '«redacted:PIX_CERT_FILE»' })
  })

  test('secrets in URLs and headers; credential headers blanked even when unknown', () => {
    const r = redactor()
    const ex = r.exchange(exchange({
      url: `http://t.test/x?k=${encodeURIComponent(SECRET)}&key=key-abcdef`,
      headers: { authorization: 'Bearer some.unknown.jwt', 'x-api-key': 'a-key-nobody-registered', accept: 'application/json' },
    }))
    expect(ex.request.url).toBe('http://t.test/x?k=«redacted:PIX_CLIENT_SECRET»&key=«redacted:PIX_API_KEY»')
    expect(ex.request.headers).toEqual({
      authorization: 'Bearer «redacted:authorization»',
      'x-api-key': '«redacted:x-api-key»',
      accept: 'application/json',
    })
  })

  test('tokens handed out in a response are redacted there and in every later request', () => {
    const r = redactor()
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl'
    const tokenEx = exchange({ body: JSON.stringify({ clientId: 'c1', clientSecret: 'never-registered-secret' }), response: JSON.stringify({ access_token: token, token_type: 'Bearer' }), json: { access_token: token, token_type: 'Bearer' } })
    r.learnFrom(tokenEx)
    const redacted = r.exchange(tokenEx)
    expect(everyText(redacted)).not.toContain(token)
    expect(everyText(redacted)).not.toContain('never-registered-secret')
    expect(redacted.request.body).toBe('{"clientId":"c1","clientSecret":"«redacted:clientSecret»"}')
    const later = r.exchange(exchange({ headers: { authorization: `Bearer ${token}` }, url: `http://t.test/?t=${token}` }))
    expect(later.request.headers.authorization).toBe('Bearer «redacted:access_token»')
    expect(later.request.url).toBe('http://t.test/?t=«redacted:access_token»')
  })

  test('a URL or header value redacted before a secret was known is redacted again once it is known', () => {
    const r = redactor()
    const ex = exchange({ url: 'http://t.test/x?code=late-secret-value', headers: { 'x-trace': 'late-secret-value' } })
    expect(r.exchange(ex).request.url).toBe('http://t.test/x?code=late-secret-value')
    r.add('access_token', 'late-secret-value')
    const again = r.exchange(ex)
    expect(again.request.url).toBe('http://t.test/x?code=«redacted:access_token»')
    expect(again.request.headers['x-trace']).toBe('«redacted:access_token»')
  })

  test('form-encoded credential fields are blanked', () => {
    expect(new Redactor().body('clientId=a&clientSecret=zzz&x=1')).toBe('clientId=a&clientSecret=«redacted:clientSecret»&x=1')
  })

  test('network error texts are redacted too', () => {
    const ex = exchange({})
    ex.response.error = `bad header key-abcdef`
    expect(redactor().exchange(ex).response.error).toBe('bad header «redacted:PIX_API_KEY»')
  })
})

describe('Recorder', () => {
  test('keeps the last 20 exchanges, counts the dropped ones', () => {
    const rec = new Recorder(redactor())
    for (let i = 0; i < MAX_EXCHANGES + 5; i++) rec.record(exchange({ url: `http://t.test/${i}` }))
    const kept = rec.exchanges()
    expect(kept).toHaveLength(MAX_EXCHANGES)
    expect(rec.omitted).toBe(5)
    expect(kept.at(-1)?.request.url).toBe(`http://t.test/${MAX_EXCHANGES + 4}`)
  })

  test('redacts before truncating bodies to 8 KiB', () => {
    const rec = new Recorder(redactor())
    const big = `${'x'.repeat(MAX_BODY_CHARS - 3)}${SECRET}${'y'.repeat(5000)}`
    const out = rec.record(exchange({ body: big, response: big }))
    expect(out.request.body?.length).toBeLessThan(MAX_BODY_CHARS + 100)
    expect(out.request.body).toContain('«truncated:')
    expect(everyText(out)).not.toContain('w0rd')
  })

  test('curl reproducer uses shell variables for secrets', () => {
    const rec = new Recorder(redactor())
    const out = rec.record(exchange({ headers: { 'x-api-key': 'key-abcdef', 'content-type': 'application/json' }, body: `{"clientSecret":"${SECRET}","n":"it's"}` }))
    expect(out.curl).toBe(
      `curl -sS -i -X POST 'http://t.test/x' -H 'x-api-key: '"$PIX_API_KEY" -H 'content-type: application/json' --data-raw '{"clientSecret":"'"$PIX_CLIENT_SECRET"'","n":"it'\\''s"}'`,
    )
    expect(curlOf(exchange({ body: '' }))).toBe(`curl -sS -i -X POST 'http://t.test/x'`)
  })
})
