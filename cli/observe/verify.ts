// --verify-reads: read-only look-ups of the proxy's own, to judge agreement across surfaces the
// application's traffic does not reach (the single view of a transaction it only listed). Only GET
// requests of the interface, plus the token they need (POST /oauth/token: issues a credential,
// changes no record), with the --env account's credentials, at most --max-rps per second; only for
// records the application listed with that same account (another account's are not ours to read).
import type { ObservedExchange } from './exchanges.ts'

/** Ids waiting for a look-up; past this, new ones are dropped (the cap is the rule, not the backlog). */
const MAX_PENDING = 200

export interface OwnRequest {
  method: 'GET' | 'POST'
  path: string
  headers: Record<string, string>
  body?: string
}

export class ReadVerifier {
  private readonly pending: string[] = []
  private readonly asked = new Set<string>()
  private token: string | undefined
  private timer: NodeJS.Timeout | undefined
  private stopped = false
  /** Every request the verifier sent (method and path), for the report and the tests. */
  readonly sent: { method: string; path: string; at: number }[] = []

  constructor(
    private readonly credentials: { clientId: string; clientSecret: string },
    private readonly maxRps: number,
    /** Sends one request to the base API; the proxy records and judges its exchange like the application's. */
    private readonly send: (r: OwnRequest) => Promise<ObservedExchange | undefined>,
  ) {}

  /** An exchange of the application's, judged, with whose account it was: listings name records to look up. */
  saw(ex: ObservedExchange, account: string): void {
    if (this.stopped || ex.request.method !== 'GET' || ex.response.status !== 200 || account !== `client ${this.credentials.clientId}`) return
    const path = pathOf(ex.request.url)
    if (!/\/api\/transactions$|\/api\/pix\/transactions\/pix-key\/[^/]+$/.test(path)) return
    let body: unknown
    try {
      body = JSON.parse(ex.response.body)
    } catch {
      return
    }
    const items = (body as { data?: unknown })?.data
    if (!Array.isArray(items)) return
    for (const item of items) {
      const id = (item as { transactionId?: unknown })?.transactionId
      if ((typeof id !== 'string' && typeof id !== 'number') || this.asked.has(String(id)) || this.pending.length >= MAX_PENDING) continue
      this.asked.add(String(id))
      this.pending.push(String(id))
    }
    this.schedule()
  }

  stop(): void {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
  }

  /** One request at a time, each at least 1000/maxRps ms after the previous one started. */
  private schedule(): void {
    if (this.timer || this.stopped || this.pending.length === 0) return
    const last = this.sent.at(-1)?.at ?? 0
    const wait = Math.max(0, last + 1000 / this.maxRps - Date.now())
    this.timer = setTimeout(() => void this.next(), wait)
  }

  private async next(): Promise<void> {
    try {
      // the token request takes a slot of the cap like any other
      if (!this.token) return void (await this.login())
      const id = this.pending.shift()
      if (id === undefined || this.stopped) return
      const ex = await this.request({ method: 'GET', path: `/api/pix/transaction/${encodeURIComponent(id)}`, headers: { authorization: `Bearer ${this.token}`, accept: 'application/json' } })
      if (ex?.response.status === 401) this.token = undefined
    } finally {
      this.timer = undefined
      this.schedule()
    }
  }

  private async login(): Promise<boolean> {
    const ex = await this.request({ method: 'POST', path: '/oauth/token', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(this.credentials) })
    try {
      const token = JSON.parse(ex?.response.body ?? '').access_token
      if (typeof token === 'string') this.token = token
    } catch {
      // no token: the look-ups stop (the exchange is judged like any other)
    }
    if (!this.token) this.stop()
    return this.token !== undefined
  }

  private request(r: OwnRequest): Promise<ObservedExchange | undefined> {
    this.sent.push({ method: r.method, path: r.path, at: Date.now() })
    return this.send(r)
  }
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname
  } catch {
    return url.split('?')[0] ?? url
  }
}
