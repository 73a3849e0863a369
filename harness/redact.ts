// Redaction: no secret reaches a report or a log (docs/ARCHITECTURE.md "Reports"). Every known secret
// value (config secrets, tokens seen in responses) is replaced by «redacted:<name>» wherever it
// appears, in its plain, URL-encoded, form-encoded and JSON-escaped forms; the credential headers
// and credential body fields are replaced even when their value is not a known secret.
import type { Exchange } from './exchange.ts'
import { remembered } from './memo.ts'

/** Values shorter than this are not redacted as text: they would blank out ordinary words. */
export const MIN_SECRET_LENGTH = 4

/** A value never to appear in a report or log, and the name it is reported under. */
export interface SecretValue {
  name: string
  value: string
}

const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-api-key', 'x-ssl-client-cert'])
const CREDENTIAL_FIELDS = ['clientSecret', 'client_secret', 'access_token', 'refresh_token']
const TOKEN_FIELDS = ['access_token', 'refresh_token']
const PLACEHOLDER = /^«redacted:[^»]+»$/

export function placeholder(name: string): string {
  return `«redacted:${name}»`
}

export class Redactor {
  /** Every form of every secret, mapped to the name it is reported under. */
  private readonly forms = new Map<string, string>()
  private pattern: RegExp | undefined
  /** No text shorter than the shortest form can hold a secret (most header values). */
  private shortest = Number.POSITIVE_INFINITY
  /** Redacted header values by their text (see headerValue()); emptied when a secret is added. */
  private readonly seen = new Map<string, string>()
  /** The same for the credential headers, by header: their final form (scheme kept, credential blanked). */
  private readonly seenCredentials = new Map<string, Map<string, string>>()

  constructor(secrets: SecretValue[] = []) {
    for (const s of secrets) this.add(s.name, s.value)
  }

  /** Registers a secret: from now on its value, in any encoding, is replaced by «redacted:name». */
  add(name: string, value: string): void {
    if (value.length < MIN_SECRET_LENGTH) return
    for (const form of encodedForms(value)) {
      if (!this.forms.has(form)) {
        this.forms.set(form, name)
        this.pattern = undefined
        this.seen.clear()
        this.seenCredentials.clear()
        this.shortest = Math.min(this.shortest, form.length)
      }
    }
  }

  /** Learns the tokens a response hands out, so later requests carrying them are redacted too. */
  learnFrom(ex: Exchange): void {
    const json = ex.response.json
    if (json === null || typeof json !== 'object') return
    for (const field of TOKEN_FIELDS) {
      const value = (json as Record<string, unknown>)[field]
      if (typeof value === 'string') this.add(field, value)
    }
  }

  /** Replaces every known secret in a piece of text. */
  text(s: string): string {
    if (s.length < this.shortest) return s
    this.pattern ??= alternation([...this.forms.keys()])
    return s.replace(this.pattern, (match) => placeholder(this.forms.get(match) ?? 'secret'))
  }

  /** The headers with secrets replaced: the same object when nothing needed replacing. */
  headers(headers: Record<string, string>): Record<string, string> {
    let out: Record<string, string> | undefined
    for (const name in headers) {
      const value = headers[name] as string
      const clean = this.headerValue(name, value)
      if (clean !== value) out ??= { ...headers }
      if (out) out[name] = clean
    }
    return out ?? headers
  }

  /**
   * One header's value, redacted. Header values recur from exchange to exchange (a check's
   * Authorization, a server's Content-Type), so each is redacted once and remembered; a value too
   * short to hold a secret is not looked up at all, and a traceparent, new on every request, is
   * redacted without being remembered, where it would only crowd out the values that recur.
   */
  private headerValue(name: string, value: string): string {
    const lower = name.toLowerCase()
    if (CREDENTIAL_HEADERS.has(lower)) {
      let memo = this.seenCredentials.get(lower)
      if (!memo) this.seenCredentials.set(lower, (memo = new Map()))
      return remembered(memo, value, (text) => credentialHeader(lower, this.text(text)))
    }
    if (value.length < this.shortest) return value
    if (lower === 'traceparent') return this.text(value)
    return remembered(this.seen, value, (text) => this.text(text))
  }

  body(body: string): string {
    return credentialFields(this.text(body))
  }

  /**
   * The exchange with secrets replaced; the parsed JSON is rebuilt from the redacted text. A part
   * with nothing to replace is the original object (most responses): evidence is read, never changed.
   */
  exchange(ex: Exchange): Exchange {
    const url = this.text(ex.request.url)  // not remembered: most URLs of a check are new (ids, pages)
    const requestHeaders = this.headers(ex.request.headers)
    const requestBody = ex.request.body === undefined ? undefined : this.body(ex.request.body)
    const request = url === ex.request.url && requestHeaders === ex.request.headers && requestBody === ex.request.body
      ? ex.request
      : { ...ex.request, url, headers: requestHeaders, ...(requestBody === undefined ? {} : { body: requestBody }) }
    const body = this.body(ex.response.body)
    const headers = this.headers(ex.response.headers)
    const error = ex.response.error === undefined ? undefined : this.text(ex.response.error)
    if (body === ex.response.body && headers === ex.response.headers && error === ex.response.error) return { request, response: ex.response }
    const response = { ...ex.response, headers, body }
    // Parsed again only when redaction changed the text: an unchanged body parses to the same value.
    if (ex.response.json !== undefined) response.json = body === ex.response.body ? ex.response.json : reparse(body, ex.response.json, this)
    if (error !== undefined) response.error = error
    return { request, response }
  }
}

/** The forms a secret takes on the wire: plain, URL-encoded, form-encoded, inside a JSON string. */
export function encodedForms(value: string): string[] {
  const forms = new Set<string>([value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2)])
  const jsonEscaped = JSON.stringify(value).slice(1, -1)
  forms.add(jsonEscaped)
  forms.add(encodeURIComponent(jsonEscaped))
  return [...forms].filter((f) => f.length >= MIN_SECRET_LENGTH)
}

function alternation(values: string[]): RegExp {
  const longestFirst = [...values].sort((a, b) => b.length - a.length)
  return new RegExp(longestFirst.map(escapeRegExp).join('|'), 'g')
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** Keeps the scheme of an Authorization header (evidence of what was sent) and a known name. */
function credentialHeader(name: string, value: string): string {
  if (PLACEHOLDER.test(value)) return value
  const scheme = /^([A-Za-z][\w-]*)\s+(.*)$/.exec(value)
  if (name.endsWith('authorization') && scheme) {
    const credential = scheme[2] ?? ''
    return `${scheme[1]} ${PLACEHOLDER.test(credential) ? credential : placeholder(name)}`
  }
  return value === '' ? value : placeholder(name)
}

// Compiled once: a body is redacted on every exchange a check records.
const CREDENTIAL_FIELD_PATTERNS = CREDENTIAL_FIELDS.map((field) => ({
  field,
  json: new RegExp(`("${field}"\\s*:\\s*)"((?:[^"\\\\]|\\\\.)*)"`, 'g'),
  form: new RegExp(`(^|&)(${field}=)([^&]*)`, 'g'),
}))

/** Blanks credential fields in JSON text (`"clientSecret": "…"`) and form text (`clientSecret=…`). */
function credentialFields(body: string): string {
  let out = body
  for (const { field, json, form } of CREDENTIAL_FIELD_PATTERNS) {
    if (!out.includes(field)) continue
    out = out.replace(json, (_m, prefix: string, value: string) =>
      `${prefix}"${PLACEHOLDER.test(value) ? value : placeholder(field)}"`,
    )
    out = out.replace(form, (_m, start: string, key: string, value: string) =>
      `${start}${key}${PLACEHOLDER.test(decodeSafe(value)) ? value : placeholder(field)}`,
    )
  }
  return out
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

/** Parses the redacted body again; when it no longer parses (cut mid-string), redacts the value. */
function reparse(redactedBody: string, original: unknown, redactor: Redactor): unknown {
  try {
    return JSON.parse(redactedBody)
  } catch {
    return JSON.parse(redactor.body(JSON.stringify(original))) as unknown
  }
}

/**
 * The worker's redactor: config secrets are added when a check's context is built, tokens as
 * they are seen. Recorders and failure messages all use it, so a token learned by one check is
 * redacted in every other.
 */
export const sharedRedactor = new Redactor()
