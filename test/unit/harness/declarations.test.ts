// harness.d.ts is the published face of harness/index.ts for extension suites (docs/EXTENDING.md).
// It is written by hand (the implementation's types reach into the kit's internals), so this test
// keeps the two in step: every name harness/index.ts exports is declared, every member of the
// check context and of the check options is declared, and nothing is declared that is not there;
// declarations.types.ts holds each declared type against the implementation's, and tsc judges it.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import * as harness from '../../../harness/index.ts'
import { typeErrors } from '../typecheck.ts'

const read = (path: string): string => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8')
const DECLARED = read('harness.d.ts')

/** The member names of `interface NAME { … }` in a source text (methods, properties, overloads once). */
function membersOf(text: string, name: string): string[] {
  const start = text.indexOf(`export interface ${name}`)
  if (start < 0) throw new Error(`no interface ${name}`)
  const open = text.indexOf('{', start)
  let depth = 0
  let end = open
  for (; end < text.length; end++) {
    if (text[end] === '{') depth++
    if (text[end] === '}' && --depth === 0) break
  }
  const body = text.slice(open + 1, end)
  const names = [...body.matchAll(/^ {2}(?:readonly )?([A-Za-z_$][\w$]*)\??[<(:]/gm)].map((m) => m[1]!)
  return [...new Set(names)].sort()
}

function declaredExports(text: string): string[] {
  const names = [...text.matchAll(/^export (?:function|const|interface|type) ([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]!)
  if (/^export \{ default as fc \}/m.test(text)) names.push('fc')
  return [...new Set(names)].sort()
}

describe('harness.d.ts and harness/index.ts', () => {
  it('declare every value the harness exports', () => {
    const declared = declaredExports(DECLARED)
    expect(Object.keys(harness).filter((name) => !declared.includes(name)), 'exported but not declared').toEqual([])
  })

  it('declare the check context as it is built, verb for verb', () => {
    expect(membersOf(DECLARED, 'CheckContext')).toEqual(membersOf(read('harness/context.ts'), 'CheckContext'))
  })

  it('declare the check options as check() reads them', () => {
    expect(membersOf(DECLARED, 'CheckOptions')).toEqual(membersOf(read('harness/check.ts'), 'CheckOptions'))
  })

  it('declare the property options and model runs as the runner takes them', () => {
    for (const name of ['PropertyOptions', 'ModelRun', 'ModelRunOptions']) {
      expect(membersOf(DECLARED, name), name).toEqual(membersOf(read('harness/property.ts'), name))
    }
  })

  it('declare each type as the implementation has it: what the kit hands a check, what a check writes', () => {
    expect(typeErrors(new URL('./declarations.types.ts', import.meta.url))).toEqual([])
  }, 60_000)
})
