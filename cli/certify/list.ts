// `--list`: the checks a run would run, as vitest collects them (no request is sent): id, clauses
// and needs, in the id form the reports and --check use (`charges/errors::create charge …`).
import { existsSync, readdirSync } from 'node:fs'
import { join, sep } from 'node:path'
import { escapeRegExp } from '../../harness/redact.ts'
import { editDistance } from '../did-you-mean.ts'
import { ArgsError } from '../flags.ts'
import { SEVERITY_ORDER } from '../reporting/severity.ts'
import { loadVitestNode } from './vitest-node.ts'
import { progress } from '../reporting/progress-i18n.ts'

export interface ListedCheck {
  id: string
  clauses: string[]
  needs: string[]
  /** What --tag and --exclude-tag match (harness/check.ts tagsOf): area, severities, needs, its own. */
  tags: string[]
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
          const meta = t.meta() as { clauses?: unknown; needs?: unknown; tags?: unknown }
          const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : [])
          return { id: `${prefix}::${t.fullName}`, clauses: list(meta.clauses), needs: list(meta.needs), tags: list(meta.tags) }
        })
    })
    const errors = [...testModules.flatMap((m) => m.errors().map((e) => `${m.moduleId}: ${e.message}`)), ...unhandledErrors.map((e) => String((e as Error).message ?? e))]
    return { checks, errors }
  } finally {
    await vitest.close()
  }
}

export function listText(checks: readonly ListedCheck[]): string {
  const lines = checks.map((c) => {
    const severity = severityOf(c)
    return [
      c.id,
      `    ${progress('list.clauses')} ${c.clauses.join(', ')}`,
      ...(c.needs.length ? [`    ${progress('list.needs')} ${c.needs.join(', ')}`] : []),
      `    ${progress('list.tags')} ${c.tags.join(', ')}`,
      ...(severity ? [`    ${progress('list.severity')} ${severity}`] : []),
    ].join('\n')
  })
  return [...lines, '', (checks.length === 1 ? progress('list.count.1') : progress('list.count', { n: checks.length }))].join('\n')
}

/** The costliest severity among a check's clauses' (its tags carry them): what a failure of it may cost. */
export function severityOf(c: Pick<ListedCheck, 'tags'>): string | undefined {
  return SEVERITY_ORDER.find((s) => c.tags.includes(s))
}

/** The files and the vitest name pattern of the checks `--check` selected. */
export interface CheckSelection {
  files: string[]
  namePattern: string
  ids: string[]
}

/**
 * `--check` picks the checks whose id (`area/file::title`) starts with its value, or whose title
 * matches it as a pattern. Nothing picked is a mistake in the flag (ArgsError names the closest
 * ids), found before anything runs. `filters` are the run's suite filters; an id names its file.
 */
export async function selectChecks(repoRoot: string, check: string, filters: string[]): Promise<CheckSelection> {
  const at = check.indexOf('::')
  const file = at >= 0 ? `suites/${check.slice(0, at)}.test.ts` : undefined
  if (file && !existsSync(join(repoRoot, file))) {
    // no such file: the closest files' ids, without collecting any check
    const closest = closestIds(check.slice(0, at), suiteFileIds(join(repoRoot, 'suites'))).map((id) => `${id}::…`)
    throw new ArgsError('--check', `"${check}" matches no check id: there is no ${file}; the closest ids: ${closest.join(' | ')} (--list prints them all)`)
  }
  const { checks } = await listChecks(repoRoot, file ? [file] : filters)
  const titlePattern = patternOf(check)
  const exact = checks.filter((c) => c.id === check)  // a replay names one check, even if its id begins another's
  const picked = exact.length > 0 ? exact : checks.filter((c) => c.id.startsWith(check) || (at < 0 && titlePattern?.test(titleOf(c.id))))
  if (picked.length === 0) {
    const closest = closestIds(check, checks.map((c) => c.id))
    throw new ArgsError('--check', `"${check}" matches no check id or title${closest.length > 0 ? `; the closest ids: ${closest.join(' | ')}` : ''} (--list prints them all)`)
  }
  const files = [...new Set(picked.map((c) => `${c.id.slice(0, c.id.indexOf('::'))}.test.ts`))]
  const titles = [...new Set(picked.map((c) => titleOf(c.id)))]
  return { files, namePattern: `^(?:${titles.map(escapeRegExp).join('|')})$`, ids: picked.map((c) => c.id) }
}

/** `area/name` of every suite file: the first half of the ids of its checks. */
function suiteFileIds(suitesDir: string): string[] {
  return readdirSync(suitesDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.test.ts')).map((f) => f.split(sep).join('/').replace(/\.test\.ts$/, ''))
}

function titleOf(id: string): string {
  return id.slice(id.indexOf('::') + 2)
}

function patternOf(text: string): RegExp | undefined {
  try {
    return new RegExp(text)
  } catch {
    return undefined
  }
}

/** The ids nearest to `wanted` (edit distance on the same length of prefix), at most three. */
export function closestIds(wanted: string, ids: readonly string[], count = 3): string[] {
  const scored = ids.map((id) => ({ id, distance: editDistance(wanted, id.slice(0, Math.max(wanted.length, id.indexOf('::') + 2))) }))
  return scored.sort((a, b) => a.distance - b.distance || a.id.localeCompare(b.id)).slice(0, count).map((s) => s.id)
}
