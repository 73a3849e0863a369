// The CI examples of docs/ci/ run only commands the kit's CLI has (cli/ci-commands.ts).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { parse } from 'yaml'
import { ciCommands } from '../../../cli/ci-commands.ts'
import { REPO_ROOT } from './fixtures.ts'

interface Invocation {
  line: string
  subcommand: string
  flags: string[]
  positionals: string[]
}

/** Every `pix-conformance …` command in some shell text, up to the first shell operator. */
function invocations(shell: string): Invocation[] {
  const lines = shell.replace(/\\\n/g, ' ').split('\n')
  return lines.flatMap((line) => [...line.matchAll(/(\S*)\s*\bpix-conformance\b([^\n]*)/g)].map((m) => {
    expect(m[1], `"${line.trim()}" runs the kit through npx`).toBe('npx')
    const words = tokens(m[2]!.split(/\s(?:&&|\|\||[;|]|\d?>)\s?/)[0]!)
    const subcommand = words[0] && !words[0].startsWith('--') ? words.shift()! : 'certify'
    return {
      line: line.trim(),
      subcommand,
      flags: words.filter((w) => w.startsWith('--')).map((w) => w.split('=')[0]!),
      positionals: words.filter((w) => !w.startsWith('--')),
    }
  }))
}

/** Shell words, quotes removed (enough for the examples: no nested quoting). */
function tokens(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!)
}

const asList = (v: unknown): string[] => (v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)])

function githubShell(doc: { jobs: Record<string, { steps?: { run?: string }[] }> }): string[] {
  return Object.values(doc.jobs).flatMap((job) => (job.steps ?? []).map((s) => s.run).filter((r): r is string => typeof r === 'string'))
}

function gitlabShell(doc: Record<string, unknown>): string[] {
  return Object.values(doc).flatMap((job) => {
    if (!job || typeof job !== 'object' || Array.isArray(job)) return []
    const j = job as Record<string, unknown>
    return [...asList(j.before_script), ...asList(j.script), ...asList(j.after_script)]
  })
}

const KNOWN = await ciCommands()

const EXAMPLES = [
  { file: 'docs/ci/github-actions.yml', shell: (doc: unknown) => githubShell(doc as Parameters<typeof githubShell>[0]) },
  { file: 'docs/ci/gitlab-ci.yml', shell: (doc: unknown) => gitlabShell(doc as Record<string, unknown>) },
]

/** Problems of one command against the known CLI surface. */
function problemsOf(inv: Invocation): string[] {
  const known = KNOWN.get(inv.subcommand)
  if (!known) return [`unknown subcommand "${inv.subcommand}" in: ${inv.line}`]
  return inv.flags.filter((f) => !known.includes(f)).map((f) => `unknown flag ${f} of ${inv.subcommand} in: ${inv.line}`)
}

describe('the command checker', () => {
  test('catches an unknown flag or subcommand', () => {
    expect(invocations('npx pix-conformance --no-such-flag x').flatMap(problemsOf)).toEqual([expect.stringMatching(/unknown flag --no-such-flag/)])
    expect(invocations('npx pix-conformance certifyy --env f').flatMap(problemsOf)).toEqual([expect.stringMatching(/unknown subcommand "certifyy"/)])
    expect(invocations('npx pix-conformance verify c.json --results r > out.txt || true')).toMatchObject([{ subcommand: 'verify', flags: ['--results'], positionals: ['c.json', 'r'] }])
  })
})

describe.each(EXAMPLES)('$file', ({ file, shell }) => {
  const doc = parse(readFileSync(join(REPO_ROOT, file), 'utf8')) as unknown
  const commands = shell(doc).flatMap(invocations)

  test('parses, and every pix-conformance command it runs exists in the CLI', () => {
    expect(commands.length).toBeGreaterThan(0)
    expect(commands.flatMap(problemsOf)).toEqual([])
  })

  test('certifies shards with one seed, merges them with waivers, compares, signs, verifies and diffs', () => {
    const flags = (sub: string) => new Set(commands.filter((c) => c.subcommand === sub).flatMap((c) => c.flags))
    for (const f of ['--shard', '--seed', '--waivers', '--report-dir']) expect(flags('certify'), f).toContain(f)
    const merges = commands.filter((c) => c.flags.includes('--merge'))
    expect(merges.length).toBeGreaterThan(0)
    for (const m of merges) for (const f of ['--waivers', '--certificate', '--har']) expect(m.flags, `${m.line} has ${f}`).toContain(f)
    expect(merges.some((m) => m.flags.includes('--compare'))).toBe(true)
    for (const d of commands.filter((c) => c.subcommand === 'diff')) expect(d.positionals, d.line).toHaveLength(2)
    expect(commands.filter((c) => c.subcommand === 'verify').flatMap((c) => c.flags)).toEqual(expect.arrayContaining(['--key', '--results']))
  })

  test('secrets reach commands through the environment, never spelled into the shell text', () => {
    for (const text of shell(doc)) expect(text, text).not.toMatch(/\$\{\{\s*secrets\./)
  })
})

test('the GitHub matrix has as many shards as --shard says', () => {
  const doc = parse(readFileSync(join(REPO_ROOT, 'docs/ci/github-actions.yml'), 'utf8')) as { jobs: { certify: { strategy: { matrix: { shard: number[] } } } } }
  const certify = githubShell(doc as never).flatMap(invocations).find((c) => c.flags.includes('--shard'))!
  const count = certify.line.match(/--shard [^/\s]*(?:\s[^/\s]*)*?\/(\d+)/)![1]
  expect(count).toBe(String(doc.jobs.certify.strategy.matrix.shard.length))
})
