// The text of a reproducer: a standalone Node script, no package, that replays a ReproPlan (built
// by cli/reporting/repro-plan.ts from a run's evidence) against the target and says whether the rule it records
// still breaks. The script's code is a template, not a module of the kit: it runs where the kit is
// not installed.
import type { ReproPlan } from '../reporting/repro-plan.ts'

/** The reproducer of `plan`, ready to be written as an executable `.mjs` file. */
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
  return { status: res.status, json, text, headers: Object.fromEntries(res.headers) }
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
if (PLAN.header) {
  const h = PLAN.header
  const value = answer.headers[h.name]
  broken = 'recorded' in h
    ? likeRecorded(value ?? null, h.recorded)
    : value === undefined || (h.equals !== undefined && value !== h.equals) || (h.matches !== undefined && !new RegExp(h.matches.source, h.matches.flags).test(value))
  shown = \`\${PLAN.rule}: expected \${PLAN.expected}, got \${value === undefined ? 'absent' : JSON.stringify(value)}\`
}
console.log(\`\${broken ? 'STILL BROKEN' : 'FIXED'} — \${PLAN.clause}: \${shown}\`)
process.exit(broken ? 1 : 0)
`
}
