// Where a failure's W3C trace shows in the reports: the id a provider searches its logs for.
import { traceIdOf, traceparentHeader } from '../../harness/trace.ts'
import { esc } from './text.ts'
import type { CheckResult, EvidenceExchange } from './types.ts'
import { t } from './i18n.ts'

/** The check's trace id: its own, else the one its recorded requests carried. */
export function traceIdOfCheck(c: CheckResult): string | undefined {
  if (c.traceId) return c.traceId
  for (const ex of c.exchanges ?? []) {
    const id = traceIdOf(ex.request.headers)
    if (id) return id
  }
  return undefined
}

/** The console line under a failure. */
export function traceHint(c: CheckResult): string | undefined {
  const id = traceIdOfCheck(c)
  return id ? t('console.trace', { id }) : undefined
}

/** The traceparent an exchange was sent with, if recorded. */
export function exchangeTraceparent(ex: EvidenceExchange): string | undefined {
  return traceparentHeader(ex.request.headers)
}

/** HTML: the trace row of a failure card (inside its <dl>). */
export function traceHtml(c: CheckResult): string {
  const id = traceIdOfCheck(c)
  return id ? `<dt>${esc(t('html.trace.dt'))}</dt><dd><code class="trace">${esc(id)}</code> <span class="muted">${esc(t('html.trace.hint'))}</span></dd>` : ''
}

/** HTML: the traceparent of one exchange, after its summary. */
export function exchangeTraceHtml(ex: EvidenceExchange): string {
  const tp = exchangeTraceparent(ex)
  return tp ? `<p class="muted">traceparent <code>${esc(tp)}</code></p>` : ''
}
