// What a finished certification (or merge) does beyond its report: the reproducers, the status
// coverage and --fail-on lines, --otlp-endpoint (the run as spans); and the gate settings of its
// flags, which the verdict decides with (cli/reporting/verdict.ts).
import { join } from 'node:path'
import type { CliArgs } from '../flags.ts'
import { writeReproducers } from './repro.ts'
import { coverageLine, neverSeen } from '../reporting/coverage.ts'
import { failOnLine } from '../reporting/severity.ts'
import type { GateSettings, Results } from '../reporting/types.ts'
import { currentLang, t } from '../reporting/i18n.ts'
import { noReproWhy, progress } from '../reporting/progress-i18n.ts'

const SHOWN_GAPS = 12

/** Writes the failures' reproducers, prints the status coverage and the --fail-on split; sends the spans when asked. */
export async function afterRun(args: CliArgs, results: Results, say: (line: string) => void, complain: (line: string) => void, runDir?: string): Promise<void> {
  if (runDir) {
    try {
      const { written: n, without } = writeReproducers(results, runDir)
      if (n > 0) say(currentLang() === 'en' ? `  reproducers: ${n} standalone script${n === 1 ? '' : 's'} in ${join(runDir, 'repro')} (node <file>: exit 1 while broken, 0 once fixed)` : `  ${t('console.reproducers', { n, dir: join(runDir, 'repro') })}`)
      if (without.length > 0) say(without.length === 1 ? progress('after.noRepro.1') : progress('after.noRepro', { n: without.length }))
      for (const w of without.slice(0, SHOWN_GAPS)) say(`    ${w.check}: ${noReproWhy(w.why)}`)
      if (without.length > SHOWN_GAPS) say(progress('after.more', { n: without.length - SHOWN_GAPS }))
    } catch (e) {
      complain(progress('after.reproFailed', { why: (e as Error).message }))
    }
  }
  const coverage = results.statusCoverage
  // one check says nothing of the statuses documented across the interface: no block for it
  if (coverage && results.checks.length > 1) {
    const gaps = neverSeen(coverage)
    say(`  ${coverageLine(coverage)}`)
    if (gaps.length > 0) say(`  ${t('console.neverSeen')}: ${gaps.slice(0, SHOWN_GAPS).join(', ')}${gaps.length > SHOWN_GAPS ? `, … ${t('console.neverSeen.more', { n: gaps.length - SHOWN_GAPS })}` : ''}`)
  }
  if (args.failOn) {
    const line = failOnLine(results, args.failOn)
    if (line) say(line)
  }
  if (args.otlpEndpoint) {
    try {
      const { exportRunAsSpans } = await import('../reporting/otlp.ts')
      const sent = await exportRunAsSpans(results, { endpoint: args.otlpEndpoint })
      say(progress('after.otlp', { n: sent.spans, url: args.otlpEndpoint }))
    } catch (e) {
      // the export is a copy of the report for the provider's tracing: its failure changes no verdict
      complain(progress('run.warning', { text: (e as Error).message }))
    }
  }
}

/** The gates a run or merge was given: its verdict (cli/reporting/verdict.ts) decides with them. */
export function gateSettingsOf(args: CliArgs): { gateSettings?: GateSettings } {
  const gateSettings: GateSettings = {
    ...(args.requireCoverage !== undefined ? { requireCoverage: args.requireCoverage } : {}),
    ...(args.requireVerified !== undefined ? { requireVerified: args.requireVerified } : {}),
    ...(args.failOn ? { failOn: args.failOn } : {}),
    ...(args.failOnFlaky ? { failOnFlaky: true } : {}),
  }
  return Object.keys(gateSettings).length > 0 ? { gateSettings } : {}
}
