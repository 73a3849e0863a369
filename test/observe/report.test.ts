// One word per run: observe's exit code, headline, results.json, junit.xml and report.html come
// from one verdict; HARs as other tools write them are read; bad options are refused with 2.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { harExchanges } from '../../cli/observe/har.ts'
import { Judge } from '../../cli/observe/judge.ts'
import { observeMain } from '../../cli/observe/main.ts'
import { OBSERVE_FLAGS, OBSERVE_USAGE, parseObserveArgs } from '../../cli/observe/options.ts'
import { BASE, ex, item, page } from './exchanges.ts'
import { toHar } from '../../cli/observe/har.ts'

async function observeHar(entries: ReturnType<typeof ex>[] | object): Promise<{ code: number; dir: string; out: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'observe-report-'))
  const file = join(dir, 'in.har')
  writeFileSync(file, JSON.stringify(Array.isArray(entries) ? toHar(entries, 'test', 'test') : entries))
  let out = ''
  const code = await observeMain(['--har', file, '--report-dir', dir], { out: (l) => (out += `${l}\n`), err: (l) => (out += `${l}\n`) })
  return { code, dir, out }
}

function written(dir: string): { results: any; junit: string; html: string } {
  const run = readdirSync(dir).find((d) => d.includes('observe'))!
  const read = (f: string) => readFileSync(join(dir, run, f), 'utf8')
  return { results: JSON.parse(read('results.json')), junit: read('junit.xml'), html: read('report.html') }
}

describe('one verdict', () => {
  const leaky = item('Confirmado', { counterpart: { ...(item('x').counterpart as object), document: '529.982.***-**' } })
  const cases = [
    ['a failed clause', [ex('GET', `${BASE}/api/transactions`, 200, page([leaky]))], 1, 'FAILED', /, 1 failed/],
    ['no failure', [ex('GET', `${BASE}/api/transactions`, 200, page([item('Confirmado')]))], 0, 'PASSED', /, 0 failed/],
    ['nothing of the interface', [ex('GET', `${BASE}/health`, 200, { ok: true })], 1, 'NO CHECKS RAN', /OBSERVED — 0 clauses judged on 0 exchanges/],
  ] as const
  it.each(cases)('%s', async (_name, session, exit, result, headline) => {
    const { code, dir, out } = await observeHar([...session])
    const { results, junit, html } = written(dir)
    expect(code).toBe(exit)
    expect(results.verdict.result).toBe(result)
    expect(results.verdict.headline).toMatch(headline)
    expect(out).toContain(results.verdict.headline)
    expect(junit).toContain(`<property name="result" value="${results.verdict.headline}"/>`)
    expect(html).toContain(results.verdict.headline)
    expect(results.observe.observedClauses).toBe(results.checks.length)
    // a clause nothing exercised is not observed, never passed
    expect(results.clauses.filter((c: any) => c.status === 'passed').length).toBe(results.checks.filter((c: any) => c.status === 'passed').length)
  })

  it('a failure carries the exchanges that show it, redacted', async () => {
    const { dir } = await observeHar([ex('GET', `${BASE}/api/transactions`, 200, page([leaky]), { headers: { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhcHAifQ.c2lnbmF0dXJl' } })])
    const { results, html } = written(dir)
    const failed = results.checks.find((c: any) => c.status === 'failed')
    expect(failed.failedClause).toBe('2.2.mask-cpf')
    expect(failed.exchanges[0].request.url).toContain('/api/transactions')
    expect(JSON.stringify(results) + html).not.toContain('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhcHAifQ')
  })
})

describe('HARs of other tools', () => {
  it('reads base64 bodies, HTTP/2 pseudo-headers and entries out of order', () => {
    const body = JSON.stringify({ grossBalance: 1, blockedBalance: 0, netBalance: 1, consultedAt: '2026-11-20T12:00:00Z' })
    const entries = [
      { startedDateTime: '2026-11-20T12:00:02Z', request: { method: 'GET', url: `${BASE}/accounts/balances`, headers: [] }, response: { status: 200, headers: [{ name: 'content-type', value: 'application/json' }], content: { text: '{"data":[]}' } } },
      {
        startedDateTime: '2026-11-20T12:00:01Z',
        request: { method: 'get', url: `${BASE}/api/balance`, headers: [{ name: ':authority', value: 'x' }, { name: 'Authorization', value: 'Bearer t' }] },
        response: { status: 200, headers: [{ name: 'Content-Type', value: 'application/json' }], content: { mimeType: 'application/json', text: Buffer.from(body).toString('base64'), encoding: 'base64' } },
      },
    ]
    const [first, second] = harExchanges(entries)
    expect(first!.request.url).toContain('/api/balance')
    expect(first!.request.method).toBe('GET')
    expect(first!.request.headers).toEqual({ authorization: 'Bearer t' })
    expect(first!.response.json).toEqual(JSON.parse(body))
    expect(second!.seq).toBe(2)
  })

  it('a "sanitized" HAR, with no Authorization on any request, is no proof of a request served without a token', () => {
    const entry = (auth: boolean) => ({ startedDateTime: '2026-11-20T12:00:01Z', request: { method: 'GET', url: `${BASE}/api/balance`, headers: auth ? [{ name: 'Authorization', value: 'Bearer t' }] : [] }, response: { status: 200, headers: [{ name: 'content-type', value: 'application/json' }], content: { text: '{"grossBalance":1,"blockedBalance":0,"netBalance":1,"consultedAt":"2026-11-20T12:00:00Z"}' } } })
    const judged = (entries: object[]) => {
      const j = new Judge()
      for (const e of harExchanges(entries as never)) j.add(e)
      return j.finish().failedClauses()
    }
    expect(judged([entry(false), entry(false)])).toEqual([])
    expect(judged([entry(true), entry(false)])).toEqual(['7.bearer-missing-token-401'])
  })

  it('an unreadable or foreign file is refused with 2, and so are contradicting flags', async () => {
    expect((await observeHar({ not: 'a har' })).code).toBe(2)
    const quiet = { out: () => {}, err: () => {} }
    expect(await observeMain(['--har', '/nonexistent.har'], quiet)).toBe(2)
    expect(await observeMain(['--har', 'x.har', '--listen', '8090'], quiet)).toBe(2)
    expect(await observeMain(['--listen', '8090'], quiet)).toBe(2)
    expect(await observeMain(['--listen', 'host:port'], quiet)).toBe(2)
    expect(await observeMain(['--env', 'x.env', '--listen', '1,2', '--relay-webhooks', 'http://app/hook'], quiet)).toBe(2) // no third port
    expect(await observeMain(['--env', 'x.env', '--listen', '1,2,3'], quiet)).toBe(2) // a third port without --relay-webhooks
    expect(await observeMain(['--help'], quiet)).toBe(0)
  })

  it('the usage text names exactly the flags the parser takes', () => {
    const listed = [...OBSERVE_USAGE.matchAll(/^ {2}(?:-h, )?(--[a-z-]+)/gm)].map((m) => m[1])
    expect(listed.sort()).toEqual([...OBSERVE_FLAGS].sort())
    for (const flag of OBSERVE_FLAGS) expect(() => parseObserveArgs(flag === '--help' || flag === '--verify-reads' ? [flag] : [flag, 'http://x/1', '--har', 'f'])).not.toThrow(/is not a flag/)
  })
})
