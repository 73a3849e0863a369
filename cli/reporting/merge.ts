// `--merge dir…`: the results of the shards of one run become one report. The clause verdicts are
// recomputed from the merged checks; the clause catalogue is the union of the shards' catalogues.

import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { buildResults } from './results.ts'
import type { CheckResult, ClauseInfo, GateSettings, Results } from './types.ts'

export class MergeError extends Error {
  override name = 'MergeError'
}

/** Reads `<dir>/results.json` (or the file itself when a path to a .json file is given). */
export function readResults(dirOrFile: string): Results {
  const file = existsSync(dirOrFile) && statSync(dirOrFile).isDirectory() ? join(dirOrFile, 'results.json') : dirOrFile
  if (!existsSync(file)) throw new MergeError(`--merge: no results.json in ${dirOrFile}`)
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'))
  } catch (e) {
    throw new MergeError(`--merge: ${file} is not valid JSON (${(e as Error).message})`)
  }
  if (!isResults(parsed)) throw new MergeError(`--merge: ${file} is not a conformance results.json`)
  return parsed
}

function isResults(v: unknown): v is Results {
  const r = v as Partial<Results> | null
  return !!r && typeof r.runId === 'string' && Array.isArray(r.checks) && Array.isArray(r.clauses) && !!r.target
}

export function mergeResults(parts: Results[], runId: string, gateSettings?: GateSettings): Results {
  const first = parts[0]
  if (!first) throw new MergeError('--merge: give at least one report folder')
  for (const p of parts.slice(1)) {
    // every embedded run starts its own reference on free ports: the same target, other addresses
    const sameTarget = (p.target.embedded && first.target.embedded) || (p.target.baseUrl === first.target.baseUrl && p.target.gatewayUrl === first.target.gatewayUrl)
    if (!sameTarget) {
      throw new MergeError(`--merge: ${p.runId} certified ${p.target.baseUrl}, ${first.runId} certified ${first.target.baseUrl}`)
    }
    if (p.profile !== first.profile) {
      throw new MergeError(`--merge: ${p.runId} ran profile ${p.profile}, ${first.runId} ran ${first.profile}`)
    }
    if (p.seed !== first.seed) throw new MergeError(`--merge: ${p.runId} ran seed ${p.seed}, ${first.runId} ran seed ${first.seed}: shards of one run share a seed`)
    if (p.kitVersion !== first.kitVersion || p.specHash !== first.specHash) {
      throw new MergeError(`--merge: ${p.runId} ran kit ${p.kitVersion} (specs ${p.specHash.slice(0, 12)}), ${first.runId} ran kit ${first.kitVersion} (specs ${first.specHash.slice(0, 12)})`)
    }
  }
  const missingShards = missingShardsOf(parts)
  const checks = uniqueChecks(parts.flatMap((p) => p.checks))
  const catalogue = uniqueClauses(parts.flatMap((p) => p.clauses))
  const startedAt = parts.map((p) => p.startedAt).sort()[0] ?? first.startedAt
  const finishedAt = parts.map((p) => p.finishedAt).sort().at(-1) ?? first.finishedAt
  return buildResults(
    {
      runId,
      startedAt,
      finishedAt,
      target: first.target,
      profile: first.profile,
      seed: first.seed,
      ...(first.numRuns !== undefined ? { numRuns: first.numRuns } : {}),
      kitVersion: first.kitVersion,
      specHash: first.specHash,
      command: first.command.replace(/\s--shard\s+\S+/, ''),
      mergedFrom: parts.map((p) => p.runId),
      ...(first.scope ? { scope: first.scope } : {}),
      ...(first.depth ? { depthProfile: first.depth.profile, numRunsExplicit: first.depth.numRunsExplicit } : {}),
      ...(missingShards.length > 0 ? { missingShards } : {}),
      ...(gateSettings && Object.keys(gateSettings).length > 0 ? { gateSettings } : {}),
      ...(parts.some((p) => p.statusCoverage?.selectedOperations) ? { narrowed: true } : {}),
    },
    checks,
    catalogue,
    parts.flatMap((p) => p.errors ?? []),
  )
}

/** `2/3` for each shard of N that no part ran (parts without --shard count as whole runs). */
function missingShardsOf(parts: Results[]): string[] {
  const shards = parts.map((p) => p.shard).filter((s): s is string => typeof s === 'string')
  if (shards.length === 0) return []
  const count = Number(shards[0]!.split('/')[1])
  if (shards.some((s) => Number(s.split('/')[1]) !== count)) throw new MergeError(`--merge: the shards split the run differently (${shards.join(', ')})`)
  const have = new Set(shards.map((s) => Number(s.split('/')[0])))
  return Array.from({ length: count }, (_, i) => i + 1).filter((i) => !have.has(i)).map((i) => `${i}/${count}`)
}

// Shards split by file, so an id seen twice means the same shard was given twice: keep one.
function uniqueChecks(checks: CheckResult[]): CheckResult[] {
  const seen = new Map<string, CheckResult>()
  for (const c of checks) if (!seen.has(c.id)) seen.set(c.id, c)
  return [...seen.values()]
}

function uniqueClauses(clauses: ClauseInfo[]): ClauseInfo[] {
  const seen = new Map<string, ClauseInfo>()
  for (const { id, section, statement, testability, level } of clauses) {
    if (!seen.has(id)) seen.set(id, { id, section, statement, testability, level })
  }
  return [...seen.values()]
}
