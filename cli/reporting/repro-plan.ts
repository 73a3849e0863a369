// Which failed check has a reproducer, and its plan: the failing request, the chain of requests
// before it and the rule it broke, read from the check's redacted evidence. The report links each
// reproducer (repro-html.ts); cli/certify/repro.ts (the `repro` subcommand) and cli/certify/run-extras.ts write them
// with the script of cli/certify/repro-script.ts.
import { checkHash } from '../../harness/trace.ts'
import type { CheckResult, EvidenceExchange, Results } from './types.ts'

export class ReproError extends Error {
  override name = 'ReproError'
}

/** One request of the chain, as recorded. */
export interface ReproStep {
  method: string
  url: string
  headers: Record<string, string>
  body?: string
  /** The recorded answer: ids in it are mapped to the new answer's. */
  recorded?: { status: number; json?: unknown }
}

/** What a reproducer replays and judges: the failing request, the chain before it, the rule. */
export interface ReproPlan {
  checkId: string
  clause: string
  traceId?: string
  rule: string
  expected: string
  got: string
  chain: ReproStep[]
  failing: ReproStep
  /** The statuses the rule accepts (a status rule). */
  allowedStatuses?: number[]
  /** JSON paths of the recorded answer that held the wrong value (a field rule). */
  brokenPaths?: { path: (string | number)[]; value: unknown }[]
  /** A field the rule wanted that was absent. */
  missingPath?: (string | number)[]
  /** A response header the rule wanted (lower-case name): present, equal to a value, or matching a pattern. */
  header?: { name: string; present?: true; equals?: string; matches?: { source: string; flags: string }; recorded?: string | null }
  targets: { base: string; gateway: string; control?: string }
  /** Whose token the bearer requests carried: the secret setting of the last token request recorded. */
  secretForToken?: string
}

const TOKEN_PATH = /\/(oauth\/token|api\/auth\/token)$/

const RULE_LINE = /^(.+?): expected (.+), got (.+)$/

/** The plan of a failed check's reproducer; throws when the evidence cannot make one. */
export function planOf(r: Results, c: CheckResult): ReproPlan {
  if (!c.failedClause) throw new ReproError(`${c.id} failed without a clause (a kit failure): nothing of the target to reproduce`)
  const exchanges = c.exchanges ?? []
  const failingEx = exchanges[0]
  if (!failingEx || !failingEx.response) throw new ReproError(`${c.id}: no recorded exchange to replay`)
  const ruleLine = (c.message ?? '').split('\n').map((l) => l.trim()).find((l) => RULE_LINE.test(l))
  if (!ruleLine) throw new ReproError(`${c.id}: its message names no "<rule>: expected …, got …" line to assert`)
  const [, rule, expected, got] = RULE_LINE.exec(ruleLine)!
  const failing = stepOf(failingEx)
  const chain = minimalChain(exchanges.slice(1), failingEx)
  const plan: ReproPlan = {
    checkId: c.id, clause: c.failedClause, ...(c.traceId ? { traceId: c.traceId } : {}), rule: rule!, expected: expected!, got: got!, chain, failing,
    targets: { base: r.target.baseUrl, gateway: r.target.gatewayUrl, ...(r.target.controlUrl ? { control: r.target.controlUrl } : {}) },
    ...secretForTokenOf(exchanges),
  }
  if (rule === 'status') {
    plan.allowedStatuses = statusesOf(expected!)
    return plan
  }
  const header = headerOf(rule!, failingEx)
  if (header) {
    plan.header = headerRule(header, expected!, failingEx.response.headers?.[header])
    return plan
  }
  const json = jsonOf(failingEx.response.json ?? failingEx.response.body)
  const gotValue = parseLoose(valueOfGot(got!))
  if (/^(absent|missing|undefined|none|no [a-z]+)$/i.test(got!.trim())) {
    const key = keysIn(rule!, json).at(-1)
    if (key !== undefined) plan.missingPath = [key]
  } else if (json !== undefined) {
    const paths = leaves(json).filter((l) => sameValue(l.value, gotValue))
    const named = paths.filter((p) => p.path.some((k) => typeof k === 'string' && rule!.toLowerCase().includes(k.toLowerCase())))
    const chosen = named.length > 0 ? named : paths
    if (chosen.length > 0) plan.brokenPaths = chosen
  }
  if (!plan.brokenPaths && !plan.missingPath) {
    // the rule is about the status after all (`response: expected a response, got …`), or the value is not in the body
    if (/^HTTP \d{3}$/.test(got!.trim())) plan.allowedStatuses = statusesOf(expected!).length > 0 ? statusesOf(expected!) : []
    if (!plan.allowedStatuses?.length) throw new ReproError(`${c.id}: the rule "${ruleLine}" names no status or body value the reproducer can assert`)
  }
  return plan
}

/** The value of a `got`: the shape verbs (harness/context.ts t.string …) write its JSON type before it (`string "12-34"`). */
function valueOfGot(got: string): string {
  return /^(?:string|number|boolean|object|array) (.+)$/s.exec(got.trim())?.[1] ?? got
}

/** Headers a rule may name without saying "header" (`Content-Type: expected application/json …`). */
const RESPONSE_HEADERS = ['content-type', 'location', 'retry-after', 'cache-control', 'www-authenticate', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']

/** The response header a rule is about: `header <name>` (harness/assertions.ts expectHeader), or a rule named as a header the answer had or a known one. */
function headerOf(rule: string, ex: EvidenceExchange): string | undefined {
  const named = /^header (\S+)$/i.exec(rule)?.[1] ?? rule
  const lower = named.toLowerCase()
  return /^header /i.test(rule) || RESPONSE_HEADERS.includes(lower) || (/^[a-z][a-z0-9-]*$/i.test(named) && lower in (ex.response?.headers ?? {})) ? lower : undefined
}

/**
 * What the reproducer holds the header to: present, equal to a value (JSON-quoted) or matching
 * `/re/flags`, when the rule said so (expectHeader); else the recorded wrong value (or its
 * absence), as a field rule is: the target still breaks it while it answers the same.
 */
function headerRule(name: string, expected: string, recorded: string | undefined): NonNullable<ReproPlan['header']> {
  const re = /^to match \/(.*)\/([a-z]*)$/s.exec(expected)
  if (re) return { name, matches: { source: re[1]!, flags: re[2]! } }
  if (expected === 'present') return { name, present: true }
  const value = parseLoose(expected)
  if (typeof value === 'string' && expected.trim().startsWith('"')) return { name, equals: value }
  return { name, recorded: recorded ?? null }
}

function secretForTokenOf(exchanges: EvidenceExchange[]): { secretForToken?: string } {
  const names = exchanges
    .filter((ex) => pathOf(ex.request.url).endsWith('/oauth/token'))
    .map((ex) => /"clientSecret"\s*:\s*"«redacted:(PIX_[A-Z0-9_]*SECRET)»"/.exec(typeof ex.request.body === 'string' ? ex.request.body : JSON.stringify(ex.request.body ?? ''))?.[1])
    .filter((n): n is string => n !== undefined)
  const name = names.at(-1)
  return name ? { secretForToken: name } : {}
}

function stepOf(ex: EvidenceExchange): ReproStep {
  const headers: Record<string, string> = {}
  for (const [k, v] of Object.entries(ex.request.headers ?? {})) {
    if (!['traceparent', 'tracestate', 'content-length', 'host', 'connection'].includes(k.toLowerCase())) headers[k.toLowerCase()] = String(v)
  }
  const body = ex.request.body === undefined ? undefined : typeof ex.request.body === 'string' ? ex.request.body : JSON.stringify(ex.request.body)
  const json = ex.response ? jsonOf(ex.response.json ?? ex.response.body) : undefined
  return { method: ex.request.method, url: ex.request.url, headers, ...(body !== undefined ? { body } : {}), ...(ex.response ? { recorded: { status: ex.response.status, ...(json !== undefined ? { json } : {}) } } : {}) }
}

/** The earlier requests whose answers carried a value the failing request (or one of them) uses. */
function minimalChain(earlier: EvidenceExchange[], failing: EvidenceExchange): ReproStep[] {
  const needed: EvidenceExchange[] = []
  let wanted = requestText(failing)
  for (let i = earlier.length - 1; i >= 0; i--) {
    const ex = earlier[i]!
    if (TOKEN_PATH.test(pathOf(ex.request.url)) || !ex.response || ex.response.status < 200 || ex.response.status > 299) continue
    const json = jsonOf(ex.response.json ?? ex.response.body)
    const ids = json === undefined ? [] : leaves(json).map((l) => l.value).filter(isIdLike).map(String)
    if (ids.some((id) => wanted.includes(id))) {
      needed.unshift(ex)
      wanted += `\n${requestText(ex)}`
    }
  }
  return needed.map(stepOf)
}

function requestText(ex: EvidenceExchange): string {
  return `${ex.request.url}\n${typeof ex.request.body === 'string' ? ex.request.body : JSON.stringify(ex.request.body ?? '')}`
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname
  } catch {
    return url
  }
}

function isIdLike(v: unknown): boolean {
  return (typeof v === 'string' && v.length >= 6 && /^[\w.:-]+$/.test(v) && !/^\d{4}-\d{2}-\d{2}/.test(v)) || (typeof v === 'number' && Number.isInteger(v) && v >= 1000)
}

function jsonOf(body: unknown): unknown {
  if (typeof body !== 'string') return body ?? undefined
  try {
    return JSON.parse(body)
  } catch {
    return undefined
  }
}

function parseLoose(text: string): unknown {
  const t = text.trim()
  try {
    return JSON.parse(t)
  } catch {
    return t
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b) || (typeof a !== 'object' && String(a) === String(b))
}

function leaves(v: unknown, path: (string | number)[] = []): { path: (string | number)[]; value: unknown }[] {
  if (Array.isArray(v)) return v.flatMap((x, i) => leaves(x, [...path, i]))
  if (v !== null && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => leaves(x, [...path, k]))
  return [{ path, value: v }]
}

function keysIn(rule: string, json: unknown): string[] {
  const words = rule.split(/[^A-Za-z0-9_]+/).filter(Boolean)
  const known = new Set(json && typeof json === 'object' ? Object.keys(json) : [])
  const inBody = words.filter((w) => known.has(w))
  return inBody.length > 0 ? inBody : words.filter((w) => /^[a-z][A-Za-z0-9_]*$/.test(w) && w.length > 2)
}

/** `HTTP 200`, `HTTP 200 or 201`, `a 4xx`, `a 4xx other than 404, 405`, `…, or HTTP 200`. */
export function statusesOf(expected: string): number[] {
  const out = new Set<number>()
  const any4xx = /a 4xx(?: other than ([\d, ]+))?/.exec(expected)
  if (any4xx) {
    const except = new Set((any4xx[1] ?? '').split(/[ ,]+/).filter(Boolean).map(Number))
    for (let s = 400; s < 500; s++) if (!except.has(s)) out.add(s)
  }
  const http = /HTTP ([\d, or]+)/.exec(expected)
  if (http) for (const n of http[1]!.match(/\d{3}/g) ?? []) out.add(Number(n))
  return [...out].sort((a, b) => a - b)
}

/** `repro/<hash>.mjs`, relative to the run folder, when the evidence makes a reproducer. */
export function reproLink(r: Results, c: CheckResult): string | undefined {
  if (c.status !== 'failed') return undefined
  try {
    planOf(r, c)
    return `repro/${checkHash(c.id)}.mjs`
  } catch {
    return undefined
  }
}
