// An --env file's PIX_* names: a typo is exit 2 naming the nearest setting, before anything runs;
// every setting the kit reads, and an extension's own (PIX_X_…), is accepted.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { templateSettings } from '../../../cli/init.ts'
import { checkSettingNames, knownSettings } from '../../../cli/setting-names.ts'
import { ConfigError } from '../../../harness/config.ts'
import { runCli } from './fixtures.ts'

const refusal = (names: string[]): ConfigError | undefined => {
  try {
    checkSettingNames(Object.fromEntries(names.map((n) => [n, 'x'])), 'target.env')
    return undefined
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError)
    return e as ConfigError
  }
}

describe('the PIX_* names of an --env file', () => {
  test.each([
    ['PIX_CONTROL_URI', 'PIX_CONTROL_URL'],
    ['PIX_BASE_URI', 'PIX_BASE_URL'],
    ['PIX_GATEWAY', 'PIX_GATEWAY_URL'],
    ['PIX_CLIENTSECRET', 'PIX_CLIENT_SECRET'],
    ['PIX_APIKEY', 'PIX_API_KEY'],
    ['PIX_PROFIL', 'PIX_PROFILE'],
    ['PIX_BALANCE_2_CLIENT_SECRTE', 'PIX_BALANCE_2_CLIENT_SECRET'],
    ['PIX_WEBHOOK_PUBLIC_URI', 'PIX_WEBHOOK_PUBLIC_URL'],
  ])('%s is refused: did you mean %s', (typo, meant) => {
    const e = refusal(['PIX_BASE_URL', typo])
    expect(e?.setting).toBe(typo)
    expect(e?.message).toBe(`${typo}: target.env sets a setting the kit does not know; did you mean ${meant}? (pix-conformance init writes every setting; an extension's own begin PIX_X_)`)
  })

  test('a name near none is refused, without a guess', () => {
    expect(refusal(['PIX_SOMETHING_ELSE_ENTIRELY'])?.message).toMatch(/^PIX_SOMETHING_ELSE_ENTIRELY: target.env sets a setting the kit does not know \(/)
  })

  test('every setting init writes, the ones the CLI hands its workers, an extension\'s own, and names that are not PIX_* are accepted', () => {
    expect(refusal([...templateSettings(), 'PIX_TAGS', 'PIX_EXCLUDE_TAGS', 'PIX_X_ACME_URL', 'NODE_OPTIONS', 'HTTPS_PROXY'])).toBeUndefined()
    expect(knownSettings()).toEqual(expect.arrayContaining(templateSettings()))
  })
})

const dir = mkdtempSync(join(tmpdir(), 'setting-names-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('the CLI: exit 2 at once, one line naming the typo and the setting meant, no report', async () => {
  const envFile = join(dir, 'target.env')
  writeFileSync(envFile, 'PIX_BASE_URL=http://127.0.0.1:9\nPIX_GATEWAY_URL=http://127.0.0.1:9\nPIX_CLIENT_ID=c\nPIX_CLIENT_SECRET=secret-0123\nPIX_API_KEY=key-0123\nPIX_CONTROL_URI=http://127.0.0.1:9\n')
  const run = await runCli(['--env', envFile, '--report-dir', join(dir, 'reports')])
  expect(run.code).toBe(2)
  expect(run.stderr.trim()).toBe(`conformance: PIX_CONTROL_URI: ${envFile} sets a setting the kit does not know; did you mean PIX_CONTROL_URL? (pix-conformance init writes every setting; an extension's own begin PIX_X_)`)
  expect(run.stdout).toBe('')
  const checkDriver = await runCli(['check-driver', '--env', envFile])
  expect(checkDriver.code).toBe(2)
  expect(checkDriver.stderr).toMatch(/PIX_CONTROL_URI: .*did you mean PIX_CONTROL_URL\?/)
})
