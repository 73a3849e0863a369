// No secret value (client secret, API keys, tokens, certificate bodies) may appear in any report
// file or in the console output of a run.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { summaryText, paint } from '../../../cli/reporting/progress.ts'
import { ConformanceReporter } from '../../../cli/reporting/reporter.ts'
import { Scrubber } from '../../../cli/reporting/scrub.ts'
import { CLAUSES, REPO_ROOT, check, runInfo } from './fixtures.ts'
import { expectNoSecret } from './secret-scan.ts'
import { FIXTURE_SECRETS as S, FIXTURE_SECRET_LIST } from './fixtures/secrets.ts'

const tmp = mkdtempSync(join(tmpdir(), 'no-secrets-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

const ALL = [S.clientSecret, S.apiKey, S.certPem, S.token, S.opaqueToken]

describe('reporter fed with results that contain secrets', () => {
  const runDir = join(tmp, 'synthetic')
  const reporter = new ConformanceReporter({
    runDir,
    repoRoot: REPO_ROOT,
    run: runInfo({ command: 'npm run conformance -- --seed 42' }),
    clauses: () => CLAUSES,
    scrubber: new Scrubber(FIXTURE_SECRET_LIST),
  })
  reporter.record(check({
    id: `auth/tokens::leaks ${S.clientSecret}`,
    title: `title with ${S.apiKey}`,
    clauses: ['4.2.token-type'],
    status: 'failed',
    message: `expected 201; body was {"clientSecret":"${S.clientSecret}","cert":${JSON.stringify(S.certPem)}} token ${S.token}`,
    exchanges: [{
      request: {
        method: 'POST',
        url: `http://127.0.0.1:9/api/auth/token?k=${encodeURIComponent(S.apiKey)}`,
        headers: { authorization: `Bearer ${S.opaqueToken}`, 'x-ssl-client-cert': encodeURIComponent(S.certPem), 'x-api-key': S.apiKey },
        body: { clientId: 'c', clientSecret: S.clientSecret },
      },
      response: { status: 201, headers: { 'set-cookie': `t=${S.token}` }, json: { access_token: S.token }, body: JSON.stringify({ access_token: S.token }) },
    }],
  }))
  reporter.record(check({ id: 'b', status: 'skipped', skipReason: `skipped because ${S.apiKey} lacks a scope` }))
  reporter.noteError(`unhandled: ${S.certPem}`)
  const results = reporter.finish()

  test('the three files are written', () => {
    expect(results).toBeDefined()
    expect(readdirSync(runDir).sort()).toEqual(['junit.xml', 'report.html', 'results.json'])
  })

  test.each(['results.json', 'junit.xml', 'report.html'])('%s holds no secret value', (file) => {
    const text = readFileSync(join(runDir, file), 'utf8')
    expectNoSecret(text, file, ALL)
    expect(text).toContain('«redacted:')
  })

  test('the terminal summary holds no secret value', () => {
    expectNoSecret(summaryText(results!, runDir, paint(false)), 'summary', ALL)
  })
})
