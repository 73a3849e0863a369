// Which URL setting is wrong, judged on each URL's own answers (cli/certify/preflight.ts asks the token
// endpoint at PIX_BASE_URL and the balance at PIX_GATEWAY_URL). A path prefix added or left out is
// the commonest setup mistake; run anyway, it became target failures on the clauses of whichever
// API the URL was for. So:
// - the token endpoint answering 404 (or a page) while the gateway answers is PIX_BASE_URL;
// - the balance 404 while the token endpoint answers is PIX_GATEWAY_URL when the gateway's route
//   answers nearby (the URL without its last path segments, or at PIX_BASE_URL); with no gateway
//   route anywhere it is a partial implementation (no gateway yet), which the checks report;
// - both 404, and each route answering at the other URL, is the two URLs swapped.
// Each is a PreflightError: one line naming the setting, exit 2, before any report.
import type { TargetConfig } from '../../harness/config.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { createClients } from '../../harness/http.ts'

/** How an answer stands to this interface's route. */
export type RouteAnswer = 'route' | 'absent' | 'unknown'

/** What the token endpoint's answer says of the route: a token or a refusal of the credentials is it; 404 or a page is not. */
export function tokenRoute(ex: Exchange): RouteAnswer {
  if (ex.response.error) return 'unknown'
  if (isPage(ex)) return 'absent'
  const status = ex.response.status
  if (status === 404) return 'absent'
  if ([400, 401, 403].includes(status)) return 'route'
  // JSON that does not parse is a broken token endpoint (the checks report it), not another API
  if (status >= 200 && status <= 299) return hasAccessToken(ex) ? 'route' : ex.response.jsonError ? 'unknown' : 'absent'
  return 'unknown'  // 5xx, 429, …: up, but saying nothing of the URL
}

/** What the balance probe's answer says of the route: the balance or a refusal of the key is it; 404 or a page is not. */
export function balanceRoute(ex: Exchange): RouteAnswer {
  if (ex.response.error) return 'unknown'
  if (isPage(ex)) return 'absent'
  const status = ex.response.status
  if (status === 404) return 'absent'
  if ((status >= 200 && status <= 299) || status === 401 || status === 403 || status === 429) return 'route'
  return 'unknown'
}

export interface UrlMistake {
  setting: 'PIX_BASE_URL' | 'PIX_GATEWAY_URL' | 'PIX_CLIENT_ID'
  message: string
}

/**
 * The URL setting the two probes show wrong, or undefined when neither is (or nothing can be told:
 * the caller keeps its warnings for those). Asks more only when a probe found no route: the token
 * endpoint and the balance at the URLs' parents and at each other's URL.
 */
export async function urlMistake(config: TargetConfig, token: Exchange, balance: Exchange, timeoutMs: number): Promise<UrlMistake | undefined> {
  const tokenSays = tokenRoute(token)
  const balanceSays = balanceRoute(balance)
  if (tokenSays !== 'absent' && balanceSays !== 'absent') return undefined
  const probes = new Probes(config, timeoutMs)
  const base = config.baseUrl
  const gateway = config.gatewayUrl
  const tokenAt = `POST ${base}/oauth/token answered ${answer(token)}`
  const balanceAt = `GET ${gateway}/v1/account/balance answered ${answer(balance)}`

  if (tokenSays === 'absent' && balanceSays === 'absent') {
    if (base !== gateway) {
      const [tokenAtGateway, balanceAtBase] = await Promise.all([probes.token(gateway), probes.balance(base)])
      if (tokenRoute(tokenAtGateway) === 'route' && balanceRoute(balanceAtBase) === 'route') {
        return { setting: 'PIX_BASE_URL', message: `PIX_BASE_URL and PIX_GATEWAY_URL are swapped: ${tokenAt} and ${balanceAt}, while POST ${gateway}/oauth/token answers ${answer(tokenAtGateway)} and GET ${base}/v1/account/balance answers ${answer(balanceAtBase)} (set PIX_BASE_URL=${gateway} and PIX_GATEWAY_URL=${base})` }
      }
    }
    const [baseFix, gatewayFix] = await Promise.all([probes.tokenNearby(base), probes.balanceNearby(gateway, base)])
    const fixes = [baseFix && `PIX_BASE_URL: ${baseFix}`, gatewayFix && `PIX_GATEWAY_URL: ${gatewayFix}`].filter(Boolean).join('; ')
    return { setting: 'PIX_BASE_URL', message: `PIX_BASE_URL and PIX_GATEWAY_URL do not serve this interface: ${tokenAt} and ${balanceAt}; ${fixes || 'is a path prefix missing or extra (the routes start at /oauth/token and /v1/account/balance)?'}` }
  }

  if (tokenSays === 'absent') {
    // some token servers answer 404 to a client they do not know: the route answers a request without credentials otherwise
    if (token.response.status === 404) {
      const bare = await probes.token(base)
      if (!bare.response.error && bare.response.status !== 404 && !isPage(bare)) {
        return { setting: 'PIX_CLIENT_ID', message: `PIX_CLIENT_ID (with PIX_CLIENT_SECRET) is refused by POST /oauth/token: ${answer(token)} (the route is there: without credentials it answers ${answer(bare)})` }
      }
    }
    const fix = await probes.tokenNearby(base, gateway)
    // a gateway that answers says the target is there: the base URL is what is wrong
    if (!fix && balanceSays !== 'route') return undefined
    return { setting: 'PIX_BASE_URL', message: `PIX_BASE_URL does not serve this interface: ${tokenAt}${balanceSays === 'route' ? ` while the gateway answers (GET ${gateway}/v1/account/balance: ${answer(balance)})` : ''}; ${fix ?? `is a path prefix missing or extra${pathNote(base)} (the route is ${base.replace(/\/+$/, '')}/oauth/token)?`}` }
  }

  // the balance has no route, the token endpoint answers: a wrong gateway URL only when the route is found nearby
  const fix = await probes.balanceNearby(gateway, base)
  if (!fix) return undefined
  return { setting: 'PIX_GATEWAY_URL', message: `PIX_GATEWAY_URL does not serve this interface: ${balanceAt} while the token endpoint answers; ${fix}` }
}

/** The URL without its last path segments, nearest first (`http://h/a/b` → `http://h/a`, `http://h`). */
export function parentUrls(url: string, most = 3): string[] {
  const parsed = new URL(url)
  const segments = parsed.pathname.split('/').filter(Boolean)
  const out: string[] = []
  for (let keep = segments.length - 1; keep >= 0 && out.length < most; keep--) {
    out.push(`${parsed.origin}${keep > 0 ? `/${segments.slice(0, keep).join('/')}` : ''}`)
  }
  return out
}

/** " (PIX_BASE_URL has the path /api)", or "" for a URL without a path. */
function pathNote(url: string): string {
  const path = new URL(url).pathname.replace(/\/+$/, '')
  return path ? ` (its path is ${path})` : ''
}

/** The part of `url`'s path that `parent` does not have: `/v1` for `http://h/v1` under `http://h`. */
function extraPath(url: string, parent: string): string {
  return new URL(url).pathname.replace(/\/+$/, '').slice(new URL(parent).pathname.replace(/\/+$/, '').length)
}

class Probes {
  constructor(private readonly config: TargetConfig, private readonly timeoutMs: number) {}

  private clients(url: string) {
    return createClients({ ...this.config, timeoutMs: this.timeoutMs, baseUrl: url, gatewayUrl: url })
  }

  // The credentials go only where they were configured for: a URL the kit merely tries is asked
  // without them, and its route shows itself by refusing that (400, 401), as a missing route does not.

  /** POST /oauth/token at `url` with an empty body. */
  token(url: string, body: Record<string, unknown> = {}): Promise<Exchange> {
    return this.clients(url).base.requestToken(body)
  }

  /** GET /v1/account/balance at `url` without an API key. */
  balance(url: string): Promise<Exchange> {
    return this.clients(url).gateway.get('/v1/account/balance', { auth: 'none' })
  }

  /** Where the token endpoint answers instead, in words, or undefined: a parent of `url`, or `other` (the gateway URL). */
  async tokenNearby(url: string, other?: string): Promise<string | undefined> {
    for (const parent of parentUrls(url)) {
      const ex = await this.token(parent)
      if (tokenRoute(ex) === 'route') return `the path prefix ${extraPath(url, parent)} is extra: POST ${parent}/oauth/token answers ${answer(ex)} (PIX_BASE_URL=${parent})`
    }
    if (other && other !== url) {
      const ex = await this.token(other)
      if (tokenRoute(ex) === 'route') return `the token endpoint answers at PIX_GATEWAY_URL's address: POST ${other}/oauth/token answers ${answer(ex)} (is PIX_BASE_URL ${other}?)`
    }
    return undefined
  }

  /** Where the balance answers instead, in words, or undefined: a parent of `url`, or `other` (the base URL). */
  async balanceNearby(url: string, other?: string): Promise<string | undefined> {
    for (const parent of parentUrls(url)) {
      const ex = await this.balance(parent)
      if (balanceRoute(ex) === 'route') return `the path prefix ${extraPath(url, parent)} is extra: GET ${parent}/v1/account/balance answers ${answer(ex)} (PIX_GATEWAY_URL=${parent})`
    }
    if (other && other !== url) {
      const ex = await this.balance(other)
      if (balanceRoute(ex) === 'route') return `the gateway's routes answer at PIX_BASE_URL's address: GET ${other}/v1/account/balance answers ${answer(ex)} (is PIX_GATEWAY_URL ${other}?)`
    }
    return undefined
  }
}

/** A page where JSON was due (a web server's welcome or error page). */
function isPage(ex: Exchange): boolean {
  return !ex.response.jsonError && /^\s*</.test(ex.response.body)
}

function hasAccessToken(ex: Exchange): boolean {
  let json = ex.response.json
  if (json === undefined) {
    try {
      json = JSON.parse(ex.response.body) as unknown
    } catch {
      return false
    }
  }
  return typeof (json as { access_token?: unknown } | null)?.access_token === 'string'
}

export function answer(ex: Exchange): string {
  if (ex.response.error) return ex.response.error
  const type = ex.response.headers['content-type']?.split(';')[0]
  return `${ex.response.status}${type && type !== 'application/json' ? ` (${type})` : ''}`
}
