// Preflight: before any suite runs, the settings are tried once each, so a wrong key or a URL that
// serves something else is one line naming the setting (exit 2) instead of a hundred target
// failures. Optional credentials that fail only turn their own checks to skipped, with the reason.
// It changes nothing, but, when the selection has checks meant for the balance accounts (sandbox
// profile, PIX_BALANCE_*, _2_*, _3_*), for one cent paid through the sandbox driver to each, to learn
// that the driver credits the account it names, and, when the run may reset (--reset) and has two
// or more, a reset of each account alone, to learn whether the driver can.
import { flushPacingLogs } from '../../harness/pacing.ts'
import { unavailableKeyOf, usableBalanceAccounts, type BalanceAccount, type TargetConfig } from '../../harness/config.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { ControlClient, ControlError } from '../../harness/control.ts'
import { createClients, HttpClient, type AccountClients, type BearerClient } from '../../harness/http.ts'
import { randomUUID } from 'node:crypto'
import { urlMistake } from './url-mistakes.ts'
import { clockSkewLine } from './clock-skew.ts'

/** A setting the run cannot go on without; the message is the whole line the user sees. */
export class PreflightError extends Error {
  constructor(readonly setting: string, message: string) {
    super(message)
    this.name = 'PreflightError'
  }
}

export interface PreflightResult {
  /** Reasons by need (harness/check.ts Need): checks with that need are skipped with it. */
  unavailable: Record<string, string>
  /** One line each, for the console. */
  warnings: string[]
  /** The driver reset the balance account alone (the run may reset): the ledger model runs there. */
  balanceAccountResets: boolean
  /** The fastest answer of the target to the preflight's requests, in ms (most on a kept-alive connection, one round trip): how far the target is. */
  fastestAnswerMs: number
}

const PREFLIGHT_TIMEOUT_MS = 5_000

/**
 * `driveBalanceAccounts`: the selection has checks meant for the balance accounts, so the driver is
 * asked about them (a cent paid, an account reset); otherwise only their credentials are tried.
 */
export async function preflight(config: TargetConfig, { driveBalanceAccounts = true }: { driveBalanceAccounts?: boolean } = {}): Promise<PreflightResult> {
  const timeoutMs = Math.min(config.timeoutMs, PREFLIGHT_TIMEOUT_MS)
  let fastestAnswerMs = Infinity
  const clients = createClients({ ...config, timeoutMs }, (ex) => {
    if (!ex.response.error) fastestAnswerMs = Math.min(fastestAnswerMs, ex.response.durationMs)
  })
  const unavailable: Record<string, string> = {}
  const warnings: string[] = []
  /** By balance account: true when the driver reset it alone, else why not (asked only when the run may reset). */
  const resets = new Map<string, true | string>()
  try {
    // Each question is asked once, and those that do not wait on another are asked together: on a
    // distant target every round trip before the run is one more the user waits for.
    const [token, balance, clock] = await Promise.all([
      clients.base.requestToken(),
      clients.gateway.get('/v1/account/balance'),
      // read in every profile: "now" is the target's (harness/target-clock.ts), and reading changes nothing
      config.controlUrl ? new HttpClient({ timeoutMs }).send({ method: 'GET', url: `${config.controlUrl}/control/clock`, headers: { accept: 'application/json' } }) : undefined,
    ])
    const answeredAtMs = Date.now()
    if (!hasToken(token)) {
      if (isRefusal(token)) throw new PreflightError('PIX_CLIENT_SECRET', `PIX_CLIENT_SECRET (with PIX_CLIENT_ID) is refused by POST /oauth/token: ${answer(token)}`)
      if (isForeign(token)) throw new PreflightError('PIX_BASE_URL', `PIX_BASE_URL does not serve this interface: POST /oauth/token answered ${answer(token)}${isSuccess(token) ? ' without an access_token' : ''}`)
    }
    // each URL judged on its own answers: one wrong path prefix is one line naming its setting
    const mistake = await urlMistake(config, token, balance, timeoutMs)
    if (mistake) throw new PreflightError(mistake.setting, mistake.message)
    if (!hasToken(token)) {
      warnings.push(`POST ${config.baseUrl}/oauth/token answered ${answer(token)}: every check that needs a bearer token will be blocked`)
    }

    if (balance.response.status === 401 || balance.response.status === 403) {
      throw new PreflightError('PIX_API_KEY', `PIX_API_KEY is refused by GET /v1/account/balance: ${answer(balance)}`)
    }
    if (isForeign(balance)) throw new PreflightError('PIX_GATEWAY_URL', `PIX_GATEWAY_URL does not serve this interface: GET /v1/account/balance answered ${answer(balance)}`)
    if (!isSuccess(balance) && balance.response.status !== 429) {
      warnings.push(`GET ${config.gatewayUrl}/v1/account/balance answered ${answer(balance)}: the checks of the gateway will show it`)
    }
    const wrongClock = clock && clockProblem(clock)
    if (wrongClock) {
      const problem = `PIX_CONTROL_URL does not serve the sandbox driver of specs/control.yaml: GET /control/clock ${wrongClock}; it is the driver's base (its routes start /control/), not the API's`
      // a run that does not drive the sandbox only reads its clock: the Date header stands in
      if (config.profile !== 'readonly') throw new PreflightError('PIX_CONTROL_URL', problem)
      warnings.push(`${problem}: times are judged on the target's Date header instead`)
    }
    const skew = clockSkewLine(wrongClock ? undefined : clock, [token, balance], answeredAtMs)
    if (skew) warnings.push(skew)

    const optional = await Promise.all([
      (async () => {
        if (!config.certFile) return undefined
        const cert = await clients.certToken.issue()
        return isSuccess(cert) ? undefined : ['certs', `PIX_CERT_FILE is refused by POST /api/auth/token: ${answer(cert)}`] as const
      })(),
      (async () => {
        if (config.otherClientId && config.otherClientSecret && clients.other?.base) {
          const other = await clients.other.base.requestToken()
          if (!isSuccess(other)) return ['otherAccount', `PIX_OTHER_CLIENT_SECRET is refused by POST /oauth/token: ${answer(other)}`] as const
        }
        if (config.otherApiKey && clients.other?.gateway) {
          const other = await clients.other.gateway.get('/v1/account/balance')
          if (other.response.status === 401 || other.response.status === 403) return ['otherAccount', `PIX_OTHER_API_KEY is refused by GET /v1/account/balance: ${answer(other)}`] as const
        }
        return undefined
      })(),
      ...config.balanceAccounts.map((account, i) => balanceAccountProblem(config, account, clients.balances[i] as AccountClients, timeoutMs, driveBalanceAccounts ? resets : undefined)),
      (async () => {
        if (config.limitedClientId && config.limitedClientSecret && clients.limited?.base) {
          const limited = await clients.limited.base.requestToken()
          if (!isSuccess(limited)) return ['limitedKey', `PIX_LIMITED_CLIENT_SECRET is refused by POST /oauth/token: ${answer(limited)}`] as const
        }
        if (config.apiKeyLimited && clients.limited?.gateway) {
          // a limited key may well be denied (403) the balance: only 401 says the key itself is wrong
          const limited = await clients.limited.gateway.get('/v1/account/balance')
          if (limited.response.status === 401) return ['limitedKey', `PIX_API_KEY_LIMITED is refused by GET /v1/account/balance: ${answer(limited)}`] as const
        }
        return undefined
      })(),
    ])
    for (const found of optional) if (found) unavailable[found[0]] = found[1]
  } finally {
    flushPacingLogs()  // the workers' pacers count the gateway balance requests made here
  }
  const usable = usableBalanceAccounts({ ...config, unavailable })
  for (const [need, reason] of Object.entries(unavailable)) {
    const balanceAccount = config.balanceAccounts.find((a) => unavailableKeyOf(a) === need)
    warnings.push(!balanceAccount ? `${reason}: the checks that need it are skipped`
      : usable.length > 0 ? `${reason}: the checks meant for it run on the other balance account${usable.length > 1 ? 's' : ''}`
        : `${reason}: the checks meant for it run alone on the main account instead`)
  }
  const balanceAccountResets = usable.length > 0 && usable.every((a) => resets.get(a.clientId) === true)
  const refusal = usable.map((a) => resets.get(a.clientId)).find((r) => typeof r === 'string')
  if (refusal) warnings.push(`${refusal}: the ledger model resets the whole sandbox, alone after the other checks`)
  return { unavailable, warnings, balanceAccountResets, fastestAnswerMs }
}

/**
 * Why a balance account cannot be used, as [need, reason], or undefined when it can. Its token and
 * key are tried. When the run drives the sandbox and the selection has checks for the account
 * (`resets` given), the driver must know it and credit it a cent paid in its name; and when the run
 * may reset (--reset) and has two or more balance accounts, the account is reset alone (an optional
 * route) to learn whether the driver can, noted in `resets`. That leaves it blank for its checks.
 */
async function balanceAccountProblem(config: TargetConfig, account: BalanceAccount, clients: AccountClients, timeoutMs: number, resets: Map<string, true | string> | undefined): Promise<readonly [string, string] | undefined> {
  const need = unavailableKeyOf(account)
  const { prefix } = account
  // its checks drive it (incoming payments, settlements): the driver must know it; asked beside
  // its credentials (a read), so a distant target waits one round trip for both
  const driver = config.controlUrl && config.profile !== 'readonly' && resets
    ? new ControlClient(new HttpClient({ timeoutMs }), config.controlUrl, account.clientId, { namesAccount: true })
    : undefined
  const [token, key, known] = await Promise.all([
    clients.base.requestToken(),
    clients.gateway.get('/v1/account/balance'),
    driver?.account().then(() => undefined, (err: unknown) => (err instanceof ControlError ? answer(err.exchange) : String(err))),
  ])
  if (!hasToken(token)) return [need, `${prefix}_CLIENT_SECRET (with ${prefix}_CLIENT_ID) is refused by POST /oauth/token: ${answer(token)}`] as const
  if (key.response.status === 401 || key.response.status === 403) return [need, `${prefix}_API_KEY is refused by GET /v1/account/balance: ${answer(key)}`] as const
  if (!driver || !resets) return undefined
  if (known !== undefined) return [need, `the sandbox driver does not know ${prefix}_CLIENT_ID: GET /control/accounts/{id} answered ${known}`] as const
  // A driver that ignored `account` would credit the main account, and the balance checks would
  // blame the target: one cent paid to the balance account must be that account's to see.
  const credited = await creditedToBalanceAccount(driver, clients.base, prefix)
  if (credited !== undefined) return [need, credited] as const
  // the ledger model takes a balance account only when there are two or more (resetsBalanceAccount)
  if (config.allowReset && config.balanceAccounts.length >= 2) resets.set(account.clientId, (await resetRefusal(driver)) ?? true)
  return undefined
}

/** Why the driver did not reset the balance account alone (an optional route), or undefined when it did. */
async function resetRefusal(driver: ControlClient): Promise<string | undefined> {
  try {
    await driver.resetAccount()
    return undefined
  } catch (err) {
    return `the sandbox driver does not reset one account (POST /control/accounts/{id}/reset answered ${err instanceof ControlError ? answer(err.exchange) : String(err)})`
  }
}

/** Why a cent paid through the driver to the balance account is not that account's, or undefined when it is. */
async function creditedToBalanceAccount(driver: ControlClient, base: BearerClient, prefix: string): Promise<string | undefined> {
  let transactionId: string
  try {
    transactionId = (await driver.incomingPayment({ amount: 0.01, externalId: `kit-preflight-${randomUUID()}` })).transactionId
  } catch (err) {
    return `the sandbox driver refused a payment to ${prefix}_CLIENT_ID: POST /control/incoming-payments answered ${err instanceof ControlError ? answer(err.exchange) : String(err)}`
  }
  const seen = await base.get(`/api/pix/transaction/${encodeURIComponent(transactionId)}`)
  if (isSuccess(seen)) return undefined
  return `a payment the sandbox driver made to ${prefix}_CLIENT_ID (transaction ${transactionId}) is not that account's: GET /api/pix/transaction/{id} with its credentials answered ${answer(seen)}`
}

/**
 * A token answer holds a token, whatever its content type says: JSON under another label breaks a
 * convention of the interface (0.json-bodies), which the checks report, not a setting to fix.
 */
function hasToken(ex: Exchange): boolean {
  return isSuccess(ex) && typeof (bodyJson(ex) as { access_token?: unknown } | undefined)?.access_token === 'string'
}

/** The body as JSON: parsed by the client when labelled JSON, else parsed here if it can be. */
function bodyJson(ex: Exchange): unknown {
  if (ex.response.json !== undefined) return ex.response.json
  try {
    return JSON.parse(ex.response.body) as unknown
  } catch {
    return undefined
  }
}

/**
 * What is wrong with the driver's answer to GET /control/clock (specs/control.yaml: 200 with
 * `{now}`, or 501 from a driver that does not provide the route), or undefined when nothing is.
 */
function clockProblem(ex: Exchange): string | undefined {
  if (ex.response.error) return `failed: ${ex.response.error}`
  if (ex.response.status === 501) return undefined
  if (!isSuccess(ex)) return `answered ${answer(ex)} (the contract: 200 with the simulated time, or 501 when not provided)`
  const now = (bodyJson(ex) as { now?: unknown } | undefined)?.now
  if (typeof now !== 'string' || Number.isNaN(Date.parse(now))) return `answered ${answer(ex)} without the simulated time ({"now": "<date-time>"})`
  return undefined
}

/** Credentials refused (§7: 401 invalid credentials; 400 and 403 as some token servers answer). */
function isRefusal(ex: Exchange): boolean {
  return [400, 401, 403].includes(ex.response.status)
}

/**
 * Up, but not this interface: a page where JSON was due, or a 2xx token answer without a token.
 * Transport failures and 5xx are not config mistakes: the checks report them.
 */
function isForeign(ex: Exchange): boolean {
  // a JSON answer that does not parse is a broken target, which the checks report, not another API
  if (ex.response.error || ex.response.jsonError) return false
  if (/^\s*</.test(ex.response.body)) return true
  return ex.request.url.endsWith('/oauth/token') && isSuccess(ex)
}

function isSuccess(ex: Exchange): boolean {
  return !ex.response.error && ex.response.status >= 200 && ex.response.status <= 299
}

function answer(ex: Exchange): string {
  if (ex.response.error) return ex.response.error
  const type = ex.response.headers['content-type']?.split(';')[0]
  return `${ex.response.status}${type && type !== 'application/json' ? ` (${type})` : ''}`
}
