// What the action (action.yml, scripts/action-run.mjs) reports of a finished run: its outputs and
// its step summary, read from the run's results.json verdict (cli/reporting/verdict.ts). Nothing
// here decides a verdict: a run without a report has only its exit code and its last line.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** The run's report folder (its "Report: DIR" line) and its results.json, when it wrote one. */
export function reportOf(stdout) {
  const reportDir = /^Report: (\S+)/m.exec(stdout)?.[1]
  const results = reportDir && existsSync(join(reportDir, 'results.json')) ? JSON.parse(readFileSync(join(reportDir, 'results.json'), 'utf8')) : undefined
  return { reportDir, results }
}

/** The action's outputs (action.yml `outputs`), every one a string. */
export function actionOutputs({ exitCode, stdout, stderr, reportDir, results }) {
  const verdict = results?.verdict
  return {
    'exit-code': String(exitCode),
    result: verdict?.label ?? verdict?.result ?? '',
    headline: verdict?.headline ?? ((stderr.trim() || stdout.trim()).split('\n').at(-1) || `exit ${exitCode}, no report`),
    'extension-headline': verdict?.extension ?? '',
    gates: (verdict?.gates ?? []).map((g) => `${g.text}: ${g.passed ? 'met' : 'not met'}`).join('; '),
    'report-dir': reportDir ?? '',
    results: results ? join(reportDir, 'results.json') : '',
    junit: results ? join(reportDir, 'junit.xml') : '',
    html: results ? join(reportDir, 'report.html') : '',
  }
}

/** The step summary (Markdown): the headline, the extension's, each gate, the report folder. */
export function stepSummary(outputs, results) {
  const gates = (results?.verdict?.gates ?? []).map((g) => `- ${g.passed ? 'gate met' : '**gate not met**'}: ${g.text}`).join('\n')
  return [`### ${outputs.headline}`, outputs['extension-headline'] && `### ${outputs['extension-headline']}`, gates, outputs['report-dir'] ? `Report: \`${outputs['report-dir']}\`` : ''].filter(Boolean).join('\n\n') + '\n'
}
