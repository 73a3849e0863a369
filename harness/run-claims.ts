// Which check of a run fails a clause that several checks could fail (a valid request the target
// refused, harness/valid-requests.ts): the first to claim it. A certification's workers are
// separate processes, so the claim is a folder made atomically under the run's own scratch folder,
// which the CLI removes when the run ends (claimsDirOf).
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const hash = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16)

/** The scratch folder of a run's claims (removed by the CLI after the run). */
export const claimsDirOf = (runId: string): string => join(tmpdir(), `pix-kit-claims-${hash(runId)}`)

const claimedHere = new Map<string, string>()

/**
 * Which check fails `clause` in this run: the first to ask (or the same check again, on a retry).
 * Without a run id (PIX_RUN_ID, set by the CLI), this process only.
 */
export function failingCheckFor(clause: string, checkId: string): string {
  const runId = process.env.PIX_RUN_ID
  if (!runId) {
    if (!claimedHere.has(clause)) claimedHere.set(clause, checkId)
    return claimedHere.get(clause)!
  }
  const dir = join(claimsDirOf(runId), hash(clause))
  try {
    mkdirSync(claimsDirOf(runId), { recursive: true })
    mkdirSync(dir)
    writeFileSync(join(dir, 'check'), checkId)
    return checkId
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  }
  // the winner writes its id just after making the folder: read it, waiting a moment if need be
  for (let i = 0; i < 50; i++) {
    try {
      const owner = readFileSync(join(dir, 'check'), 'utf8')
      if (owner) return owner
    } catch {
      // not written yet
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10)
  }
  return 'another check of this run'
}
