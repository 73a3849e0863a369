// Renders docs/READINGS.md from specs/readings.yaml: `npx tsx scripts/readings-doc.ts` (writes it),
// `--check` (exits 1 when the file is not in step). test/unit/specs/readings.test.ts runs the same check.
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
export const REGISTER_PATH = join(ROOT, 'specs', 'readings.yaml')
export const DOC_PATH = join(ROOT, 'docs', 'READINGS.md')

export interface Reading {
  id: string
  clauses: string[]
  interface: string
  readings: string[]
  kit: string
  observed: string
  reference: string
  switch?: string[]
  unswitched?: string
}

export function loadRegister(path = REGISTER_PATH): Reading[] {
  const doc = parse(readFileSync(path, 'utf8')) as { readings?: Reading[] }
  if (!Array.isArray(doc?.readings)) throw new Error(`${path}: no readings list`)
  return doc.readings
}

const cell = (text: string): string => String(text).replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|')
const code = (items: readonly string[]): string => items.map((i) => `\`${i}\``).join(', ')

function switchOf(r: Reading): string {
  if (r.switch && r.switch.length > 0) return r.switch.map((s) => `\`--reading ${s}\``).join(', ')
  return `none: ${cell(r.unswitched ?? '(no reason given)')}`
}

export function renderReadings(register: readonly Reading[]): string {
  const lines = [
    '# Readings register',
    '',
    '<!-- Generated from specs/readings.yaml by scripts/readings-doc.ts; edit the YAML, then run `npx tsx scripts/readings-doc.ts`. -->',
    '',
    'Where the interface leaves a judged value open (which id a surface carries, which of two statuses, a',
    'value in a case it does not describe, a required set it does not give, a notation), the choice is a',
    '*reading*, not a rule: the kit accepts every reading the words allow and records the target\'s choice',
    'as an observation (`meta.observed` in results.json, summed up in profile.json). The embedded reference',
    'makes one choice by default and can be started making the other (`npm run reference -- --reading',
    'NAME=VALUE`, or `startReference({ readings })`); the self-check certifies it under every switch',
    '(`SELFCHECK_READINGS=each`) and under all at once (inside `npm test`).',
    '',
    '| reading | clauses | the interface says | readings allowed | the kit accepts | observed | the reference | switch |',
    '|---|---|---|---|---|---|---|---|',
  ]
  for (const r of register) {
    lines.push(`| \`${r.id}\` | ${code(r.clauses)} | ${cell(r.interface)} | ${r.readings.map(cell).join('; or ')} | ${cell(r.kit)} | ${cell(r.observed)} | ${cell(r.reference)} | ${switchOf(r)} |`)
  }
  return `${lines.join('\n')}\n`
}

function main(): void {
  const rendered = renderReadings(loadRegister())
  if (process.argv.includes('--check')) {
    const current = readFileSync(DOC_PATH, 'utf8')
    if (current !== rendered) {
      console.error('docs/READINGS.md is not in step with specs/readings.yaml: run npx tsx scripts/readings-doc.ts')
      process.exitCode = 1
    }
    return
  }
  writeFileSync(DOC_PATH, rendered)
  console.log(`wrote ${DOC_PATH}`)
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main()
