import { describe, expect, test } from 'vitest'
import { assertedExchange, curlOf, embedJson, renderHtml } from '../../../cli/reporting/html.ts'
import { esc } from '../../../cli/reporting/text.ts'
import { renderJunit } from '../../../cli/reporting/junit.ts'
import { buildResults } from '../../../cli/reporting/results.ts'
import { CLAUSES, check, runInfo } from './fixtures.ts'

const HOSTILE = `</script><script>alert("x")</script><img src=x onerror=alert(1)> & 'q'`

function hostileResults() {
  return buildResults(runInfo({ command: `npm run conformance -- --env '${HOSTILE}'` }), [
    check({
      id: `auth/tokens::${HOSTILE}`,
      title: HOSTILE,
      clauses: ['4.2.token-type'],
      status: 'failed',
      failedClause: '4.2.token-type',
      message: `4.2.token-type — token_type is Bearer\nstatus: expected 201, got 400\n${HOSTILE}`,
      exchanges: [{
        request: { method: 'POST', url: 'http://127.0.0.1:4000/oauth/token', headers: { 'content-type': 'application/json' }, body: `{"clientId":"${HOSTILE}"}` },
        response: { status: 400, headers: {}, body: HOSTILE, durationMs: 3 },
      }],
    }),
    check({ id: 'b', status: 'skipped', skipReason: HOSTILE, clauses: ['4.10.txid-length'] }),
  ], CLAUSES, [HOSTILE])
}

describe('escaping', () => {
  test('esc covers the five HTML specials', () => {
    expect(esc(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;')
  })

  test('embedded JSON cannot close its script element and still parses back', () => {
    const json = embedJson({ m: HOSTILE, ls: '\u2028' })
    expect(json).not.toContain('<')
    expect(json).not.toContain('\u2028')
    expect(JSON.parse(json)).toEqual({ m: HOSTILE, ls: '\u2028' })
  })

  test('a </script> in a message, title or request cannot break out of the page', () => {
    const html = renderHtml(hostileResults())
    // exactly the two script elements the page has: the JSON data and the filter
    expect(html.match(/<script\b/g)).toHaveLength(2)
    expect(html.match(/<\/script>/g)).toHaveLength(2)
    expect(html).not.toContain('<img')
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(&quot;x&quot;)')
    const data = /<script type="application\/json" id="results-data">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? ''
    expect(JSON.parse(data).checks[0].title).toBe(HOSTILE)
  })

  test('junit.xml escapes too, and carries the clause ids as properties', () => {
    const xml = renderJunit(hostileResults())
    expect(xml).not.toContain('<script')
    expect(xml).toContain('<property name="clause" value="4.2.token-type"/>')
    // the message attribute (all most CI systems show) begins with the clause, then the reason
    expect(xml).toMatch(/<failure message="4\.2\.token-type — token_type is Bearer — status: expected 201, got 400" type="ClauseFailure">/)
    expect(xml).toContain('<property name="verdict" value="failed"/>')
    expect(xml).toContain('<property name="failedClause" value="4.2.token-type"/>')
    expect(xml).toContain('<skipped message="&lt;/script&gt;')
  })
})

describe('report.html content', () => {
  const r = buildResults(runInfo(), [
    check({ id: 'auth/tokens::ok', title: 'issues a token', clauses: ['4.2.token-type'] }),
    check({ id: 'charges/cob::long', title: 'refuses a long txid', area: 'charges', clauses: ['4.10.txid-length'], status: 'failed', message: 'expected 400, got 201 [4.10.txid-length]', replayCommand: 'npm run conformance -- --seed 42 --area charges', seed: 42 }),
  ], CLAUSES)
  const html = renderHtml(r)

  test('is self-contained: no external asset', () => {
    expect(html).not.toMatch(/<link\b|<script[^>]+src=|@import|url\(http/i)
  })

  test('header names target, profile, seed and run id', () => {
    for (const s of ['http://127.0.0.1:4000', 'embedded reference', 'sandbox', '42', '20261121-190000-abcd', 'FAILED']) expect(html).toContain(s)
  })

  test('clause matrix is grouped by section in numeric order and marks uncovered and not-shown clauses', () => {
    const sections = [...html.matchAll(/<tr class="group-head"><th colspan="5">§([\d.]+)/g)].map((m) => m[1])
    expect(sections).toEqual(['2.3', '3.2', '4.2', '4.10', '7'])
    expect(html).toMatch(/data-status="uncovered"[\s\S]*?2\.3\.gross/)
    expect(html).toMatch(/7\.refund-codes-status[\s\S]*?v-not-shown/)
  })

  test('failures show the replay command and seed', () => {
    expect(html).toContain('npm run conformance -- --seed 42 --area charges')  // as the fixture gives it
    expect(html).toContain('expected 400, got 201 [4.10.txid-length]')
  })

  test('per-area bars are proportional', () => {
    expect(html).toMatch(/<span class="failed" style="width:100\.00%"><\/span>/)
  })
})

describe('report.html shows what the console shows, and all of a failure', () => {
  const exchanges = ['/cob/a', '/cob/b', '/cob/c'].map((path, i) => ({
    request: { method: 'PUT', url: `http://127.0.0.1:4000${path}`, headers: {} },
    response: { status: 201 + i, headers: {}, body: '{}', durationMs: 1 },
  }))
  const failed = check({
    id: 'charges/cob::two', title: 'two errors', area: 'charges', clauses: ['4.10.txid-length'], status: 'failed',
    message: '4.10.txid-length — status: expected 400, got 202\nrequest: PUT http://127.0.0.1:4000/cob/b\nresponse: 202 {}\n\n(+1 more error)',
    moreErrors: ['4.10.txid-length — the second error, in full'], exchanges,
    replayCommand: "npm run conformance -- --seed 42 --check 'charges/cob::two'",
  })
  const r = buildResults(runInfo(), [failed, check({ id: 'charges/cob::b', title: 'blocked one', area: 'charges', clauses: ['4.10.txid-length'], status: 'blocked', reason: 'a token failed' })], CLAUSES, [])
  const html = renderHtml(r)

  test('the by-area table has the console\'s verdict columns', () => {
    const head = /<table class="areas"><thead>([\s\S]*?)<\/thead>/.exec(html)?.[1] ?? ''
    expect([...head.matchAll(/<th class="num">(\w+)<\/th>/g)].map((m) => m[1])).toEqual(['passed', 'failed', 'blocked', 'inconclusive', 'skipped', 'total'])
    expect(html).toMatch(/<td class="num blocked-text">1<\/td>/)
  })

  test('the exchange the failure quotes is the one opened, not the last', () => {
    expect(assertedExchange(failed)).toBe(1)
    const opened = [...html.matchAll(/<details class="exchange[^"]*" open>\s*<summary>([^<]*)/g)].map((m) => m[1])
    expect(opened).toEqual(['PUT http://127.0.0.1:4000/cob/b → 202 · 1 ms'])
  })

  test('every error of the check can be read', () => {
    expect(html).toMatch(/<details class="more-error"><summary>error 2 of 2: 4\.10\.txid-length — the second error, in full<\/summary>/)
  })

  test('the replay command is the narrowest: the check by id', () => {
    expect(html).toContain("--check &#39;charges/cob::two&#39;")
  })
})

describe('curl reproducer', () => {
  test('quotes what the shell would otherwise interpret', () => {
    const curl = curlOf({
      request: { method: 'POST', url: 'http://h/x?a=1&b=2', headers: { authorization: 'Bearer «redacted:token»', 'content-length': '9' }, body: `{"a":"it's"}` },
    })
    expect(curl).toBe(`curl -sS -i -X POST 'http://h/x?a=1&b=2' \\\n  -H 'authorization: Bearer «redacted:token»' \\\n  --data-raw '{"a":"it'\\''s"}'`)
  })
})
