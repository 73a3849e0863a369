// `pix-conformance init`: the template names every setting that describes a target, once.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { usageText } from '../../../cli/args.ts'
import { subcommands } from '../../../cli/subcommand.ts'
import { defaultsLines } from '../../../cli/flags.ts'
import { INTERNAL_SETTINGS, envTemplate, templateSettings } from '../../../cli/init.ts'
import { BALANCE_ACCOUNT_SETTINGS, TARGET_SETTINGS } from '../../../harness/config.ts'

test('the env template has a commented line for every target setting, once', () => {
  const template = envTemplate()
  for (const name of TARGET_SETTINGS) expect(template.match(new RegExp(`^(# )?${name}=$`, 'gm')), name).toHaveLength(1)
})

/** Every PIX_* setting harness/config.ts loadConfig reads, from its source (a balance account's three by prefix). */
function settingsLoadConfigReads(): string[] {
  const source = readFileSync(join(import.meta.dirname, '..', '..', '..', 'harness', 'config.ts'), 'utf8')
  const body = source.slice(source.indexOf('export function loadConfig('), source.indexOf('\nfunction depth('))
  const named = [...body.matchAll(/\b(?:read|flag|required)\('(PIX_[A-Z0-9_]+)'/g)].map((m) => m[1]!)
  const balance = BALANCE_ACCOUNT_SETTINGS.flatMap((p) => [`${p}_CLIENT_ID`, `${p}_CLIENT_SECRET`, `${p}_API_KEY`])
  return [...new Set([...named, ...balance])].sort()
}

test('init writes every setting loadConfig reads (and the signing key and the language the CLI reads), but the ones the CLI writes for itself', () => {
  const written = templateSettings()
  expect(new Set(written).size, 'a setting named twice').toBe(written.length)
  const wanted = [...settingsLoadConfigReads().filter((s) => !(INTERNAL_SETTINGS as readonly string[]).includes(s)), 'PIX_SIGNING_KEY_FILE', 'PIX_LANG'].sort()
  expect([...written].sort()).toEqual(wanted)
  const template = envTemplate()
  for (const name of written) expect(template.match(new RegExp(`^(# )?${name}=$`, 'gm')), name).toHaveLength(1)
})

test('the template states the defaults as --help does', async () => {
  const template = envTemplate()
  const USAGE = usageText(await subcommands())
  for (const line of defaultsLines()) expect(template).toContain(`#   ${line}`)
  for (const line of defaultsLines()) expect(USAGE.replace(/\n\s+/g, ' ')).toContain(line)
})
