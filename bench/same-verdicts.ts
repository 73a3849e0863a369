// Whether two runs gave the same verdicts: every check's and every clause's status, by id, and the
// exit code. For a change that must not move a verdict (scheduling, memory, start-up), run the
// certification before and after it with the same seed and compare the two results.json:
//   npx tsx bench/same-verdicts.ts BEFORE/results.json AFTER/results.json   (exit 1 on a difference)
import { readFileSync } from 'node:fs'

interface Run {
  checks: { id: string; status: string }[]
  clauses: { id: string; status: string }[]
  verdict: { exitCode: number }
}

export function verdictDifferences(before: Run, after: Run): string[] {
  const out: string[] = []
  for (const key of ['checks', 'clauses'] as const) {
    const [a, b] = [before, after].map((r) => new Map(r[key].map((x) => [x.id, x.status])))
    for (const id of new Set([...a!.keys(), ...b!.keys()])) {
      if (a!.get(id) !== b!.get(id)) out.push(`${key} ${id}: ${a!.get(id) ?? 'absent'} → ${b!.get(id) ?? 'absent'}`)
    }
  }
  if (before.verdict.exitCode !== after.verdict.exitCode) out.push(`exit code: ${before.verdict.exitCode} → ${after.verdict.exitCode}`)
  return out
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [before, after] = process.argv.slice(2).map((f) => JSON.parse(readFileSync(f, 'utf8')) as Run)
  if (!before || !after) {
    process.stderr.write('usage: npx tsx bench/same-verdicts.ts BEFORE/results.json AFTER/results.json\n')
    process.exit(2)
  }
  const diff = verdictDifferences(before, after)
  process.stdout.write(diff.length === 0 ? `same verdicts: ${before.checks.length} checks, ${before.clauses.length} clauses, exit code ${before.verdict.exitCode}\n` : `${diff.join('\n')}\n`)
  process.exit(diff.length === 0 ? 0 : 1)
}
