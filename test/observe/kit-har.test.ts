// The kit's own --har of a certification of the reference, judged by observe: no failure. Its
// recording has the traits other recordings have too: bodies cut at 8 KB, secrets redacted, one
// time for every request, and checks that send invalid requests on purpose.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { observeMain } from '../../cli/observe/main.ts'
import { REPO_ROOT } from './session.ts'

it.each(['conventions', 'model'])('the kit\'s HAR of the %s area gives no failure', async (area) => {
  const dir = mkdtempSync(join(tmpdir(), 'observe-kit-har-'))
  const har = join(dir, 'run.har')
  const run = spawnSync(process.execPath, ['bin/pix-conformance.js', '--area', area, '--har', har, '--report-dir', dir], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 240_000 })
  expect(run.status, run.stdout.slice(-2000)).toBe(0)
  const reports = mkdtempSync(join(dir, 'observe-'))
  const code = await observeMain(['--har', har, '--report-dir', reports], { out: () => {}, err: () => {} })
  const results = JSON.parse(readFileSync(join(reports, readdirSync(reports)[0]!, 'results.json'), 'utf8'))
  expect(results.checks.filter((c: { status: string }) => c.status === 'failed').map((c: { message: string }) => c.message)).toEqual([])
  expect(code).toBe(0)
  expect(results.observe.observedClauses).toBeGreaterThan(20)
})
