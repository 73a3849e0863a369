// Assertion helpers: one small function per rule. A failure names the rule, what was expected,
// what came back and the request that showed it; every secret is redacted from the message.
import { STATUS_CODES } from 'node:http'
import type { Exchange } from './exchange.ts'
import { sharedRedactor } from './redact.ts'
import { truncate } from './recorder.ts'
import { isIsoDateTime, isUtcDateTime } from '../generators/formats.ts'

export const EXCERPT_CHARS = 400

/**
 * A failed assertion of the pure functions below. They know no check: the check context (harness/
 * check.ts) turns it into a ClauseFailure of the clause the assertion was made for, or of `clause`
 * when the rule itself carries one (the §7 error body's shape, statusCode and reason phrase).
 */
export class CheckFailure extends Error {
  constructor(
    message: string,
    readonly details: { rule?: string; clause?: string; exchange?: Exchange } = {},
  ) {
    super(message)
    this.name = 'CheckFailure'
  }
}

/** Throws a CheckFailure: `<rule>: expected <expected>, got <got>` plus the exchange. */
export function fail(rule: string, expected: string, got: string, ex?: Exchange): never {
  const lines = [`${rule}: expected ${expected}, got ${got}`]
  if (ex) lines.push(describeExchange(ex))
  throw new CheckFailure(lines.join('\n'), { rule, ...(ex ? { exchange: ex } : {}) })
}

/** fail() for a rule that carries its own clause (the §7 error body). */
function failOn(clause: string, rule: string, expected: string, got: string, ex: Exchange): never {
  throw new CheckFailure(`${rule}: expected ${expected}, got ${got}\n${describeExchange(ex)}`, { rule, clause, exchange: ex })
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
  if (!accepted.includes(ex.response.status)) fail('status', describeStatuses(accepted), `HTTP ${ex.response.status}`, ex)
}

/** Every 4xx: a refusal whose status the interface does not fix. */
export const ANY_4XX: readonly number[] = Array.from({ length: 100 }, (_, i) => 400 + i)

/** `HTTP 200`, `HTTP 200 or 201`, `a 4xx`, `a 4xx other than 404`. */
export function describeStatuses(statuses: readonly number[]): string {
  const set = new Set(statuses)
  const all4xx = ANY_4XX.filter((s) => set.has(s))
  if (all4xx.length >= 90) {
    const missing = ANY_4XX.filter((s) => !set.has(s))
    const others = statuses.filter((s) => s < 400 || s > 499)
    const head = missing.length === 0 ? 'a 4xx' : `a 4xx other than ${missing.join(', ')}`
    return others.length === 0 ? head : `${head}, or HTTP ${others.join(', ')}`
  }
  return statuses.length === 1 ? `HTTP ${statuses[0]}` : `HTTP ${statuses.slice(0, -1).join(', ')} or ${statuses.at(-1)}`
}

/** True when every accepted status is a 4xx: passing on such an answer is negative evidence. */
export function isRefusal(statuses: readonly number[]): boolean {
  return statuses.length > 0 && statuses.every((s) => s >= 400 && s <= 499)
}

/** Any 4xx (the interface leaves the status open) whose body names `code` when one is given. */
export function expectRefused(ex: Exchange, opts: { code?: string } = {}): void {
  expectStatus(ex, [...ANY_4XX])
  if (opts.code === undefined) return
  const got = jsonObject(ex, `refusal code ${opts.code}`).code
  if (got !== opts.code) fail('error code', `code ${show(opts.code)}`, `code ${show(got)}`, ex)
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
  const body = errorBodyObject(ex)
  if (typeof body.statusCode !== 'number') failOn(ERROR_BODY_SHAPE, 'error body statusCode', 'a number', describeType(body.statusCode), ex)
  if (typeof body.message !== 'string') failOn(ERROR_BODY_SHAPE, 'error body message', 'a string', describeType(body.message), ex)
  if (typeof body.error !== 'string') failOn(ERROR_BODY_SHAPE, 'error body error', 'a string', describeType(body.error), ex)
  if (body.statusCode !== status) failOn(ERROR_STATUS_CODE_MATCHES, 'error body statusCode', String(status), show(body.statusCode), ex)
  const phrases = reasonPhrasesOf(status)
  if (!phrases.includes(body.error)) failOn(ERROR_REASON_PHRASE, 'error body error (reason phrase)', phrases.map(show).join(' or '), show(body.error), ex)
  if (opts.code !== undefined && body.code !== opts.code) fail('error body code', show(opts.code), show(body.code), ex)
}

/**
 * The phrases the HTTP specifications have given a status where they differ (reading
 * `reason-phrase`, docs/READINGS.md): RFC 9110 and the IANA registry today, and the RFCs it
 * replaced (2616, 7231, 7233, 4918, 2068). §7 asks for "the HTTP reason phrase" without naming one.
 */
const REASON_PHRASES: Readonly<Record<number, readonly string[]>> = {
  302: ['Found', 'Moved Temporarily'],
  408: ['Request Timeout', 'Request Time-out'],
  413: ['Content Too Large', 'Payload Too Large', 'Request Entity Too Large'],
  414: ['URI Too Long', 'Request-URI Too Long', 'Request-URI Too Large'],
  416: ['Range Not Satisfiable', 'Requested Range Not Satisfiable', 'Requested range not satisfiable'],
  422: ['Unprocessable Content', 'Unprocessable Entity'],
  504: ['Gateway Timeout', 'Gateway Time-out'],
  505: ['HTTP Version Not Supported', 'HTTP Version not supported'],
}

/** Every reason phrase accepted for `status`: Node's table and any phrase an HTTP RFC gave it. */
export function reasonPhrasesOf(status: number): string[] {
  const node = STATUS_CODES[status]
  return [...new Set([...(node === undefined ? [] : [node]), ...(REASON_PHRASES[status] ?? [])])]
}

/** True when the specifications give `status` more than one phrase: the target's is a reading, observed. */
export const phraseVaries = (status: number): boolean => reasonPhrasesOf(status).length > 1

export const ERROR_BODY_SHAPE = '7.error-body-shape'
export const ERROR_STATUS_CODE_MATCHES = '7.error-status-code-matches'
export const ERROR_REASON_PHRASE = '7.error-reason-phrase'
/** The clauses expectErrorBody() carries itself: a check that uses it names them. */
export const ERROR_BODY_CLAUSES: readonly string[] = [ERROR_BODY_SHAPE, ERROR_STATUS_CODE_MATCHES, ERROR_REASON_PHRASE]

function errorBodyObject(ex: Exchange): Record<string, unknown> {
  try {
    return jsonObject(ex, 'error body')
  } catch (e) {
    if (e instanceof CheckFailure) throw new CheckFailure(e.message, { ...e.details, clause: ERROR_BODY_SHAPE })
    throw e
  }
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

// ---- Shapes: the value a rule needs, typed, or a failure saying what it was instead ----------------

/** What every shape takes: `optional` lets an absent value (undefined) through as undefined; `expected` says the shape in the rule's words (absence included, when optional). */
export interface ShapeOptions {
  optional?: boolean
  expected?: string
}
export interface StringShape extends ShapeOptions {
  nonEmpty?: boolean
  /** The string must match it (say in `expected` what it stands for). */
  pattern?: RegExp
}
export interface NumberShape extends ShapeOptions {
  integer?: boolean
  min?: number
}
export interface DateTimeShape extends ShapeOptions {
  /** In UTC (the Conventions' timestamp), not only ISO 8601. */
  utc?: boolean
}
/** The shape's type, or undefined too when the shape is optional. */
export type Shaped<T, O> = O extends { optional: true } ? T | undefined : T

function shape<T>(rule: string, value: unknown, ok: boolean, expected: string, opts: ShapeOptions, ex?: Exchange): T | undefined {
  if (value === undefined && opts.optional) return undefined
  if (!ok) fail(rule, opts.expected ?? (opts.optional ? `${expected}, or nothing` : expected), describeValue(value), ex)
  return value as T
}

export function stringShape(rule: string, value: unknown, opts: StringShape = {}, ex?: Exchange): string | undefined {
  const ok = typeof value === 'string' && (!opts.nonEmpty || value !== '') && (opts.pattern === undefined || opts.pattern.test(value))
  const expected = opts.pattern ? `a string matching ${opts.pattern}` : opts.nonEmpty ? 'a non-empty string' : 'a string'
  return shape<string>(rule, value, ok, expected, opts, ex)
}

export function numberShape(rule: string, value: unknown, opts: NumberShape = {}, ex?: Exchange): number | undefined {
  const ok = typeof value === 'number' && Number.isFinite(value) && (!opts.integer || Number.isInteger(value)) && (opts.min === undefined || value >= opts.min)
  const kind = opts.integer ? 'an integer' : 'a number'
  return shape<number>(rule, value, ok, opts.min === undefined ? kind : `${kind} of at least ${opts.min}`, opts, ex)
}

export function objectShape(rule: string, value: unknown, opts: ShapeOptions = {}, ex?: Exchange): Record<string, unknown> | undefined {
  return shape<Record<string, unknown>>(rule, value, value !== null && typeof value === 'object' && !Array.isArray(value), 'an object', opts, ex)
}

export function dateTimeShape(rule: string, value: unknown, opts: DateTimeShape = {}, ex?: Exchange): string | undefined {
  const ok = opts.utc ? isUtcDateTime(value) : isIsoDateTime(value)
  return shape<string>(rule, value, ok, opts.utc ? 'an ISO 8601 date-time in UTC' : 'an ISO 8601 date-time', opts, ex)
}

/** `string "abc"`, `number 5`, `null`, `an array [1]`, `undefined (absent)`: a value with its JSON type. */
export function describeValue(value: unknown): string {
  if (value === undefined || value === null) return show(value)
  return `${Array.isArray(value) ? 'an array' : typeof value} ${show(value)}`
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
