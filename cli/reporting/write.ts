// Writes a run's three files into its folder. Everything is scrubbed twice: the data before it is
// rendered, and each rendered text before it touches the disk.

import { mkdirSync, writeFileSync } from 'node:fs'
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
  return clean
}
