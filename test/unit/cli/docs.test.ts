// The documents made from the kit's definitions stay in step with them (`npm run docs` remakes
// them), and the README is a guide a user can follow from the package alone: every link inside it.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { usageText } from '../../../cli/args.ts'
import { DEFAULTS, defaultsLines } from '../../../cli/flags.ts'
import { CLAUSES_MD, README, REPO_ROOT, readmeWithGenerated, renderClauses } from '../../../cli/docs.ts'
import { envTemplate } from '../../../cli/init.ts'
import { subcommands } from '../../../cli/subcommand.ts'

const readme = readFileSync(README, 'utf8')
const table = await subcommands()
const USAGE = usageText(table)

describe('docs/CLAUSES.md', () => {
  test('is specs/clauses.yaml rendered by section (npm run docs)', () => {
    expect(readFileSync(CLAUSES_MD, 'utf8')).toBe(renderClauses(readFileSync(join(REPO_ROOT, 'specs', 'clauses.yaml'), 'utf8')))
  })

  test('takes fields it does not know in its stride, and shows a severity when the catalogue grades one', () => {
    const md = renderClauses(`clauses:
  - { id: 0.a, section: "0", statement: "a | b", testability: black-box, level: must, severity: high, owner: x }
  - { id: 0.b, section: "0", statement: c, testability: not-shown, level: info }
`)
    expect(md).toContain('| clause | statement | testability | level | severity |')
    expect(md).toContain('| `0.a` | a \\| b | black-box | must | high |')
    expect(md).toContain('| `0.b` | c | not-shown | info |  |')
    expect(md).not.toContain('owner')
  })
})

describe('README.md', () => {
  test('its defaults, command list and flag table are the ones cli/flags.ts and cli/commands/ define (npm run docs)', () => {
    expect(readmeWithGenerated(readme, table)).toBe(readme)
  })

  test('states each default as --help and init do', () => {
    const flat = (text: string) => text.replace(/\n[#\s]*/g, ' ')
    for (const line of defaultsLines()) {
      expect(readme).toContain(`- ${line}`)
      expect(flat(USAGE)).toContain(line)
      expect(envTemplate()).toContain(line)
    }
    expect(Object.keys(DEFAULTS)).toEqual(['profile', 'workers', 'depth', 'rate'])
  })

  test('shows the two commands, the three steps and every subcommand', () => {
    expect(readme).toContain('npm ci && npm run conformance')
    expect(readme).toContain('npm ci && npm test ')
    expect(readme).toMatch(/pix-conformance init[\s\S]*--env target\.env/)
    for (const { name } of table) expect(readme, name).toMatch(new RegExp(`pix-conformance (\\[)?${name}\\b`))
    expect(readme).toContain("import { certify } from 'pix-conformance-kit'")
  })

  test('links nothing outside the repository, and every link it has leads to a file', () => {
    const targets = [...readme.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)].map((m) => m[1]!).filter((t) => !/^https?:/.test(t))
    expect(targets.length).toBeGreaterThan(5)
    expect(targets.filter((t) => t.startsWith('..') || t.startsWith('/'))).toEqual([])
    // docs/READINGS.md and docs/RECEIVER.md are written beside this work; the rest must exist now
    const missing = targets.filter((t) => !existsSync(join(dirname(README), t)) && !['docs/READINGS.md', 'docs/RECEIVER.md'].includes(t))
    expect(missing).toEqual([])
    expect(readme).not.toMatch(/\.\.\/shared\//)
  })
})
