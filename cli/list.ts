// `--list`: the checks a run would run, as vitest collects them (no request is sent): id, clauses
// and needs, in the id form the reports and --check use (`charges/errors::create charge …`).
import { join } from 'node:path'
import { loadVitestNode } from './vitest-node.ts'

export interface ListedCheck {
  id: string
  clauses: string[]
  needs: string[]
}

export async function listChecks(repoRoot: string, filters: string[], namePattern?: string): Promise<{ checks: ListedCheck[]; errors: string[] }> {
  const { createVitest } = await loadVitestNode()
  const vitest = await createVitest('test', {
    root: repoRoot,
    config: join(repoRoot, 'vitest.config.ts'),
    run: true,
    watch: false,
    project: ['conformance'],
    reporters: [],
    passWithNoTests: true,
    isolate: false,
    ...(namePattern ? { testNamePattern: namePattern } : {}),
  }, {}, {})
  try {
    const { testModules, unhandledErrors } = await vitest.collect(filters)
    const suites = join(repoRoot, 'suites') + '/'
    const checks = testModules.flatMap((m) => {
      const prefix = m.moduleId.replace(suites, '').replace(/\.test\.ts$/, '')
      return [...m.children.allTests()]
        .filter((t) => !namePattern || new RegExp(namePattern).test(t.fullName))
        .map((t) => {
          const meta = t.meta() as { clauses?: unknown; needs?: unknown }
          const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : [])
          return { id: `${prefix}::${t.fullName}`, clauses: list(meta.clauses), needs: list(meta.needs) }
        })
    })
    const errors = [...testModules.flatMap((m) => m.errors().map((e) => `${m.moduleId}: ${e.message}`)), ...unhandledErrors.map((e) => String((e as Error).message ?? e))]
    return { checks, errors }
  } finally {
    await vitest.close()
  }
}

export function listText(checks: readonly ListedCheck[]): string {
  const lines = checks.map((c) => `${c.id}\n    clauses: ${c.clauses.join(', ')}${c.needs.length ? `\n    needs:   ${c.needs.join(', ')}` : ''}`)
  return [...lines, '', `${checks.length} checks`].join('\n')
}

/** `--check` takes an id (`area/file::title`), or a pattern matched against the titles. */
export function checkSelection(check: string): { file?: string; namePattern: string } {
  const at = check.indexOf('::')
  if (at < 0) return { namePattern: check }
  const escaped = check.slice(at + 2).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return { file: `${check.slice(0, at)}.test.ts`, namePattern: `^${escaped}$` }
}
