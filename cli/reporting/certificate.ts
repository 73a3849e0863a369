// A verifiable certificate of a run (`--certificate FILE`, `pix-conformance verify FILE`): which
// kit, which interface text and specs, which target, which verdict per clause, which waivers, and a
// digest of each check's redacted evidence — signed with Ed25519 so a third party can check it
// offline without rerunning. The signature covers the canonical JSON (sorted keys, no spaces) of
// everything but the `signature` field.

import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import type { CheckStatus, ClauseStatus, Results, RunVerdict, Severity, Waiver } from './types.ts'
import { countOf, currentLang, headlineIn, statementIn, tr, word, type Lang } from './i18n.ts'
import { translateText } from './messages.ts'

export const CERTIFICATE_FORMAT = 'pix-conformance-certificate/1'

export class CertificateError extends Error {
  override name = 'CertificateError'
}

export interface CertificateWaiver extends Omit<Waiver, 'line'> {
  /** The failed checks it excused. */
  checks: string[]
}

/** What a certificate states; the signature covers exactly this. The run's own fields are results.json's. */
export interface CertificateClaims
  extends Pick<Results, 'kitVersion' | 'specHash' | 'runId' | 'startedAt' | 'finishedAt' | 'target' | 'profile' | 'seed' | 'numRuns' | 'scope' | 'coverage'> {
  format: typeof CERTIFICATE_FORMAT
  /** sha256 of the interface text the kit's clauses were written from; null when the run did not have it. */
  interfaceSha256: string | null
  /** sha256 of every file under specs/, by path relative to it. */
  specs: Record<string, string>
  /** The depth profile's name (results.json `depth.profile`). */
  depth?: string
  result: Pick<RunVerdict, 'result' | 'headline' | 'extension'>
  /** Every clause of the catalogue and its verdict. */
  clauses: Record<string, ClauseStatus>
  /** Waivers in force that excused failures (a waived clause keeps its verdict `failed`). */
  waivers: CertificateWaiver[]
  /** Every check: its verdict and the sha256 of its redacted evidence (canonical JSON of `exchanges`). */
  checks: Record<string, { verdict: CheckStatus; evidenceSha256: string; severity?: Severity }>
  /** The certificate in words for a person, in the run's language (--lang) when it is not English. */
  readable?: Readable
}

export interface Readable {
  lang: Lang
  /** What the certificate states. */
  statement: string
  headline: string
  extension?: string
  /** Clause id → `verdict: statement`, in that language. */
  clauses: Record<string, string>
  /** Check id → `verdict: title`, the title in that language (cli/reporting/messages.ts). */
  checks?: Record<string, string>
}

export interface Certificate extends CertificateClaims {
  signature: {
    algorithm: 'Ed25519'
    /** SPKI PEM of the signing key. */
    publicKey: string
    /** sha256 of the key's DER, the short name to compare keys by. */
    keyId: string
    /** base64 */
    value: string
  }
}

export interface CertificateOptions {
  /** The interface text (interface.md) to fingerprint; omitted → interfaceSha256 null. */
  interfaceText?: string
  /** The kit's specs/ folder. */
  specsDir: string
  /** PEM file of an Ed25519 private key; without it a throwaway key signs. */
  keyFile?: string
  /** Read results.json from here, so the digests are those of the file on disk (after its scrub). */
  runDir?: string
  /** The language of its readable block (default PIX_LANG's; English adds none). */
  lang?: Lang
}

export interface MadeCertificate {
  certificate: Certificate
  /** The file's text (2-space JSON). */
  text: string
  publicKeyPem: string
  /** The key was made for this certificate only: print its public key, it is the only way to pin it. */
  throwawayKey: boolean
}

export function makeCertificate(results: Results, options: CertificateOptions): MadeCertificate {
  const source = options.runDir ? readRunResults(options.runDir) : results
  if (source.runId !== results.runId) throw new CertificateError(`--certificate: ${options.runDir}/results.json is run ${source.runId}, not ${results.runId}`)
  const claims = claimsOf(source, {
    interfaceSha256: options.interfaceText === undefined ? null : sha256(options.interfaceText),
    specs: hashFolder(options.specsDir),
  }, options.lang ?? currentLang())
  const { privateKey, throwaway } = signingKey(options.keyFile)
  const publicKey = createPublicKey(privateKey)
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString()
  const certificate: Certificate = {
    ...claims,
    signature: {
      algorithm: 'Ed25519',
      publicKey: publicKeyPem,
      keyId: keyIdOf(publicKey),
      value: sign(null, Buffer.from(canonicalJson(claims)), privateKey).toString('base64'),
    },
  }
  return { certificate, text: `${JSON.stringify(certificate, null, 2)}\n`, publicKeyPem, throwawayKey: throwaway }
}

/** The claims a results.json supports; interface and specs fingerprints come from the caller. */
export function claimsOf(r: Results, fingerprints: { interfaceSha256: string | null; specs: Record<string, string> }, lang: Lang = 'en'): CertificateClaims {
  const readable = readableOf(r, lang)
  return {
    format: CERTIFICATE_FORMAT,
    kitVersion: r.kitVersion,
    interfaceSha256: fingerprints.interfaceSha256,
    specs: fingerprints.specs,
    specHash: r.specHash,
    runId: r.runId,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
    target: r.target,
    profile: r.profile,
    seed: r.seed,
    ...(r.numRuns !== undefined ? { numRuns: r.numRuns } : {}),
    ...(r.depth ? { depth: r.depth.profile } : {}),
    ...(r.scope ? { scope: r.scope } : {}),
    result: { result: r.verdict.result, headline: r.verdict.headline, ...(r.verdict.extension ? { extension: r.verdict.extension } : {}) },
    coverage: r.coverage,
    clauses: Object.fromEntries(r.clauses.map((c) => [c.id, c.status])),
    waivers: waiversOf(r),
    checks: Object.fromEntries(r.checks.map((c) => [c.id, { verdict: c.status, evidenceSha256: evidenceDigest(c.exchanges), ...(c.severity ? { severity: c.severity } : {}) }])),
    ...(readable ? { readable } : {}),
  }
}

/** The readable block in `lang`; none in English, whose words are the claims themselves. */
export function readableOf(r: Results, lang: Lang): Readable | undefined {
  if (lang === 'en') return undefined
  return {
    lang,
    statement: tr(lang, 'cert.statement'),
    headline: headlineIn(lang, r.verdict.headline),
    ...(r.verdict.extension ? { extension: headlineIn(lang, r.verdict.extension) } : {}),
    clauses: Object.fromEntries(r.clauses.map((c) => [c.id, `${word('status', c.status, lang)}: ${statementIn(lang, c)}`])),
    checks: Object.fromEntries(r.checks.map((c) => [c.id, `${word('status', c.status, lang)}: ${translateText(c.title, lang)}`])),
  }
}

function waiversOf(r: Results): CertificateWaiver[] {
  const byWaiver = new Map<string, CertificateWaiver>()
  for (const a of r.waivers?.applied ?? []) {
    const { line: _line, expired: _expired, ...w } = a.waiver
    const key = canonicalJson(w)
    const entry = byWaiver.get(key) ?? { ...w, checks: [] }
    entry.checks.push(a.check)
    byWaiver.set(key, entry)
  }
  return [...byWaiver.values()]
}

/** sha256 of the canonical JSON of a check's redacted exchanges (none → of `[]`). */
export function evidenceDigest(exchanges: unknown): string {
  return sha256(canonicalJson(exchanges ?? []))
}

/** JSON with object keys sorted at every level and no whitespace; undefined members are left out, as JSON.stringify does. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined && typeof v !== 'function')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex')

/** sha256 of every file under a folder, keyed by its path relative to the folder (forward slashes). */
export function hashFolder(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (at: string) => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name)
      if (statSync(path).isDirectory()) walk(path)
      else out[relative(dir, path).split(sep).join('/')] = sha256(readFileSync(path))
    }
  }
  if (existsSync(dir)) walk(dir)
  return out
}

function signingKey(keyFile: string | undefined): { privateKey: KeyObject; throwaway: boolean } {
  if (!keyFile) return { privateKey: generateKeyPairSync('ed25519').privateKey, throwaway: true }
  let privateKey: KeyObject
  try {
    privateKey = createPrivateKey(readFileSync(keyFile))
  } catch (e) {
    // the message names the file, never its content: it is a private key
    throw new CertificateError(`signing key ${keyFile}: not a readable private key PEM (${(e as NodeJS.ErrnoException).code ?? 'unparsable'})`)
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new CertificateError(`signing key ${keyFile}: an ${privateKey.asymmetricKeyType ?? 'unknown'} key, the certificate needs Ed25519`)
  return { privateKey, throwaway: false }
}

function keyIdOf(publicKey: KeyObject): string {
  return sha256(publicKey.export({ type: 'spki', format: 'der' }))
}

function readRunResults(dir: string): Results {
  const file = existsSync(dir) && statSync(dir).isDirectory() ? join(dir, 'results.json') : dir
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Results
  } catch (e) {
    throw new CertificateError(`cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`)
  }
}

// ---------------------------------------------------------------------------------------------
// verify

export interface VerifyOptions {
  /** The public key the certificate must be signed with: SPKI PEM text, or the path of a PEM file. */
  key?: string
  /** A run folder (or its results.json) whose evidence and verdicts must match the certificate. */
  resultsDir?: string
  /** A specs/ folder whose files must match the certificate's fingerprints. */
  specsDir?: string
}

export interface VerifyOutcome {
  ok: boolean
  /** What the certificate claims (undefined when it could not even be read). */
  claims?: CertificateClaims
  signer?: { keyId: string; pinned: boolean }
  problems: string[]
}

export function verifyCertificate(file: string, options: VerifyOptions = {}): VerifyOutcome {
  let parsed: Certificate
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as Certificate
  } catch (e) {
    return { ok: false, problems: [`${file}: not a readable certificate (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`] }
  }
  if (!parsed || typeof parsed !== 'object' || parsed.format !== CERTIFICATE_FORMAT) {
    return { ok: false, problems: [`${file}: not a ${CERTIFICATE_FORMAT} file`] }
  }
  const { signature, ...claims } = parsed
  const problems: string[] = []
  const signer = checkSignature(claims, signature, options.key, problems)
  if (options.resultsDir) problems.push(...compareWithResults(claims, options.resultsDir))
  if (options.specsDir) problems.push(...compareRecords('specs file', claims.specs ?? {}, hashFolder(options.specsDir)))
  return { ok: problems.length === 0, claims, ...(signer ? { signer } : {}), problems }
}

function checkSignature(claims: CertificateClaims, signature: Certificate['signature'] | undefined, pinned: string | undefined, problems: string[]): VerifyOutcome['signer'] {
  if (!signature || signature.algorithm !== 'Ed25519' || typeof signature.value !== 'string' || typeof signature.publicKey !== 'string') {
    problems.push('the certificate has no Ed25519 signature')
    return undefined
  }
  let embedded: KeyObject
  try {
    embedded = createPublicKey(signature.publicKey)
  } catch {
    problems.push('the embedded public key is not a valid PEM key')
    return undefined
  }
  let key = embedded
  if (pinned !== undefined) {
    const given = publicKeyFrom(pinned)
    if (!given) {
      problems.push(`--key: not a public key PEM (${pinned.startsWith('-----') ? 'text given' : pinned})`)
      return undefined
    }
    if (keyIdOf(given) !== keyIdOf(embedded)) problems.push(`signed by key ${keyIdOf(embedded).slice(0, 16)}…, not the given key ${keyIdOf(given).slice(0, 16)}…`)
    key = given
  }
  if (signature.keyId !== keyIdOf(embedded)) problems.push('the signature keyId does not match its public key')
  let valid = false
  try {
    valid = verify(null, Buffer.from(canonicalJson(claims)), key, Buffer.from(signature.value, 'base64'))
  } catch {
    valid = false
  }
  if (!valid) problems.push('the signature does not match the certificate: a field was changed after signing, or another key signed it')
  return { keyId: keyIdOf(embedded), pinned: pinned !== undefined }
}

function publicKeyFrom(keyOrPath: string): KeyObject | undefined {
  try {
    const pem = keyOrPath.trimStart().startsWith('-----BEGIN') ? keyOrPath : readFileSync(keyOrPath, 'utf8')
    return createPublicKey(pem)
  } catch {
    return undefined
  }
}

/** Every difference between the certificate and what the run's results.json supports. */
function compareWithResults(claims: CertificateClaims, resultsDir: string): string[] {
  let results: Results
  try {
    results = readRunResults(resultsDir)
  } catch (e) {
    return [(e as Error).message]
  }
  const actual = claimsOf(results, { interfaceSha256: claims.interfaceSha256, specs: claims.specs })
  const problems: string[] = []
  const scalar: (keyof CertificateClaims)[] = ['kitVersion', 'specHash', 'runId', 'startedAt', 'finishedAt', 'target', 'profile', 'seed', 'numRuns', 'depth', 'scope', 'result', 'coverage', 'waivers']
  for (const field of scalar) {
    if (canonicalJson(claims[field]) !== canonicalJson(actual[field])) problems.push(`${field}: the certificate says ${clip(canonicalJson(claims[field]))}, results.json says ${clip(canonicalJson(actual[field]))}`)
  }
  if (claims.readable) {
    const readable = readableOf(results, claims.readable.lang)
    if (canonicalJson(claims.readable) !== canonicalJson(readable)) problems.push(`readable: the certificate's words (${claims.readable.lang}) are not those results.json supports`)
  }
  problems.push(...compareRecords('clause', claims.clauses ?? {}, actual.clauses))
  const digests = (r: CertificateClaims['checks']) => Object.fromEntries(Object.entries(r ?? {}).map(([id, c]) => [id, `${c.verdict} ${c.evidenceSha256}`]))
  problems.push(...compareRecords('check', digests(claims.checks), digests(actual.checks), (id, a, b) => (a.split(' ')[0] !== b.split(' ')[0]
    ? `check ${id}: the certificate says ${a.split(' ')[0]}, results.json says ${b.split(' ')[0]}`
    : `check ${id}: its evidence in results.json does not match the certificate's digest`)))
  return problems
}

function compareRecords(what: string, claimed: Record<string, unknown>, actual: Record<string, unknown>, differs?: (id: string, a: string, b: string) => string): string[] {
  const problems: string[] = []
  for (const id of new Set([...Object.keys(claimed), ...Object.keys(actual)])) {
    const a = claimed[id]
    const b = actual[id]
    if (a === undefined) problems.push(`${what} ${id}: not in the certificate`)
    else if (b === undefined) problems.push(`${what} ${id}: in the certificate, missing from what was checked`)
    else if (canonicalJson(a) !== canonicalJson(b)) problems.push(differs ? differs(id, String(a), String(b)) : `${what} ${id}: the certificate says ${clip(canonicalJson(a))}, found ${clip(canonicalJson(b))}`)
  }
  return problems
}

const clip = (s: string, max = 120) => (s.length > max ? `${s.slice(0, max - 1)}…` : s)

/** What the certificate claims, for `verify` to print, then its problems (or that it verified). */
export function verifyText(file: string, outcome: VerifyOutcome): string {
  const lines: string[] = []
  const c = outcome.claims
  if (c) {
    const counts = new Map<string, number>()
    for (const status of Object.values(c.clauses ?? {})) counts.set(status, (counts.get(status) ?? 0) + 1)
    const lang: Lang = c.readable?.lang ?? currentLang()
    const label = (id: 'cert.result' | 'cert.extension' | 'cert.target' | 'cert.run' | 'cert.kit' | 'cert.clauses' | 'cert.checks') => `  ${`${tr(lang, id)}:`.padEnd(lang === 'en' ? 12 : 15)}`
    lines.push(
      tr(lang, 'cert.title', { file }),
      `${label('cert.result')}${c.readable?.headline ?? (c.result?.headline ? headlineIn(lang, c.result.headline) : '(none)')}`,
      ...(c.result?.extension ? [`${label('cert.extension')}${c.readable?.extension ?? headlineIn(lang, c.result.extension)}`] : []),
      `${label('cert.target')}${c.target?.baseUrl} (${tr(lang, 'cert.gatewayOf', { url: c.target?.gatewayUrl ?? '' })})${c.target?.embedded ? tr(lang, 'cert.embedded') : ''}`,
      `${label('cert.run')}${tr(lang, 'cert.runLine', { run: c.runId, start: c.startedAt, end: c.finishedAt, profile: c.profile, seed: c.seed })}${c.depth ? ` · ${tr(lang, 'depth.depth', { profile: c.depth })}` : ''}`,
      `${label('cert.kit')}${c.kitVersion} · specs ${c.specHash?.slice(0, 12)}… (${Object.keys(c.specs ?? {}).length} files) · interface ${c.interfaceSha256 ? `${c.interfaceSha256.slice(0, 12)}…` : '(not fingerprinted)'}`,
      `${label('cert.clauses')}${[...counts].map(([s, n]) => countOf(lang, n, word('status', s, lang))).join(', ')}`,
      `${label('cert.checks')}${tr(lang, 'cert.checksLine', { n: Object.keys(c.checks ?? {}).length })}`,
    )
    for (const w of c.waivers ?? []) lines.push(`  waiver:     ${w.clause}${w.check ? ` (${w.check})` : ''} — ${w.owner}, until ${w.expires}: ${w.reason} [${w.checks.length} check${w.checks.length === 1 ? '' : 's'}]`)
  }
  const lang: Lang = c?.readable?.lang ?? currentLang()
  if (outcome.signer && lang !== 'en') {
    lines.push(`  ${`${tr(lang, 'cert.signedBy')}:`.padEnd(15)}${tr(lang, 'cert.key', { id: outcome.signer.keyId.slice(0, 16) })}${tr(lang, outcome.signer.pinned ? 'cert.pinned' : 'cert.embeddedKey')}`)
  } else if (outcome.signer) {
    lines.push(`  signed by:  Ed25519 key ${outcome.signer.keyId.slice(0, 16)}…${outcome.signer.pinned ? ' (the given --key)' : ' (embedded in the file: pass --key to check who signed it)'}`)
  }
  if (lang !== 'en') lines.push(outcome.ok ? tr(lang, 'cert.verified') : tr(lang, 'cert.notVerified', { n: outcome.problems.length }))
  else lines.push(outcome.ok ? 'VERIFIED' : `NOT VERIFIED (${outcome.problems.length} problem${outcome.problems.length === 1 ? '' : 's'}):`)
  for (const p of outcome.problems) lines.push(`  ✗ ${p}`)
  return lines.join('\n')
}
