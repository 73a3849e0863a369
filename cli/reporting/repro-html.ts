// report.html: each failure's reproducer (repro-plan.ts), written beside the report.
import { reproLink } from './repro-plan.ts'
import { esc } from './text.ts'
import type { CheckResult, Results } from './types.ts'
import { t } from './i18n.ts'

/** The reproducer row of a failure card (inside its <dl>). */
export function reproHtml(r: Results, c: CheckResult): string {
  const link = reproLink(r, c)
  if (!link) return ''
  return `<dt>${esc(t('html.repro.dt'))}</dt><dd><a href="${esc(link)}"><code>${esc(link)}</code></a> <span class="muted">${esc(t('html.repro.hint'))} <code>pix-conformance repro ${esc(JSON.stringify(c.id))} --from &lt;this folder&gt;</code></span></dd>`
}
