// Identity of a run and of what it certified against: run id, kit version, spec hash, exit code.

import { createHash, randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { unexcusedFailures } from './results.ts'
import type { Results } from './types.ts'

/** `20261121-193000-3fa2` (UTC), with `-shard1of3` or `-merged` when it applies. */
export function makeRunId(at: Date, suffix?: string): string {
  const stamp = at.toISOString().replace(/\.\d+Z$/, '').replace(/[-:]/g, '').replace('T', '-')
  const id = `${stamp}-${randomBytes(2).toString('hex')}`
  return suffix ? `${id}-${suffix}` : id
}

export function kitVersion(repoRoot: string): string {
  try {
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version?: string }
    return pkg.version ?? 'unknown'
  } catch {
    return 'unknown'
  }
}

export const SPEC_FILES = ['specs/openapi.yaml', 'specs/clauses.yaml'] as const

/** sha256 of specs/openapi.yaml followed by specs/clauses.yaml; a missing file hashes as its name. */
export function specHash(repoRoot: string): string {
  const hash = createHash('sha256')
  for (const file of SPEC_FILES) {
    const path = join(repoRoot, file)
    hash.update(existsSync(path) ? readFileSync(path) : `missing:${file}`)
  }
  return hash.digest('hex')
}

/**
 * 0 when every applicable check passed (or every failure is waived), 1 when a check failed or the
 * run itself broke. A run in which no check ran at all is not a pass (a CI gate must not go green
 * on nothing), except for a shard, which may legitimately receive no file.
 */
export function exitCodeOf(r: Results, sharded: boolean, requireVerifiedPercent?: number, failOnFlaky = false): 0 | 1 {
  if (unexcusedFailures(r.checks) > 0 || r.errors.length > 0) return 1
  if (failOnFlaky && r.checks.some((c) => c.flaky)) return 1
  if (r.summary.total === 0 && !sharded) return 1
  if (requireVerifiedPercent !== undefined && r.coverage.percent < requireVerifiedPercent) return 1
  return 0
}
