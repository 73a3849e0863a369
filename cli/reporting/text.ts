// Small text helpers the report writers share (console, HTML, JUnit, OTLP).

/** Escapes text for HTML element content and quoted attribute values. */
export function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c)
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** The first line of a message: a failure's headline. */
export function firstLine(s: string): string {
  return s.split('\n', 1)[0] ?? ''
}
