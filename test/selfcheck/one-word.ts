// One word per run, end to end: a certification's exit code, the console's headline, results.json,
// junit.xml, report.html, the action's outputs and summary and the monitor's outcome say the same
// (test/unit/cli/verdict-outputs.test.ts walks every gate on synthetic results).
import { expect } from 'vitest'
import { outcomeOf } from '../../cli/monitor/loop.ts'
// @ts-expect-error: a plain .mjs module of the action, without types
import { actionOutputs, stepSummary } from '../../scripts/action-outputs.mjs'
import type { RunResults } from './runner.ts'

/** The exit code, the console, results.json, junit.xml, report.html, the action and the monitor say `label`. */
export function expectOneWord(run: RunResults, label: string, exitCode: 0 | 1): void {
  const tail = run.run.output.slice(-3000)
  const v = run.verdict
  expect(run.run.exitCode, tail).toBe(exitCode)
  expect({ label: v.label, exitCode: v.exitCode }, tail).toEqual({ label, exitCode })
  expect(v.headline.startsWith(`${label} — `)).toBe(true)
  expect(run.run.output.split('\n').map((l) => l.trim()), tail).toContain(v.headline)
  const files = run.run.files!
  const xmlAttr = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
  expect(files.junit).toContain(`<property name="result" value="${xmlAttr(v.headline)}"/>`)
  expect(files.junit).toContain(`<property name="verdict" value="${xmlAttr(label)}"/>`)
  expect(files.junit).toContain(`<property name="exitCode" value="${exitCode}"/>`)
  const top = /<testsuites [^>]*failures="(\d+)" errors="(\d+)"/.exec(files.junit)!
  expect(Number(top[1]) + Number(top[2]) > 0).toBe(v.result === 'FAILED')
  const htmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
  expect(files.html).toMatch(new RegExp(`<span class="verdict \\w+">${htmlText(label).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}</span>`))
  expect(files.html).toContain(`<p class="headline">${htmlText(v.headline)}</p>`)
  const outputs = actionOutputs({ exitCode: run.run.exitCode, stdout: run.run.output, stderr: '', reportDir: files.reportDir, results: run }) as Record<string, string>
  expect(outputs).toMatchObject({ 'exit-code': String(exitCode), result: label, headline: v.headline })
  expect(stepSummary(outputs, run)).toContain(`### ${v.headline}`)
  expect(outcomeOf(run)).toBe(exitCode === 0 ? 'passed' : 'failed')
}
