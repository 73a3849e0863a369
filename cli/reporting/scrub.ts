// The last line of defence for secrets (ARCHITECTURE.md "Reports"): whatever the harness already
// redacted, every string that reaches a report file or the console passes through a Scrubber built
// from the config's secret values and the bearer tokens seen during the run.
import { MIN_SECRET_LENGTH, escapeRegExp } from '../../harness/redact.ts'

export interface NamedSecret {
  name: string
  value: string
}

const JWT = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g
// on one line, as in an Authorization header: a statement ending "… is always Bearer" followed by
// the next line's rule (`token_type: expected …`) is the kit's own words, never a token
const BEARER = /\b(Bearer[ \t]+)(?!«redacted)([A-Za-z0-9._~+/=-]{8,})/g
const ACCESS_TOKEN_FIELD = /("access_token"\s*:\s*")([^"«]{8,})(")/g

export class Scrubber {
  // name of the secret, and every spelling of its value that may appear in text
  private readonly variants: { name: string; text: string }[] = []
  /** Matches when any spelling occurs (rebuilt on add): most strings hold none and skip the loop. */
  private anyVariant: RegExp | undefined
  /** Object keys recur in every check of a report; emptied on add. */
  private readonly keys = new Map<string, string>()

  constructor(secrets: Iterable<NamedSecret> = []) {
    for (const s of secrets) this.add(s.name, s.value)
  }

  /** Registers a secret; its JSON-, URL- and HTML-escaped spellings are registered with it. */
  add(name: string, value: string): void {
    if (!value) return
    for (const text of spellings(value)) {
      if (!this.variants.some((v) => v.text === text)) this.variants.push({ name, text })
    }
    // longest first, so a whole PEM file is replaced before one of its blocks
    this.variants.sort((a, b) => b.text.length - a.text.length)
    this.anyVariant = undefined
    this.keys.clear()
  }

  /** Registers the bearer tokens found in a header value or a token response body. */
  addTokensFrom(text: string): void {
    for (const m of text.matchAll(BEARER)) if (m[2]) this.add('bearer-token', m[2])
    for (const m of text.matchAll(ACCESS_TOKEN_FIELD)) if (m[2]) this.add('access_token', m[2])
  }

  text(input: string): string {
    let out = input
    // One scan tells whether any spelling occurs; the replacing stays one spelling at a time,
    // longest first, so a longer secret is never cut by a shorter one that overlaps it.
    this.anyVariant ??= new RegExp(this.variants.map((v) => escapeRegExp(v.text)).join('|') || '(?!)')
    if (this.anyVariant.test(out)) {
      for (const v of this.variants) {
        if (out.includes(v.text)) out = out.split(v.text).join(`«redacted:${v.name}»`)
      }
    }
    if (out.includes('eyJ')) out = out.replace(JWT, '«redacted:jwt»')
    if (out.includes('Bearer')) out = out.replace(BEARER, '$1«redacted:bearer-token»')
    if (out.includes('access_token')) out = out.replace(ACCESS_TOKEN_FIELD, '$1«redacted:access_token»$3')
    return out
  }

  /** A deep copy of `value` with every string scrubbed (object keys included). */
  deep<T>(value: T): T {
    return this.walk(value) as T
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value)
    if (Array.isArray(value)) return value.map((v) => this.walk(v))
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {}
      for (const [k, v] of Object.entries(value)) out[this.key(k)] = this.walk(v)
      return out
    }
    return value
  }

  private key(k: string): string {
    let clean = this.keys.get(k)
    if (clean === undefined) {
      clean = this.text(k)
      this.keys.set(k, clean)
    }
    return clean
  }
}

function spellings(value: string): string[] {
  const all = [
    value,
    value.trim(),
    JSON.stringify(value).slice(1, -1),
    encodeURIComponent(value),
    encodeURI(value),
    htmlEscaped(value),
    htmlEscaped(JSON.stringify(value).slice(1, -1)),
  ]
  return [...new Set(all)].filter((s) => s.length >= MIN_SECRET_LENGTH)
}

function htmlEscaped(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c)
}
