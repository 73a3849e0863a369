// Writes a run's three files into its folder. Everything is scrubbed twice: the data before it is
// rendered, and each rendered text before it touches the disk.

import { mkdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { renderHtml } from './html.ts'
import { renderJunit } from './junit.ts'
import type { Scrubber } from './scrub.ts'
import type { Results } from './types.ts'

export const REPORT_FILES = ['results.json', 'junit.xml', 'report.html'] as const

export function writeReport(dir: string, results: Results, scrubber: Scrubber): Results {
  const clean = scrubber.deep(results)
  mkdirSync(dir, { recursive: true })
  const files: Record<(typeof REPORT_FILES)[number], string> = {
    'results.json': `${JSON.stringify(clean, null, 2)}\n`,
    'junit.xml': renderJunit(clean),
    'report.html': renderHtml(clean),
  }
  for (const name of REPORT_FILES) writeFileSync(join(dir, name), scrubber.text(files[name]))
  if (clean.observedProfile) {
    const profile = { target: clean.target, kitVersion: clean.kitVersion, runId: clean.runId, observed: clean.observedProfile }
    writeFileSync(join(dir, 'profile.json'), scrubber.text(`${JSON.stringify(profile, null, 2)}\n`))
  }
  return clean
}

/**
 * Creates a run's folder and proves a file can be written there, so that an unusable report
 * folder is known before the run rather than after it. Throws with the reason (the caller names
 * the setting).
 */
export function prepareRunDir(dir: string): void {
  mkdirSync(dir, { recursive: true })
  const probe = join(dir, '.write-probe')
  writeFileSync(probe, '')
  rmSync(probe)
}

/** Removes a run folder that received nothing (the run ended before its report); keeps anything written. */
export function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir)
  } catch {
    // not empty, or already gone: either way nothing to clean
  }
}
