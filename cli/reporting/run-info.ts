// Identity of a run and of what it certified against: run id, kit version, spec hash (the exit
// code is the verdict's: cli/reporting/verdict.ts).

import { createHash, randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

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
