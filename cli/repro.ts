// `pix-conformance repro <check-id> --from <run-dir>`: one failing check as a standalone Node script
// (no dependency but Node) a provider can keep. It gets its own token, replays the minimal chain of
// requests of the failing attempt (ids carried forward, fresh ids where the client chooses them),
// and asserts the rule that failed, as recorded: exit 1 while the target still breaks it, 0 once
// fixed, 2 when it could not get that far. Secrets come from the environment (PIX_* names), never
// from the file: the evidence it is built from holds only «redacted:NAME» placeholders.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { checkHash } from '../harness/trace.ts'
import type { CheckResult, EvidenceExchange, Results } from './reporting/types.ts'

export class ReproError extends Error {
  override name = 'ReproError'
}

const TOKEN_PATH = /\/(oauth\/token|api\/auth\/token)$/

export interface ReproStep {
  method: string
  url: string
  headers: Record<string, string>
  body?: string
  /** The recorded answer: ids in it are mapped to the new answer's. */
  recorded?: { status: number; json?: unknown }
}

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
  targets: { base: string; gateway: string; control?: string }
  /** Whose token the bearer requests carried: the secret setting of the last token request recorded. */
  secretForToken?: string
}

export function readRun(from: string): Results {
  const file = existsSync(from) && statSync(from).isDirectory() ? join(from, 'results.json') : from
  if (!existsSync(file)) throw new ReproError(`--from ${from}: no results.json there`)
  return JSON.parse(readFileSync(file, 'utf8')) as Results
}

export function findFailedCheck(r: Results, wanted: string): CheckResult {
  const failed = r.checks.filter((c) => c.status === 'failed')
  const exact = failed.find((c) => c.id === wanted || checkHash(c.id) === wanted)
  if (exact) return exact
  const partial = failed.filter((c) => c.id.includes(wanted) || c.title.includes(wanted))
  if (partial.length === 1) return partial[0]!
  if (partial.length > 1) throw new ReproError(`"${wanted}" matches ${partial.length} failed checks: ${partial.map((c) => c.id).join('; ')}`)
  throw new ReproError(`no failed check "${wanted}" in run ${r.runId} (failed: ${failed.map((c) => c.id).join('; ') || 'none'})`)
}

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
  const json = jsonOf(failingEx.response.json ?? failingEx.response.body)
  const gotValue = parseLoose(got!)
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

export function writeReproducer(r: Results, c: CheckResult, out: string): string {
  const script = reproScript(planOf(r, c))
  mkdirSync(dirname(resolve(out)), { recursive: true })
  writeFileSync(resolve(out), script, { mode: 0o755 })
  return resolve(out)
}

/** Where `repro` writes by default: `<run-dir>/repro/<hash of the check id>.mjs`. */
export function defaultReproPath(from: string, c: CheckResult): string {
  const dir = existsSync(from) && statSync(from).isDirectory() ? from : dirname(from)
  return join(dir, 'repro', `${checkHash(c.id)}.mjs`)
}

export function reproScript(plan: ReproPlan): string {
  return `#!/usr/bin/env node
// Reproducer of a failed conformance check (pix-conformance repro), standalone: Node 20+, no package.
//   check:  ${plan.checkId.replace(/\n/g, ' ')}
//   clause: ${plan.clause}
//   rule:   ${plan.rule}: expected ${plan.expected}, got ${plan.got}
${plan.traceId ? `//   trace of the failing run: ${plan.traceId}\n` : ''}//
// Exit 1 while the target still breaks the rule, 0 once it holds, 2 when it could not get that far.
// Settings and secrets from the environment only: PIX_BASE_URL, PIX_GATEWAY_URL, PIX_CLIENT_ID,
// PIX_CLIENT_SECRET, PIX_API_KEY (and the PIX_* named by «redacted:NAME» in the requests below).
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'

const PLAN = ${JSON.stringify(plan, null, 2)}

const env = process.env
const need = (name) => env[name] ?? stop(\`set \${name} (the reproducer reads its settings and secrets from the environment)\`)
function stop(why) { console.error(\`cannot reproduce: \${why}\`); process.exit(2) }

const TARGETS = [[PLAN.targets.base, 'PIX_BASE_URL'], [PLAN.targets.gateway, 'PIX_GATEWAY_URL'], ...(PLAN.targets.control ? [[PLAN.targets.control, 'PIX_CONTROL_URL']] : [])]
const mapped = new Map()
const tokens = new Map()

function fresh(old) {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(old)) return crypto.randomUUID()
  const alphabet = /^[0-9]+$/.test(old) ? '0123456789' : 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
  const bytes = randomBytes(old.length)
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('')
}

/** Ids the client chooses (a PUT's path, an externalId) are drawn again, so the replay creates new records. */
function chooseFreshIds(step) {
  if (step.method === 'PUT') for (const seg of new URL(step.url).pathname.split('/')) if (/^[A-Za-z0-9]{1,35}$/.test(seg) && (seg.length >= 20 || (/[0-9]/.test(seg) && /[A-Za-z]/.test(seg))) && !mapped.has(seg)) mapped.set(seg, fresh(seg))
  for (const m of (step.body ?? '').matchAll(/"(externalId|businessTransactionId)"\\s*:\\s*"([^"]{4,})"/g)) if (!mapped.has(m[2])) mapped.set(m[2], fresh(m[2]))
}

function substitute(text) {
  let out = text
  for (const [old, now] of mapped) out = out.split(old).join(now)
  return out
}

async function bearer(secretName) {
  const idName = secretName.replace(/_SECRET$/, '_ID')
  if (!tokens.has(secretName)) {
    const res = await fetch(\`\${need('PIX_BASE_URL')}/oauth/token\`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ clientId: need(idName), clientSecret: need(secretName) }) })
    const json = await res.json().catch(() => ({}))
    if (!res.ok || typeof json.access_token !== 'string') stop(\`POST /oauth/token answered \${res.status} without an access_token\`)
    tokens.set(secretName, json.access_token)
  }
  return tokens.get(secretName)
}

async function fill(text, header) {
  let out = text
  for (const m of text.matchAll(/«redacted:([^»]+)»/g)) {
    const name = m[1]
    let value
    if (name === 'access_token' || name === 'bearer-token' || name === 'refresh_token') value = await bearer(PLAN.secretForToken ?? 'PIX_CLIENT_SECRET')
    else if (/^PIX_CERT/.test(name)) value = header === 'x-ssl-client-cert' ? encodeURIComponent(readFileSync(need(name), 'utf8')) : readFileSync(need(name), 'utf8')
    else value = need(name.toUpperCase().replace(/[^A-Z0-9]/g, '_'))
    out = out.split(m[0]).join(value)
  }
  return out
}

function retarget(url) {
  for (const [recorded, name] of TARGETS) if (url.startsWith(recorded)) return need(name).replace(/\\/$/, '') + url.slice(recorded.replace(/\\/$/, '').length)
  return url
}

async function send(step) {
  chooseFreshIds(step)
  const url = retarget(substitute(step.url))
  const headers = {}
  for (const [k, v] of Object.entries(step.headers)) headers[k] = await fill(substitute(v), k)
  const traceId = randomBytes(16).toString('hex')
  headers.traceparent = \`00-\${traceId}-\${randomBytes(8).toString('hex')}-01\`
  const body = step.body === undefined ? undefined : await fill(substitute(step.body))
  const res = await fetch(url, { method: step.method, headers, body, redirect: 'manual' })
  const text = await res.text()
  let json
  try { json = JSON.parse(text) } catch {}
  console.log(\`\${step.method} \${new URL(url).pathname} → \${res.status}  (trace \${traceId})\`)
  return { status: res.status, json, text }
}

/** Values of the recorded answer that differ in the new one are ids: later requests carry the new ones. */
function carryIds(recorded, now) {
  if (recorded === null || now === null || typeof recorded !== 'object' || typeof now !== 'object') {
    if ((typeof recorded === 'string' || typeof recorded === 'number') && recorded !== now && String(recorded).length >= 4 && now !== undefined) mapped.set(String(recorded), String(now))
    return
  }
  for (const key of Object.keys(recorded)) carryIds(recorded[key], now[key])
}

function at(json, path) {
  return path.reduce((v, k) => (v === null || v === undefined ? undefined : v[k]), json)
}

for (const step of PLAN.chain) {
  const answer = await send(step)
  if (answer.status < 200 || answer.status > 299) stop(\`a step before the failing request answered \${answer.status}, not 2xx: \${answer.text.slice(0, 300)}\`)
  if (step.recorded?.json !== undefined) carryIds(step.recorded.json, answer.json)
}
const answer = await send(PLAN.failing)
let broken
let shown
if (PLAN.allowedStatuses) {
  broken = !PLAN.allowedStatuses.includes(answer.status)
  shown = \`status: expected \${PLAN.expected}, got HTTP \${answer.status}\`
}
/** A string's form: its length, the kinds of characters in it and where its separators are. */
function form(v) {
  if (typeof v !== 'string') return JSON.stringify([typeof v, v])
  // ids mix letters and digits at random: their case says nothing; a word's case does (Bearer, bearer)
  const kinds = /[0-9]/.test(v) ? (/[A-Za-z]/.test(v) ? 'alphanumeric' : 'digits') : [/[a-z]/.test(v), /[A-Z]/.test(v)].join()
  return JSON.stringify(['string', v.length, kinds, v.replace(/[A-Za-z0-9]/g, '.')])
}
/** The same wrong value, or a value of the same form (ids and times differ from run to run). */
function likeRecorded(now, recorded) {
  return JSON.stringify(now) === JSON.stringify(recorded) || (typeof recorded === 'string' && form(now) === form(recorded))
}
if (PLAN.brokenPaths) {
  broken = PLAN.brokenPaths.some((p) => likeRecorded(at(answer.json, p.path), p.value))
  shown = \`\${PLAN.rule}: expected \${PLAN.expected}; \${PLAN.brokenPaths.map((p) => \`\${p.path.join('.')} = \${JSON.stringify(at(answer.json, p.path))}\`).join(', ')}\`
}
if (PLAN.missingPath) {
  broken = answer.json === undefined || at(answer.json, PLAN.missingPath) === undefined
  shown = \`\${PLAN.rule}: expected \${PLAN.expected}; \${PLAN.missingPath.join('.')} is \${broken ? 'absent' : 'present'}\`
}
console.log(\`\${broken ? 'STILL BROKEN' : 'FIXED'} — \${PLAN.clause}: \${shown}\`)
process.exit(broken ? 1 : 0)
`
}

export const REPRO_USAGE = `Usage: pix-conformance repro <check-id> --from <run-dir> [--out FILE]
       (in the repository: npm run conformance -- repro <check-id> --from reports/<run-id>)

Writes one standalone Node script (no package needed) that replays the failing check's requests
against the target and asserts the rule it broke: exit 1 while the target still breaks it, 0 once
it holds, 2 when it could not get that far. It reads PIX_BASE_URL, PIX_GATEWAY_URL, PIX_CLIENT_ID,
PIX_CLIENT_SECRET, PIX_API_KEY (…) from the environment; the file holds no secret.

  <check-id>          the check's id as the report names it (area/file::title), its hash, or a
                      part of it that names one failed check
  --from DIR          the run's report folder (or its results.json)
  --out FILE          where to write (default <run-dir>/repro/<hash>.mjs)
  --help              this text

Exit codes: 0 written, 2 bad usage or no such failed check.`

/** The subcommand: parses its words, writes the script, says where. */
export function reproMain(argv: readonly string[], say: (line: string) => void, complain: (line: string) => void): number {
  let id: string | undefined
  let from: string | undefined
  let out: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!
    if (word === '--help' || word === '-h') {
      say(REPRO_USAGE)
      return 0
    }
    const [flag, inline] = word.startsWith('--') ? word.split(/=(.*)/s, 2) : [word, undefined]
    if (flag === '--from' || flag === '--out') {
      const value = inline ?? argv[++i]
      if (!value) return usage(complain, `${flag} needs a value`)
      if (flag === '--from') from = value
      else out = value
    } else if (!word.startsWith('-') && id === undefined) id = word
    else return usage(complain, `unexpected argument ${word}`)
  }
  if (!id || !from) return usage(complain, 'needs a check id and --from <run-dir>')
  try {
    const results = readRun(from)
    const failed = findFailedCheck(results, id)
    const file = writeReproducer(results, failed, out ?? defaultReproPath(from, failed))
    say(`Reproducer of ${failed.id} (${failed.failedClause}): ${file}`)
    say(`Run it with the target's settings in the environment: node ${file}   (exit 1 while broken, 0 once fixed)`)
    return 0
  } catch (e) {
    if (e instanceof ReproError || e instanceof SyntaxError) return usage(complain, (e as Error).message)
    throw e
  }
}

function usage(complain: (line: string) => void, why: string): number {
  complain(`repro: ${why}`)
  return 2
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

/** Writes every failed check's reproducer into `<runDir>/repro/`; returns how many. */
export function writeReproducers(r: Results, runDir: string): number {
  let written = 0
  for (const c of r.checks) {
    const link = reproLink(r, c)
    if (!link) continue
    writeReproducer(r, c, join(runDir, link))
    written++
  }
  return written
}
