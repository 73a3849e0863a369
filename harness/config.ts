// Target config (docs/ARCHITECTURE.md "Target config", CONTRACTS §5): which service the suites certify,
// with which credentials, and how deep the property checks go. Read from PIX_* settings.
//
// This file is long because it reads every PIX_* setting a run takes (about forty) and holds each
// to its type, range and file format in one pass, so that a setting's name, default and error
// message are stated once (loadConfig and the readers below it), and the helpers that answer from
// the config (balance accounts, check time limits, secret values) sit beside the fields they read.
import { existsSync, readFileSync, statSync, type Stats } from 'node:fs'
import { randomInt } from 'node:crypto'
import { parse as parseDotenv } from 'dotenv'
import { MIN_SECRET_LENGTH, type SecretValue } from './redact.ts'

export type Profile = 'sandbox' | 'readonly'
export type Depth = 'quick' | 'default' | 'deep'

/** Cases per property check of each depth profile, before a check's cost scales it down (not deep). */
export const DEPTH_RUNS: Record<Depth, number> = { quick: 10, default: 50, deep: 500 }

export interface TargetConfig {
  baseUrl: string
  gatewayUrl: string
  clientId: string
  clientSecret: string
  apiKey: string
  certFile?: string
  /**
   * How the client certificate reaches the target: `header` (the kit sends X-SSL-Client-Cert
   * itself) or `transport` (mutual TLS at the socket; a TLS front derives the header). In transport
   * mode each certificate file also holds its private key (PIX_CERT_MODE).
   */
  certMode: 'header' | 'transport'
  /** Extra CA the kit trusts for the target's own TLS certificate (PIX_TLS_CA_FILE). */
  tlsCaFile?: string
  certUnlinkedFile?: string
  certOtherAccountFile?: string
  apiKeyLimited?: string
  otherClientId?: string
  otherClientSecret?: string
  otherApiKey?: string
  /**
   * Accounts no other check touches (PIX_BALANCE_CLIENT_ID, _SECRET, _API_KEY, and more alike,
   * PIX_BALANCE_2_* to PIX_BALANCE_8_*): the checks declared alone for balances or account URLs run
   * on them beside the rest, one check per account at a time, instead of alone on the main account.
   */
  balanceAccounts: BalanceAccount[]
  controlUrl?: string
  /** Public HTTPS address of the capture server (§4.12: resend needs HTTPS). */
  webhookPublicUrl?: string
  /** Where the capture server listens (PIX_WEBHOOK_LISTEN: `host:port` or a port). */
  webhookListen?: { host: string; port: number }
  /** The capture server's own TLS certificate and key files (PIX_WEBHOOK_TLS_CERT_FILE, PIX_WEBHOOK_TLS_KEY_FILE). */
  webhookTls?: { certFile: string; keyFile: string }
  /** Require senders to present a certificate of this CA (PIX_WEBHOOK_CLIENT_CA_FILE). */
  webhookClientCaFile?: string
  /** The vendor's declared delivery policy, YAML or JSON (PIX_DELIVERY_POLICY_FILE; suites/webhooks/delivery-policy.ts). */
  deliveryPolicyFile?: string
  profile: Profile
  seed: number
  /** Cases of every property check: PIX_NUM_RUNS when given, else the depth profile's. */
  numRuns: number
  /** PIX_NUM_RUNS was given: it wins over every check's declared cost. */
  numRunsExplicit: boolean
  depth: Depth
  /** A property stopped before its runs (time limit) fails the run instead of being reported. */
  strictDepth: boolean
  /** The run may reset the sandbox (PIX_RESET; the embedded reference by default): a run otherwise leaves the target's state as it found it. */
  allowReset: boolean
  /** The preflight saw the sandbox driver reset each balance account alone (PIX_BALANCE_ACCOUNT_RESETS, written by the CLI). */
  balanceAccountResets: boolean
  /** Optional parts that the preflight found unusable, by need, with the reason (PIX_UNAVAILABLE). */
  unavailable: Record<string, string>
  timeoutMs: number
  /** Suite files run side by side in a certification (PIX_WORKERS; harness/schedule.ts). */
  workers: number
  /** PIX_WORKERS was given: the CLI does not pick the count from the target's distance. */
  workersExplicit: boolean
  /** Checks of one file in flight at once (PIX_CONCURRENCY). */
  concurrency: number
  /** Requests a second the whole run may send (PIX_MAX_RPS; the workers share it); undefined: no limit. */
  maxRps?: number
  /** Requests the whole run may have in flight at once (PIX_MAX_IN_FLIGHT; the workers share it); undefined: no limit. */
  maxInFlight?: number
  slow: boolean
  limitedClientId?: string
  limitedClientSecret?: string
  buyerUuid?: string
  pixKey?: string
  embedded: boolean
}

export type Env = Record<string, string | undefined>

export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(`${setting}: ${message}`)
    this.name = 'ConfigError'
  }
}

export const DEFAULT_TIMEOUT_MS = 10_000
/**
 * A readonly run against a target you configure (production, as a rule) sends at most this many
 * requests a second and has at most this many in flight, unless --max-rps / --max-in-flight say
 * otherwise (0: no limit). A sandbox run and the embedded reference have no limit by default.
 */
export const DEFAULT_READONLY_MAX_RPS = 20
export const DEFAULT_READONLY_MAX_IN_FLIGHT = 8
export const MAX_RATE_LIMIT = 10_000
/** An hour. Far below 2^31-1 ms, above which a timer fires at once (every request would "time out"). */
export const MAX_TIMEOUT_MS = 3_600_000
/**
 * Scheduling defaults (harness/schedule.ts), from the latency bench (bench/README.md): at
 * 100 ms RTT four workers finished the side-by-side phase in about two thirds of the time two took,
 * while on loopback (a run that waits more than it computes) four cost no more than two, even on a
 * two-core machine; so four, whatever the cores. A distant target (no answer to the preflight
 * faster than DISTANT_TARGET_MS) gets seven: at 100 ms RTT the side-by-side files keep every worker
 * busy to the shared phase's end (the ledger model spread over the balance accounts no longer sets
 * it), and it ended at 18.4 s with five, 18.9 / 17.4 s with six, 15.5 / 16.8 s with seven, 17.3 /
 * 17.7 s with eight (whose eight starting processes put the first check 2–2.5 s later on two cores);
 * on loopback the extra workers cost CPU for nothing.
 */
export const DEFAULT_WORKERS = 4
export const DEFAULT_WORKERS_DISTANT = 7
/** The preflight's fastest answer this slow (mostly one round trip) means a target some 40 ms or more away. */
export const DISTANT_TARGET_MS = 40
export const DEFAULT_CONCURRENCY = 8
/**
 * Workers of a certification's alone phase (vitest.config.ts): the checks of its clock group run
 * side by side in them (harness/clock-barrier.ts), a worker's files one after another, the others
 * one at a time, in whichever worker. Near (the default count of workers): three, since on loopback
 * the start of more cost about a second before the phase's first check and saved nothing. A run
 * with more workers than the default (a distant target, DEFAULT_WORKERS_DISTANT, or --workers) has
 * as many there: at 100 ms three workers ran the group's files three at a time (alone 10.2–10.3 s),
 * seven all at once (8.8 s). A run with fewer has them for a reason (one capture port:
 * PIX_WEBHOOK_LISTEN or a public URL; --max-in-flight; --workers): its alone phase has as many.
 */
export const ALONE_WORKERS = 3

export function aloneWorkers(runWorkers: number): number {
  return runWorkers === DEFAULT_WORKERS ? ALONE_WORKERS : Math.max(1, runWorkers)
}
export const MAX_WORKERS = 16
export const MAX_CONCURRENCY = 64
export const MAX_NUM_RUNS = 1_000_000

/** PIX_MAX_RPS and PIX_MAX_IN_FLIGHT (0: no limit); a production-safe default for a readonly run of a target you configure. */
function rateLimits(maxRps: string | undefined, maxInFlight: string | undefined, productionSafe: boolean): Pick<TargetConfig, 'maxRps' | 'maxInFlight'> {
  const rps = integer('PIX_MAX_RPS', maxRps, { min: 0, max: MAX_RATE_LIMIT }) ?? (productionSafe ? DEFAULT_READONLY_MAX_RPS : 0)
  const inFlight = integer('PIX_MAX_IN_FLIGHT', maxInFlight, { min: 0, max: MAX_RATE_LIMIT }) ?? (productionSafe ? DEFAULT_READONLY_MAX_IN_FLIGHT : 0)
  return { ...(rps > 0 ? { maxRps: rps } : {}), ...(inFlight > 0 ? { maxInFlight: inFlight } : {}) }
}

/** The workers of a run: PIX_WORKERS when given, else by the target's distance (the preflight's fastest answer); never more than the requests allowed in flight. */
export function workerCountFor(config: Pick<TargetConfig, 'workers' | 'workersExplicit' | 'maxInFlight'>, fastestAnswerMs: number): { count: number; why?: string } {
  const picked = pickWorkers(config, fastestAnswerMs)
  return config.maxInFlight !== undefined && picked.count > config.maxInFlight ? { count: config.maxInFlight, why: `no more than --max-in-flight ${config.maxInFlight}` } : picked
}

function pickWorkers(config: Pick<TargetConfig, 'workers' | 'workersExplicit'>, fastestAnswerMs: number): { count: number; why?: string } {
  if (config.workersExplicit) return { count: config.workers }
  return Number.isFinite(fastestAnswerMs) && fastestAnswerMs >= DISTANT_TARGET_MS
    ? { count: DEFAULT_WORKERS_DISTANT, why: `the target's fastest answer took ${Math.round(fastestAnswerMs)} ms` }
    : { count: DEFAULT_WORKERS }
}

const MAX_SEED = 2 ** 31

/**
 * The balance accounts' settings: PIX_BALANCE_* and PIX_BALANCE_2_* to PIX_BALANCE_8_*. Each runs
 * one check at a time: at 100 ms RTT the checks meant for them are some 50 s of in-order round
 * trips (the ledger model's sequences, which spread over the free ones, among them), so eight
 * bring that below the rest of the shared phase (bench/README.md).
 */
export const MAX_BALANCE_ACCOUNTS = 8
export type BalanceAccountSetting = 'PIX_BALANCE' | `PIX_BALANCE_${2 | 3 | 4 | 5 | 6 | 7 | 8}`
export const BALANCE_ACCOUNT_SETTINGS: readonly BalanceAccountSetting[] = Array.from({ length: MAX_BALANCE_ACCOUNTS }, (_, i) => (i === 0 ? 'PIX_BALANCE' : `PIX_BALANCE_${i + 1}`) as BalanceAccountSetting)

/**
 * The settings that describe a target (its addresses, credentials, certificates and account data),
 * as opposed to the settings of a run (profile, seed, depth, time limit). Any of them set means
 * "certify this target", never the embedded reference.
 */
export const TARGET_SETTINGS = [
  'PIX_BASE_URL', 'PIX_GATEWAY_URL', 'PIX_CONTROL_URL', 'PIX_WEBHOOK_PUBLIC_URL',
  'PIX_CLIENT_ID', 'PIX_CLIENT_SECRET', 'PIX_API_KEY', 'PIX_API_KEY_LIMITED',
  'PIX_CERT_FILE', 'PIX_CERT_UNLINKED_FILE', 'PIX_CERT_OTHER_ACCOUNT_FILE',
  'PIX_OTHER_CLIENT_ID', 'PIX_OTHER_CLIENT_SECRET', 'PIX_OTHER_API_KEY',
  ...BALANCE_ACCOUNT_SETTINGS.flatMap((prefix) => [`${prefix}_CLIENT_ID`, `${prefix}_CLIENT_SECRET`, `${prefix}_API_KEY`] as const),
  'PIX_LIMITED_CLIENT_ID', 'PIX_LIMITED_CLIENT_SECRET', 'PIX_BUYER_UUID', 'PIX_PIX_KEY',
] as const

/**
 * Below MIN_SECRET_LENGTH (harness/redact.ts, also the console scrubber's) a secret is not redacted
 * from free text, where it would blank ordinary words: the config says so at start (it stays
 * usable: a sandbox may hand out short keys; header and body fields that carry it are blanked).
 */
const SECRET_SETTINGS = [
  'PIX_CLIENT_SECRET', 'PIX_OTHER_CLIENT_SECRET', 'PIX_LIMITED_CLIENT_SECRET', ...BALANCE_ACCOUNT_SETTINGS.map((prefix) => `${prefix}_CLIENT_SECRET` as const),
  'PIX_API_KEY', 'PIX_API_KEY_LIMITED', 'PIX_OTHER_API_KEY', ...BALANCE_ACCOUNT_SETTINGS.map((prefix) => `${prefix}_API_KEY` as const),
] as const

/**
 * Reads the config from `env` (process.env by default). An explicit env object is used alone:
 * process.env is not consulted, so a caller controls precedence by merging before calling.
 * Empty values count as unset.
 */
export function loadConfig(env: Env = process.env): TargetConfig {
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim()
    return value === undefined || value === '' ? undefined : value
  }
  const required = (name: string): string => {
    const value = read(name)
    if (value === undefined) throw new ConfigError(name, 'is required but not set')
    return value
  }

  const config: TargetConfig = {
    baseUrl: httpUrl('PIX_BASE_URL', required('PIX_BASE_URL')),
    gatewayUrl: httpUrl('PIX_GATEWAY_URL', required('PIX_GATEWAY_URL')),
    clientId: required('PIX_CLIENT_ID'),
    clientSecret: required('PIX_CLIENT_SECRET'),
    apiKey: required('PIX_API_KEY'),
    certFile: pemFile('PIX_CERT_FILE', read('PIX_CERT_FILE')),
    certMode: certMode(read('PIX_CERT_MODE')),
    tlsCaFile: pemFile('PIX_TLS_CA_FILE', read('PIX_TLS_CA_FILE')),
    certUnlinkedFile: pemFile('PIX_CERT_UNLINKED_FILE', read('PIX_CERT_UNLINKED_FILE')),
    certOtherAccountFile: pemFile('PIX_CERT_OTHER_ACCOUNT_FILE', read('PIX_CERT_OTHER_ACCOUNT_FILE')),
    apiKeyLimited: read('PIX_API_KEY_LIMITED'),
    otherClientId: read('PIX_OTHER_CLIENT_ID'),
    otherClientSecret: read('PIX_OTHER_CLIENT_SECRET'),
    otherApiKey: read('PIX_OTHER_API_KEY'),
    balanceAccounts: BALANCE_ACCOUNT_SETTINGS.map((prefix) => balanceAccount(read, prefix)).filter((a): a is BalanceAccount => a !== undefined),
    controlUrl: optionalHttpUrl('PIX_CONTROL_URL', read('PIX_CONTROL_URL')),
    webhookPublicUrl: httpsOnly('PIX_WEBHOOK_PUBLIC_URL', optionalHttpUrl('PIX_WEBHOOK_PUBLIC_URL', read('PIX_WEBHOOK_PUBLIC_URL'))),
    webhookListen: listenAddress(read('PIX_WEBHOOK_LISTEN')),
    webhookTls: captureTls(read('PIX_WEBHOOK_TLS_CERT_FILE'), read('PIX_WEBHOOK_TLS_KEY_FILE')),
    webhookClientCaFile: pemFile('PIX_WEBHOOK_CLIENT_CA_FILE', read('PIX_WEBHOOK_CLIENT_CA_FILE')),
    deliveryPolicyFile: textFile('PIX_DELIVERY_POLICY_FILE', read('PIX_DELIVERY_POLICY_FILE')),
    profile: profile(read('PIX_PROFILE'), flag('PIX_EMBEDDED', read('PIX_EMBEDDED'))),
    seed: integer('PIX_SEED', read('PIX_SEED'), { min: 0, max: MAX_SEED - 1 }) ?? randomInt(MAX_SEED),
    numRuns: integer('PIX_NUM_RUNS', read('PIX_NUM_RUNS'), { min: 1, max: MAX_NUM_RUNS }) ?? DEPTH_RUNS[depth(read('PIX_DEPTH'))],
    numRunsExplicit: read('PIX_NUM_RUNS') !== undefined,
    depth: depth(read('PIX_DEPTH')),
    strictDepth: flag('PIX_STRICT_DEPTH', read('PIX_STRICT_DEPTH')),
    unavailable: unavailable(read('PIX_UNAVAILABLE')),
    balanceAccountResets: flag('PIX_BALANCE_ACCOUNT_RESETS', read('PIX_BALANCE_ACCOUNT_RESETS')),
    allowReset: read('PIX_RESET') === undefined ? flag('PIX_EMBEDDED', read('PIX_EMBEDDED')) : flag('PIX_RESET', read('PIX_RESET')),
    timeoutMs: integer('PIX_TIMEOUT_MS', read('PIX_TIMEOUT_MS'), { min: 1, max: MAX_TIMEOUT_MS }) ?? DEFAULT_TIMEOUT_MS,
    workers: integer('PIX_WORKERS', read('PIX_WORKERS'), { min: 1, max: MAX_WORKERS }) ?? DEFAULT_WORKERS,
    workersExplicit: read('PIX_WORKERS') !== undefined,
    concurrency: integer('PIX_CONCURRENCY', read('PIX_CONCURRENCY'), { min: 1, max: MAX_CONCURRENCY }) ?? DEFAULT_CONCURRENCY,
    ...rateLimits(read('PIX_MAX_RPS'), read('PIX_MAX_IN_FLIGHT'), profile(read('PIX_PROFILE'), flag('PIX_EMBEDDED', read('PIX_EMBEDDED'))) === 'readonly' && !flag('PIX_EMBEDDED', read('PIX_EMBEDDED'))),
    slow: flag('PIX_SLOW', read('PIX_SLOW')),
    limitedClientId: read('PIX_LIMITED_CLIENT_ID'),
    limitedClientSecret: read('PIX_LIMITED_CLIENT_SECRET'),
    buyerUuid: read('PIX_BUYER_UUID'),
    pixKey: read('PIX_PIX_KEY'),
    embedded: flag('PIX_EMBEDDED', read('PIX_EMBEDDED')),
  }
  warnOfShortSecrets(read)
  if (config.certMode === 'transport') requireKeys(config)
  balanceAccountApart(config)
  if (config.profile === 'sandbox' && !config.embedded && !config.controlUrl && !flag('PIX_YES_MUTATE', read('PIX_YES_MUTATE'))) {
    throw new ConfigError(
      'PIX_PROFILE',
      'sandbox sends state-changing requests (charges, payments, refunds, slips) to a target with no control API, which looks like production; confirm with --yes-mutate (PIX_YES_MUTATE=1), or use the readonly profile',
    )
  }
  return config
}

function depth(value: string | undefined): Depth {
  if (value === undefined) return 'default'
  if (value === 'quick' || value === 'default' || value === 'deep') return value
  throw new ConfigError('PIX_DEPTH', `must be quick, default or deep, got "${value}"`)
}

/** An account no other check touches, for the checks that read balances to the cent. */
export interface BalanceAccount {
  /** The settings it comes from: PIX_BALANCE_*, or PIX_BALANCE_2_* to PIX_BALANCE_8_*. */
  prefix: BalanceAccountSetting
  clientId: string
  clientSecret: string
  apiKey: string
}


/** One balance account: all three settings, or none. */
function balanceAccount(read: (name: string) => string | undefined, prefix: BalanceAccountSetting): BalanceAccount | undefined {
  const names = [`${prefix}_CLIENT_ID`, `${prefix}_CLIENT_SECRET`, `${prefix}_API_KEY`]
  const [clientId, clientSecret, apiKey] = names.map((n) => read(n))
  if (clientId === undefined && clientSecret === undefined && apiKey === undefined) return undefined
  const missing = names.filter((n) => read(n) === undefined)
  if (missing.length > 0) throw new ConfigError(missing[0] as string, `is required with ${names.filter((n) => !missing.includes(n)).join(' and ')}: a balance account needs its client id, secret and API key`)
  return { prefix, clientId: clientId as string, clientSecret: clientSecret as string, apiKey: apiKey as string }
}

/** Each balance account is an account of its own: other checks move the main, second and limited ones. */
function balanceAccountApart(c: TargetConfig): void {
  const ids: [string, string | undefined][] = [['PIX_CLIENT_ID', c.clientId], ['PIX_OTHER_CLIENT_ID', c.otherClientId], ['PIX_LIMITED_CLIENT_ID', c.limitedClientId]]
  const keys: [string, string | undefined][] = [['PIX_API_KEY', c.apiKey], ['PIX_OTHER_API_KEY', c.otherApiKey], ['PIX_API_KEY_LIMITED', c.apiKeyLimited]]
  for (const account of c.balanceAccounts) {
    const sameId = ids.find(([, v]) => v !== undefined && v === account.clientId)
    if (sameId) throw new ConfigError(`${account.prefix}_CLIENT_ID`, `is the same as ${sameId[0]}: a balance account must be one that no other check uses`)
    const sameKey = keys.find(([, v]) => v !== undefined && v === account.apiKey)
    if (sameKey) throw new ConfigError(`${account.prefix}_API_KEY`, `is the same as ${sameKey[0]}: a balance account must be one that no other check uses`)
    ids.push([`${account.prefix}_CLIENT_ID`, account.clientId])
    keys.push([`${account.prefix}_API_KEY`, account.apiKey])
  }
}

/** The need under which the preflight reports a balance account unusable (PIX_UNAVAILABLE): balanceAccount, balanceAccount2, … balanceAccount8. */
export function unavailableKeyOf(account: Pick<BalanceAccount, 'prefix'>): string {
  return `balanceAccount${account.prefix.slice('PIX_BALANCE'.length).replace('_', '')}`
}

/** The balance accounts the preflight did not find refused. */
export function usableBalanceAccounts(c: Pick<TargetConfig, 'balanceAccounts' | 'unavailable'>): BalanceAccount[] {
  return c.balanceAccounts.filter((a) => c.unavailable[unavailableKeyOf(a)] === undefined)
}

/** Whether the checks declared ALONE.balances run on balance accounts, beside the rest. */
export function usesBalanceAccount(c: Pick<TargetConfig, 'balanceAccounts' | 'unavailable'>): boolean {
  return usableBalanceAccounts(c).length > 0
}

/**
 * Whether the checks that start from a blank account (`ALONE.accountReset`) run on the balance
 * accounts, resetting only the one they hold: there are two (one alone would queue every other
 * check meant for it behind the ledger's many seconds, no sooner done than alone after the rest),
 * the run may reset, and the preflight saw the driver reset each of them.
 */
export function resetsBalanceAccount(c: Pick<TargetConfig, 'balanceAccounts' | 'unavailable' | 'balanceAccountResets' | 'allowReset'>): boolean {
  return usableBalanceAccounts(c).length >= 2 && c.balanceAccountResets && c.allowReset
}

/** Whether `clientId` is one of the balance accounts (a check on one sees it as its own account). */
export function isBalanceAccount(c: Pick<TargetConfig, 'balanceAccounts'>, clientId: string): boolean {
  return c.balanceAccounts.some((a) => a.clientId === clientId)
}

/**
 * The config a check on a balance account sees: that account's credentials in place of the main
 * account's, and none of the main account's certificates, limited credentials or data (the second
 * account's certificate stays: it is another account's to the balance account too).
 */
export function balanceAccountConfig(c: TargetConfig, account: BalanceAccount): TargetConfig {
  const { certFile: _cert, certUnlinkedFile: _unlinked, apiKeyLimited: _limitedKey, limitedClientId: _limitedId,
    limitedClientSecret: _limitedSecret, buyerUuid: _buyer, pixKey: _pixKey, ...rest } = c
  return { ...rest, clientId: account.clientId, clientSecret: account.clientSecret, apiKey: account.apiKey }
}

/** vitest.config.ts testTimeout: a check's time limit, three times the default request limit (10 s). */
export const CHECK_TIMEOUT_MS = 30_000
/** A longer request limit (PIX_TIMEOUT_MS) stretches the check limit in the same ratio. */
const CHECK_TIMEOUT_PER_REQUEST_TIMEOUT = 3

/** The time limit of a check that declares none (the CLI passes it to vitest as testTimeout). */
export function runCheckTimeoutMs(c: Pick<TargetConfig, 'timeoutMs'>): number {
  return Math.max(CHECK_TIMEOUT_MS, c.timeoutMs * CHECK_TIMEOUT_PER_REQUEST_TIMEOUT)
}

/** `{"otherAccount":"PIX_OTHER_API_KEY is refused …"}`, written by the CLI's preflight. */
function unavailable(value: string | undefined): Record<string, string> {
  if (value === undefined) return {}
  try {
    const parsed = JSON.parse(value) as unknown
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'))
    }
  } catch {
    // fall through
  }
  throw new ConfigError('PIX_UNAVAILABLE', 'must be a JSON object of reasons by need (the CLI writes it)')
}

const warnedShortSecrets = new Set<string>()

/** One console warning per short secret and process (workers and tests load the config often). */
function warnOfShortSecrets(read: (name: string) => string | undefined): void {
  for (const name of SECRET_SETTINGS) {
    const value = read(name)
    if (value === undefined || value.length >= MIN_SECRET_LENGTH) continue
    const key = `${name}\0${value}`
    if (warnedShortSecrets.has(key)) continue
    warnedShortSecrets.add(key)
    console.warn(
      `warning: ${name} is shorter than ${MIN_SECRET_LENGTH} characters: it will not be redacted from messages, logs and reports (only the headers and body fields that carry it are); use a longer value`,
    )
  }
}

/**
 * Reads a dotenv file into a plain object (no interpolation, process.env untouched). A pipe is
 * accepted besides a regular file (`--env <(secret-tool …)`): the file is read once.
 */
export function loadDotenv(file: string): Record<string, string> {
  return parseDotenv(readSettingFile('--env', file, (s) => s.isFile() || s.isFIFO()))
}

/**
 * Every value that must never appear in a report or log: client secrets, API keys and the
 * contents of the certificate files (the whole file and each PEM block in it, since the harness
 * sends the certificate block alone). Names are the PIX_* settings they come from.
 */
export function secretValues(c: TargetConfig): SecretValue[] {
  const secrets: SecretValue[] = []
  const add = (name: string, value: string | undefined) => {
    if (value) secrets.push({ name, value })
  }
  add('PIX_CLIENT_SECRET', c.clientSecret)
  add('PIX_OTHER_CLIENT_SECRET', c.otherClientSecret)
  add('PIX_LIMITED_CLIENT_SECRET', c.limitedClientSecret)
  add('PIX_API_KEY', c.apiKey)
  add('PIX_API_KEY_LIMITED', c.apiKeyLimited)
  add('PIX_OTHER_API_KEY', c.otherApiKey)
  for (const account of c.balanceAccounts) {
    add(`${account.prefix}_CLIENT_SECRET`, account.clientSecret)
    add(`${account.prefix}_API_KEY`, account.apiKey)
  }
  const certFiles: [string, string | undefined][] = [
    ['PIX_CERT_FILE', c.certFile],
    ['PIX_CERT_UNLINKED_FILE', c.certUnlinkedFile],
    ['PIX_CERT_OTHER_ACCOUNT_FILE', c.certOtherAccountFile],
  ]
  for (const [name, file] of certFiles) {
    if (!file || !existsSync(file)) continue
    const text = readFileSync(file, 'utf8')
    add(name, text)
    for (const block of pemBlocks(text)) {
      add(name, block)
      add(name, pemBase64Body(block))
    }
  }
  return secrets
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g

/** The PEM blocks of a file, each from its BEGIN line to its END line. */
export function pemBlocks(text: string): string[] {
  return [...text.matchAll(PEM_BLOCK)].map((m) => m[0])
}

/** The certificate block(s) of a PEM file: what goes into X-SSL-Client-Cert (never a private key). */
export function certificatePem(text: string): string {
  const certs = pemBlocks(text).filter((b) => b.startsWith('-----BEGIN CERTIFICATE-----'))
  return certs.length > 0 ? `${certs.join('\n')}\n` : text
}

/** Reads the certificate of a configured PEM file. */
export function readCertificate(file: string): string {
  return certificatePem(readFileSync(file, 'utf8'))
}

function pemBase64Body(block: string): string {
  return block
    .split('\n')
    .filter((line) => !line.startsWith('-----'))
    .join('')
    .replace(/\s/g, '')
}

function httpUrl(setting: string, value: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new ConfigError(setting, `"${value}" is not a URL`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(setting, `"${value}" must be an http or https URL`)
  }
  return value.replace(/\/+$/, '')
}

function optionalHttpUrl(setting: string, value: string | undefined): string | undefined {
  return value === undefined ? undefined : httpUrl(setting, value)
}

function certMode(value: string | undefined): TargetConfig['certMode'] {
  if (value === undefined || value === 'header') return 'header'
  if (value === 'transport') return 'transport'
  throw new ConfigError('PIX_CERT_MODE', `must be header or transport, got "${value}"`)
}

/** Mutual TLS needs the private key of every certificate the kit presents: in the same PEM file. */
function requireKeys(c: TargetConfig): void {
  if (!c.certFile) throw new ConfigError('PIX_CERT_FILE', 'is required with PIX_CERT_MODE=transport (the certificate and key the kit presents at the socket)')
  for (const [setting, file] of [['PIX_CERT_FILE', c.certFile], ['PIX_CERT_UNLINKED_FILE', c.certUnlinkedFile], ['PIX_CERT_OTHER_ACCOUNT_FILE', c.certOtherAccountFile]] as const) {
    if (file && privateKeyPem(readFileSync(file, 'utf8')) === undefined) throw new ConfigError(setting, `file ${file} holds no private key: PIX_CERT_MODE=transport presents it at the socket, so the file must hold the certificate and its key`)
  }
}

/** The private key block of a PEM file, if it has one. */
export function privateKeyPem(text: string): string | undefined {
  const key = pemBlocks(text).find((b) => /^-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(b))
  return key === undefined ? undefined : `${key}\n`
}

/** §4.12: a resend goes only to an HTTPS URL, so the capture server's public address must be one. */
function httpsOnly(setting: string, url: string | undefined): string | undefined {
  if (url !== undefined && !url.startsWith('https://')) throw new ConfigError(setting, `must be an https:// URL (resend delivers only to HTTPS, §4.12), got ${url}`)
  return url
}

function listenAddress(value: string | undefined): TargetConfig['webhookListen'] {
  if (value === undefined) return undefined
  const m = /^(?:(.+):)?(\d+)$/.exec(value)
  const port = Number(m?.[2])
  if (!m || port > 65535) throw new ConfigError('PIX_WEBHOOK_LISTEN', `must be a port or host:port, got "${value}"`)
  return { host: (m[1] ?? '127.0.0.1').replace(/^\[(.*)\]$/, '$1'), port }
}

function captureTls(certFile: string | undefined, keyFile: string | undefined): TargetConfig['webhookTls'] {
  if (certFile === undefined && keyFile === undefined) return undefined
  if (certFile === undefined || keyFile === undefined) {
    throw new ConfigError(certFile === undefined ? 'PIX_WEBHOOK_TLS_CERT_FILE' : 'PIX_WEBHOOK_TLS_KEY_FILE', 'is required with the other: the capture server needs both its certificate and its key')
  }
  pemFile('PIX_WEBHOOK_TLS_CERT_FILE', certFile)
  if (!readSettingFile('PIX_WEBHOOK_TLS_KEY_FILE', keyFile, (st) => st.isFile()).toString('utf8').includes('PRIVATE KEY-----')) {
    throw new ConfigError('PIX_WEBHOOK_TLS_KEY_FILE', `file ${keyFile} is not a PEM private key`)
  }
  return { certFile, keyFile }
}

/** Safe by default: only the embedded reference is changed without being asked to. */
function profile(value: string | undefined, embedded: boolean): Profile {
  if (value === undefined) return embedded ? 'sandbox' : 'readonly'
  if (value === 'sandbox' || value === 'readonly') return value
  throw new ConfigError('PIX_PROFILE', `"${value}" must be sandbox or readonly`)
}

function integer(setting: string, value: string | undefined, range: { min: number; max?: number }): number | undefined {
  if (value === undefined) return undefined
  if (!/^-?\d+$/.test(value)) throw new ConfigError(setting, `"${value}" is not an integer`)
  const n = Number(value)
  const max = range.max ?? Number.MAX_SAFE_INTEGER
  if (n < range.min || n > max) throw new ConfigError(setting, `${value} must be between ${range.min} and ${max}`)
  return n
}

function flag(setting: string, value: string | undefined): boolean {
  if (value === undefined) return false
  const v = value.toLowerCase()
  if (['1', 'true', 'yes', 'on'].includes(v)) return true
  if (['0', 'false', 'no', 'off'].includes(v)) return false
  throw new ConfigError(setting, `"${value}" must be 1/true or 0/false`)
}

/** A certificate file is read more than once (validation, redaction, each request): regular files only. */
function pemFile(setting: string, file: string | undefined): string | undefined {
  if (file === undefined) return undefined
  const text = readSettingFile(setting, file, (s) => s.isFile()).toString('utf8')
  if (!text.includes('-----BEGIN CERTIFICATE-----')) {
    throw new ConfigError(setting, `file ${file} is not a PEM certificate (no BEGIN CERTIFICATE block)`)
  }
  return file
}

function textFile(setting: string, file: string | undefined): string | undefined {
  if (file === undefined) return undefined
  readSettingFile(setting, file, (s) => s.isFile())
  return file
}

/** Reads a file a setting names; anything that stops it (absent, a directory, no permission) is that setting's ConfigError. */
function readSettingFile(setting: string, file: string, readable: (s: Stats) => boolean): Buffer {
  let stats: Stats
  try {
    stats = statSync(file)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new ConfigError(setting, `file ${file} does not exist`)
    throw new ConfigError(setting, `file ${file} cannot be read (${reasonOf(e)})`)
  }
  if (stats.isDirectory()) throw new ConfigError(setting, `${file} is a directory, not a file`)
  if (!readable(stats)) throw new ConfigError(setting, `${file} is not a regular file`)
  try {
    return readFileSync(file)
  } catch (e) {
    throw new ConfigError(setting, `file ${file} cannot be read (${reasonOf(e)})`)
  }
}

function reasonOf(e: unknown): string {
  const err = e as NodeJS.ErrnoException
  return err.code ?? err.message
}
