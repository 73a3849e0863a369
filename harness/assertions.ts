// Assertion helpers: one small function per rule. A failure names the rule, what was expected,
// what came back and the request that showed it; every secret is redacted from the message.
import { STATUS_CODES } from 'node:http'
import type { Exchange } from './exchange.ts'
import { sharedRedactor } from './redact.ts'
import { truncate } from './recorder.ts'

export const EXCERPT_CHARS = 400

export class CheckFailure extends Error {
  constructor(
    message: string,
    readonly details: { rule?: string; clauses?: string[] } = {},
  ) {
    super(message)
    this.name = 'CheckFailure'
  }
}

/** Throws a CheckFailure: `<rule>: expected <expected>, got <got>` plus the exchange. */
export function fail(rule: string, expected: string, got: string, ex?: Exchange): never {
  const lines = [`${rule}: expected ${expected}, got ${got}`]
  if (ex) lines.push(describeExchange(ex))
  throw new CheckFailure(lines.join('\n'), { rule })
}

/** `request: GET …` and `response: 200 {…}` lines, redacted, the body cut to an excerpt. */
export function describeExchange(ex: Exchange): string {
  const r = sharedRedactor.exchange(ex)
  const answer = r.response.error ? `no usable response (${r.response.error})` : `${r.response.status} ${excerpt(r.response.body)}`
  return `request: ${r.request.method} ${r.request.url}\nresponse: ${answer}`
}

export function excerpt(body: string): string {
  return body === '' ? '(empty body)' : truncate(body.replace(/\s+/g, ' '), EXCERPT_CHARS)
}

/** A timeout, a refused connection or an oversized body fails with that reason, whatever the rule. */
export function expectResponse(ex: Exchange, rule = 'response'): void {
  if (ex.response.error) fail(rule, 'a response', ex.response.error, ex)
}

export function expectStatus(ex: Exchange, status: number | number[]): void {
  expectResponse(ex, 'status')
  const accepted = Array.isArray(status) ? status : [status]
  if (!accepted.includes(ex.response.status)) {
    fail('status', accepted.length === 1 ? `HTTP ${accepted[0]}` : `HTTP one of ${accepted.join(', ')}`, `HTTP ${ex.response.status}`, ex)
  }
}

/** The parsed JSON body as an object, or a failure saying why there is none. */
export function jsonObject(ex: Exchange, rule = 'json body'): Record<string, unknown> {
  expectResponse(ex, rule)
  const body = ex.response.json
  if (body === undefined) {
    const why = ex.response.jsonError ?? `content-type ${ex.response.headers['content-type'] ?? '(none)'}`
    fail(rule, 'a JSON body', why, ex)
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) fail(rule, 'a JSON object', describeType(body), ex)
  return body as Record<string, unknown>
}

/**
 * Interface §7 error body: `statusCode` equals the HTTP status, `error` is its reason phrase,
 * `message` is a string; on the gateway, `code` names the condition when one is given.
 */
export function expectErrorBody(ex: Exchange, status: number, opts: { code?: string } = {}): void {
  expectStatus(ex, status)
  const body = jsonObject(ex, 'error body')
  if (body.statusCode !== status) fail('error body statusCode', String(status), show(body.statusCode), ex)
  const phrase = STATUS_CODES[status]
  if (body.error !== phrase) fail('error body error (reason phrase)', show(phrase), show(body.error), ex)
  if (typeof body.message !== 'string') fail('error body message', 'a string', describeType(body.message), ex)
  if (opts.code !== undefined && body.code !== opts.code) fail('error body code', show(opts.code), show(body.code), ex)
}

/** A response header: present, and equal to (string) or matching (RegExp) when given. */
export function expectHeader(ex: Exchange, name: string, expected?: string | RegExp): string {
  expectResponse(ex, `header ${name}`)
  const value = ex.response.headers[name.toLowerCase()]
  if (value === undefined) fail(`header ${name}`, expected === undefined ? 'present' : show(expected), 'absent', ex)
  if (typeof expected === 'string' && value !== expected) fail(`header ${name}`, show(expected), show(value), ex)
  if (expected instanceof RegExp && !expected.test(value)) fail(`header ${name}`, `to match ${expected}`, show(value), ex)
  return value
}

export function show(value: unknown): string {
  if (value === undefined) return 'undefined (absent)'
  if (value instanceof RegExp) return String(value)
  return truncate(JSON.stringify(value) ?? String(value), EXCERPT_CHARS)
}

function describeType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return `${typeof value} ${show(value)}`
}
