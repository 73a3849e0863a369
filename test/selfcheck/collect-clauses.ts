// Which clause ids the checks under suites/ declare, as vitest itself collects them (no test
// runs): each check's task meta carries its clauses (CONTRACTS §6), however the suite computes
// them. Run with tsx; prints one JSON document (a Collected) on stdout, or with --uncovered-yaml
// the allowlist uncovered.yaml as today's suites leave it (to start it afresh; it only shrinks).
import { join } from 'node:path'
import { createVitest } from 'vitest/node'
import { loadClauses, type Clause } from '../../generators/clauses.ts'

export interface Collected {
  /** `id` is vitest's task id: stable for a file and position, so a later run can pick the check. */
  checks: { id: string; file: string; title: string; clauses: string[]; alone?: string }[]
  /** Suite files that failed to load: their checks are missing from `checks`. */
  errors: string[]
}

const REPO_ROOT = join(import.meta.dirname, '..', '..')

export async function collectClauses(): Promise<Collected> {
  const vitest = await createVitest('test', {
    root: REPO_ROOT,
    config: join(REPO_ROOT, 'vitest.config.ts'),
    run: true,
    watch: false,
    project: ['conformance'],
    reporters: [],
    passWithNoTests: true,
    // Collection only imports the suite files; sharing one module graph makes it several times faster.
    isolate: false,
  })
  try {
    const { testModules, unhandledErrors } = await vitest.collect()
    const checks = testModules.flatMap((m) =>
      [...m.children.allTests()].map((t) => {
        const { clauses, alone } = t.meta() as { clauses?: unknown; alone?: unknown }
        return { id: t.id, file: m.moduleId.slice(REPO_ROOT.length + 1), title: t.fullName, clauses: Array.isArray(clauses) ? clauses.map(String) : [], ...(typeof alone === 'string' ? { alone } : {}) }
      }),
    )
    const errors = [
      ...testModules.flatMap((m) => m.errors().map((e) => `${m.moduleId.slice(REPO_ROOT.length + 1)}: ${e.message}`)),
      ...unhandledErrors.map((e) => String((e as Error).message ?? e)),
    ]
    return { checks, errors }
  } finally {
    await vitest.close()
  }
}

/** Clauses a complete kit must check: level must, testable black-box or with the control API. */
export function testableMust(clauses: readonly Clause[]): Clause[] {
  return clauses.filter((c) => c.level === 'must' && c.testability !== 'not-shown')
}

export function uncoveredYaml(collected: Collected): string {
  const covered = new Set(collected.checks.flatMap((c) => c.clauses))
  const rows = testableMust(loadClauses()).filter((c) => !covered.has(c.id))
  const reason = (c: Clause) => `no check names it yet (§${c.section}${c.testability === 'needs-control' ? ', needs the control API' : ''})`
  return [
    '# Testable must clauses (specs/clauses.yaml) that no check under suites/ names yet, each with why.',
    '# test/selfcheck/coverage.test.ts fails on an uncovered clause missing here AND on a listed clause',
    '# that a check now names: when you add a check, delete its clauses from this list. The list only',
    '# shrinks. Regenerate (only to start afresh): npx tsx test/selfcheck/collect-clauses.ts --uncovered-yaml',
    'uncovered:',
    ...rows.map((c) => `  - { id: ${JSON.stringify(c.id)}, reason: ${JSON.stringify(reason(c))} }`),
    '',
  ].join('\n')
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const asYaml = process.argv.includes('--uncovered-yaml')
  collectClauses().then(
    (c) => process.stdout.write(asYaml ? uncoveredYaml(c) : `${JSON.stringify(c)}\n`),
    (e: Error) => {
      process.stderr.write(`collect-clauses: ${e.stack ?? e.message}\n`)
      process.exit(1)
    },
  )
}
