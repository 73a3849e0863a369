// The severity of a failure or a clause in report.html (cli/reporting/severity.ts).
import type { CheckResult, ClauseInfo, Severity } from './types.ts'
import { t, word } from './i18n.ts'

const COLOUR: Record<Severity, string> = { money: '#8a1c1c', security: '#6b1f7a', data: '#7a5a00', protocol: '#3d4f66' }

function chip(severity: Severity): string {
  return `<span class="tag severity s-${severity}" style="color:${COLOUR[severity]};border-color:${COLOUR[severity]}" title="${t('html.severity.title')}">${word('severity', severity)}</span> `
}

/** Before a failure's title. */
export function severityChip(c: CheckResult): string {
  return c.severity ? chip(c.severity) : ''
}

/** In a clause row of the matrix. */
export function severityTag(c: ClauseInfo): string {
  return c.severity ? ` ${chip(c.severity).trim()}` : ''
}
