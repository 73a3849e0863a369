import { describe, expect, test } from 'vitest'
import { toHar, type Har } from '../../../cli/reporting/har.ts'
import { buildResults } from '../../../cli/reporting/results.ts'
import { Scrubber } from '../../../cli/reporting/scrub.ts'
import type { EvidenceExchange } from '../../../cli/reporting/types.ts'
import { FIXTURE_SECRET_LIST, FIXTURE_SECRETS } from './fixtures/secrets.ts'
import { expectNoSecret } from './secret-scan.ts'
import { CLAUSES, check, runInfo } from './fixtures.ts'

const TOKEN_REQUEST: EvidenceExchange = {
  request: {
    method: 'POST',
    url: 'http://127.0.0.1:4000/oauth/token?client_id=abc&key=%C2%ABredacted%3APIX_API_KEY%C2%BB',
    headers: { authorization: 'Basic «redacted:PIX_CLIENT_SECRET»', 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&client_secret=%C2%ABredacted%3APIX_CLIENT_SECRET%C2%BB',
  },
  response: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"access_token":"«redacted:token»","token_type":"bearer"}', json: { access_token: '«redacted:token»', token_type: 'bearer' }, durationMs: 12 },
}
const REFUSED: EvidenceExchange = { request: { method: 'GET', url: 'http://127.0.0.1:4001/v1/account/balance', headers: { 'x-api-key': '«redacted:PIX_API_KEY»' } }, response: { status: 0, error: 'connection refused', durationMs: 3 } }

// What the reporter hands over: evidence that went through the harness's redaction and the scrubber.
const results = new Scrubber(FIXTURE_SECRET_LIST).deep(buildResults(runInfo(), [
  check({ id: 'auth/tokens::type', clauses: ['4.2.token-type'], status: 'failed', failedClause: '4.2.token-type', message: '4.2.token-type — …\nbearer', exchanges: [TOKEN_REQUEST] }),
  check({ id: 'balance::read', area: 'balance', clauses: ['2.3.gross'], status: 'blocked', reason: 'connection refused', exchanges: [REFUSED, TOKEN_REQUEST] }),
  check({ id: 'balance::none', area: 'balance', clauses: ['2.3.gross'] }),
], CLAUSES))

describe('toHar', () => {
  const text = JSON.stringify(toHar(results))
  const har = JSON.parse(text) as Har

  test('is HAR 1.2 with one entry per recorded exchange, each naming its check and verdict', () => {
    expect(har.log.version).toBe('1.2')
    expect(har.log.creator).toEqual({ name: 'pix-conformance', version: '0.1.0' })
    expect(har.log.entries.map((e) => e.comment)).toEqual([
      'auth/tokens::type — failed on 4.2.token-type',
      'balance::read — blocked · connection refused',
      'balance::read — blocked',
    ])
    for (const e of har.log.entries) {
      expect(e).toMatchObject({ startedDateTime: results.startedAt, cache: {}, request: { httpVersion: 'HTTP/1.1', headersSize: -1 }, response: { httpVersion: 'HTTP/1.1', headersSize: -1 } })
      expect(e.timings.wait).toBe(e.time)
    }
  })

  test('keeps requests and answers as recorded', () => {
    const [token, refused] = har.log.entries
    expect(token!.request).toMatchObject({ method: 'POST', postData: { mimeType: 'application/x-www-form-urlencoded' } })
    expect(token!.request.queryString).toEqual([{ name: 'client_id', value: 'abc' }, { name: 'key', value: '«redacted:PIX_API_KEY»' }])
    expect(token!.response).toMatchObject({ status: 200, content: { mimeType: 'application/json', text: '{"access_token":"«redacted:token»","token_type":"bearer"}' } })
    expect(refused!.response).toMatchObject({ status: 0, _error: 'connection refused', content: { text: '' } })
  })

  test('placeholders stay placeholders: nothing is decoded, no secret appears', () => {
    const [token] = har.log.entries
    expect(token!.request.url).toBe(TOKEN_REQUEST.request.url)
    expect(token!.request.headers).toContainEqual({ name: 'authorization', value: 'Basic «redacted:PIX_CLIENT_SECRET»' })
    expect(token!.request.postData!.text).toBe(TOKEN_REQUEST.request.body)
    expectNoSecret(text, 'the HAR', Object.values(FIXTURE_SECRETS))
  })

  test('a run without evidence gives an empty log', () => {
    expect(toHar(buildResults(runInfo(), [], CLAUSES)).log.entries).toEqual([])
  })
})
