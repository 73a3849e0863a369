// Faults of meaning (issue 40): answers of the right form that say the wrong thing, and inputs the
// kit did not send. Each is a plausible bug of a real provider: an amount with float noise, a page
// one item short, a cap applied before the filters, a time in Brasilia's zone once the clock moved,
// an id of the key instead of the account, a blocked amount released twice, an expiry in
// milliseconds, a scope that says nothing, a secret matched on its start, a rate limit that skips unknown ids, a notification sent
// to two destinations, a txid reused after its charge ended, an API key matched on its start, a
// REFUND notification listing the returns as they were before the last one.
import { createHash, randomUUID } from 'node:crypto'
import { defineFault, jsonObjectOf, jsonResponse, matches, type ProxyRequest, type ProxyResponse } from '../fault.ts'

const isAccountListing = (req: ProxyRequest) => matches(req, 'GET', '/api/transactions', 'base')
const PIX_KEY_LISTING = /^\/api\/pix\/transactions\/pix-key\/[^/]+$/
const isPixKeyListing = (req: ProxyRequest) => matches(req, 'GET', PIX_KEY_LISTING, 'base')
const isControl = (req: ProxyRequest, method: string, path: string | RegExp) => matches(req, method, path, 'control')
const isReset = (req: ProxyRequest) => isControl(req, 'POST', '/control/reset')

/** The next double above `x`: 10.1 → 10.100000000000001, what summing floats leaves behind. */
function nextUp(x: number): number {
  const f = new Float64Array([x])
  const i = new BigInt64Array(f.buffer)
  i[0] = i[0]! + (x >= 0 ? 1n : -1n)
  return f[0]!
}

function listItems(res: ProxyResponse): Record<string, any>[] {
  const data = jsonObjectOf(res)?.data
  return Array.isArray(data) ? data.filter((i) => i !== null && typeof i === 'object') : []
}

/** `2026-11-29T12:00:00.000Z` → `2026-11-29T09:00:00.000-03:00`: the same instant, in Brasilia's zone. */
function inBrasilia(iso: string): string {
  const ms = Date.parse(iso)
  if (Number.isNaN(ms)) return iso
  return new Date(ms - 3 * 3_600_000).toISOString().replace(/Z$/, '-03:00')
}

const RESEND = /^\/pix\/v[12]\/webhooks\/resend\/([^/]+)$/

/** Ids a gateway answer or a control answer named: the records the target knows of. */
function collectIds(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') into.add(value)
  else if (Array.isArray(value)) for (const v of value) collectIds(v, into)
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) collectIds(v, into)
}

export default [
  defineFault({
    id: 'mn-listing-amount-float-noise',
    area: 'transactions',
    clauses: ['2.2.original-amount'],
    description: 'the account listing serves originalAmount as the float its sum left (10.100000000000001) instead of a number of two decimals',
    onResponse(req, res) {
      if (!isAccountListing(req) || res.status !== 200) return undefined
      for (const item of listItems(res)) {
        if (typeof item.originalAmount === 'number' && !Number.isInteger(item.originalAmount)) item.originalAmount = nextUp(item.originalAmount)
      }
      return res
    },
  }),

  defineFault({
    id: 'mn-listing-size-100-serves-99',
    area: 'transactions',
    clauses: ['4.4.size-served'],
    description: 'GET /api/transactions?size=100 serves 99 items on a page that is not the last (an off-by-one at the maximum size)',
    onResponse(req, res) {
      if (!isAccountListing(req) || res.status !== 200 || req.query.get('size') !== '100') return undefined
      const body = jsonObjectOf(res)
      if (Array.isArray(body?.data) && body.data.length === 100) body.data.pop()
      return res
    },
  }),

  (() => {
    // The target takes the key's first 1000 records of the window, then filters them by status and type.
    const asked = new WeakMap<ProxyRequest, URLSearchParams>()
    return defineFault({
      id: 'mn-pix-key-cap-before-filters',
      area: 'transactions',
      clauses: ['4.5.cap-after-filters'],
      description: 'the pix-key listing applies its 1000 cap to the records of the window before the status and type filters, so matches beyond the 1000th are never found',
      onRequest(req) {
        if (!isPixKeyListing(req) || (!req.query.has('status') && !req.query.has('type'))) return undefined
        const original = new URLSearchParams(req.query)
        const query = new URLSearchParams(req.query)
        query.delete('status')
        query.delete('type')
        query.set('page', '1')
        query.set('size', '1000')
        const changed = { ...req, query }
        asked.set(changed, original)
        return changed
      },
      onResponse(req, res) {
        const original = asked.get(req)
        if (!original || res.status !== 200) return undefined
        const status = original.get('status')
        const type = original.get('type')
        const statusWord: Record<string, string> = { PENDING: 'Pendente', CONFIRMED: 'Confirmado', ERROR: 'Error' }
        const typeWord: Record<string, string> = { PAYMENT: 'Pix in', WITHDRAW: 'Pix out', REFUND_IN: 'Refund in', REFUND_OUT: 'Refund out' }
        const matching = listItems(res).filter((i) => (!status || i.status === statusWord[status]) && (!type || i.operationType === typeWord[type]))
        const page = Math.max(1, Number(original.get('page') ?? '1') || 1)
        const size = Math.max(1, Number(original.get('size') ?? '20') || 20)
        const totalPages = Math.ceil(matching.length / size)
        return jsonResponse(200, {
          data: matching.slice((page - 1) * size, page * size),
          metadata: { page, size, total: matching.length, totalPages, hasNext: page < totalPages, hasPrevious: page > 1 },
        })
      },
    })
  })(),

  (() => {
    let moved = false
    return defineFault({
      id: 'mn-bcb-time-brasilia-once-clock-moved',
      area: 'conventions',
      clauses: ['0.timestamps-utc'],
      description: "once the sandbox clock has moved, the central-bank-style surface renders its times in Brasilia's zone (-03:00): balances eventDate and the charge's calendario.criacao",
      onRequest(req) {
        if (isControl(req, 'POST', '/control/clock/advance')) moved = true
        if (isReset(req)) moved = false
        return undefined
      },
      onResponse(req, res) {
        if (!moved || res.status < 200 || res.status > 299 || req.api !== 'base') return undefined
        const body = jsonObjectOf(res)
        if (matches(req, 'GET', '/accounts/balances') && Array.isArray(body?.data)) {
          for (const item of body.data) if (typeof item?.eventDate === 'string') item.eventDate = inBrasilia(item.eventDate)
          return res
        }
        if (matches(req, 'PUT', /^\/cob\/[^/]+$/) && typeof body?.calendario?.criacao === 'string') {
          body.calendario.criacao = inBrasilia(body.calendario.criacao)
          return res
        }
        return undefined
      },
    })
  })(),

  defineFault({
    id: 'mn-gateway-balance-id-of-the-key',
    area: 'balance',
    clauses: ['2.3.gateway-id'],
    description: "the gateway balance's id names the API key that asked (a digest of it), not the account",
    readings: { limitedBalance: 'allowed' },
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (!matches(req, 'GET', '/v1/account/balance', 'gateway') || res.status !== 200 || !body) return undefined
      body.id = `key_${createHash('sha256').update(req.headers['x-api-key'] ?? '').digest('hex').slice(0, 24)}`
      return res
    },
  }),

  (() => {
    // Refunds the target knows of (gateway refunds by the id it answered, returns by e2eid/id), and
    // what their settlement released a second time: taken off blocked again (the counter may go
    // below what other operations hold, or below zero) and given back to available.
    const refundCents = new Map<string, number>()
    let releasedTwiceCents = 0
    return defineFault({
      id: 'mn-refund-settle-releases-blocked-twice',
      area: 'model',
      clauses: ['3.6.confirm-releases-blocked'],
      description: 'when a refund settles, its blocked amount is released twice: subtracted from blocked a second time and given back to available',
      onResponse(req, res) {
        if (isReset(req) || isControl(req, 'POST', /^\/control\/accounts\/[^/]+\/reset$/)) {
          releasedTwiceCents = 0
          return undefined
        }
        const body = jsonObjectOf(res)
        if (matches(req, 'POST', /^\/pix\/v2\/payment\/refund\/[^/]+$/, 'gateway') && res.status < 300 && typeof body?.transactionId === 'string' && typeof req.json?.value === 'number') {
          refundCents.set(body.transactionId, Math.round(req.json.value * 100))
          return undefined
        }
        const ret = /^\/pix\/([^/]+)\/devolucao\/([^/]+)$/.exec(req.path)
        if (ret && req.api === 'base' && req.method === 'PUT' && res.status < 300 && typeof req.json?.valor === 'string') {
          refundCents.set(`${ret[1]}/${ret[2]}`, Math.round(Number(req.json.valor) * 100))
          return undefined
        }
        const settled = /^\/control\/transactions\/([^/]+)\/settle$/.exec(req.path) ?? /^\/control\/returns\/([^/]+\/[^/]+)\/settle$/.exec(req.path)
        if (settled && req.api === 'control' && res.status < 300) {
          releasedTwiceCents += refundCents.get(settled[1]!) ?? 0
          return undefined
        }
        if (releasedTwiceCents === 0 || res.status !== 200 || !body) return undefined
        const twice = releasedTwiceCents
        if (matches(req, 'GET', '/api/balance', 'base') && typeof body.blockedBalance === 'number' && typeof body.netBalance === 'number') {
          body.blockedBalance = (Math.round(body.blockedBalance * 100) - twice) / 100
          body.netBalance = (Math.round(body.netBalance * 100) + twice) / 100
          return res
        }
        if (matches(req, 'GET', '/accounts/balances', 'base') && Array.isArray(body.data)) {
          for (const item of body.data) {
            const amount = item?.balanceAmount
            if (typeof amount?.blocked !== 'number' || typeof amount.available !== 'number') continue
            amount.blocked = (Math.round(amount.blocked * 100) - twice) / 100
            amount.available = (Math.round(amount.available * 100) + twice) / 100
          }
          return res
        }
        if (matches(req, 'GET', '/v1/account/balance', 'gateway') && typeof body.blockedBalance === 'number' && typeof body.availableBalance === 'number') {
          body.blockedBalance = (Math.round(body.blockedBalance * 100) - twice) / 100
          body.availableBalance = (Math.round(body.availableBalance * 100) + twice) / 100
          return res
        }
        return undefined
      },
    })
  })(),

  defineFault({
    id: 'mn-cash-in-expiration-in-milliseconds',
    area: 'cash',
    clauses: ['4.6.expiration-date-from-expiration-time'],
    description: 'the cash-in expirationDate adds transaction.expirationTime as milliseconds, not seconds',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      const seconds = req.json?.transaction?.expirationTime
      if (!matches(req, 'POST', '/api/pix/cash-in', 'base') || res.status >= 300 || typeof body?.generateTime !== 'string' || typeof seconds !== 'number') return undefined
      body.expirationDate = new Date(Date.parse(body.generateTime) + seconds).toISOString()
      return res
    },
  }),

  defineFault({
    id: 'mn-oauth-scope-the-same-for-every-client',
    area: 'auth',
    clauses: ['4.2.scope-of-the-client'],
    description: "POST /oauth/token answers every client the same scope (every permission the service has), whatever that client may do",
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (!matches(req, 'POST', '/oauth/token', 'base') || res.status !== 200 || typeof body?.scope !== 'string') return undefined
      body.scope = 'pix:read pix:write balance:read webhook:read webhook:write'
      return res
    },
  }),

  (() => {
    // The target looks the transaction up before counting the request: an unknown id answers 404
    // without reaching the limiter. Known ids: every string a gateway, base or control answer named.
    const known = new Set<string>()
    return defineFault({
      id: 'mn-resend-rate-limit-skips-unknown-ids',
      area: 'rate-limits',
      clauses: ['8.resend-rate'],
      description: 'the resend rate limit counts only requests for transactions that exist: requests for unknown ids are answered 404 and never counted',
      onRequest(req) {
        const m = RESEND.exec(req.path)
        if (req.api !== 'gateway' || req.method !== 'POST' || !m) return undefined
        const id = decodeURIComponent(m[1]!)
        if (known.has(id) || !/^[0-9a-f-]{24,36}$/i.test(id)) return undefined
        return jsonResponse(404, { statusCode: 404, message: `transaction ${id} not found`, error: 'Not Found', code: 'TRANSACTION_NOT_FOUND' })
      },
      onResponse(_req, res) {
        collectIds(jsonObjectOf(res) ?? res.json, known)
        return undefined
      },
    })
  })(),

  (() => {
    // The target posts a resend to the body url and to the account's URL too: the account's URLs
    // are learnt from the requests that set them (gateway and control), the body urls from the resends.
    let accountUrl: string | undefined
    const bodyUrls = new Set<string>()
    return defineFault({
      id: 'mn-resend-body-url-and-account-url-both-used',
      area: 'webhooks',
      clauses: ['4.12.destination-body-url'],
      description: "a resend with a body url delivers to the body url and also to the account's URL (both receive the notification)",
      onRequest(req) {
        const urls = jsonObjectOf(req)
        if (matches(req, 'POST', '/v1/account/webhook', 'gateway') && typeof urls?.pixWebhookUrl === 'string') accountUrl = urls.pixWebhookUrl
        if (isControl(req, 'POST', /^\/control\/accounts\/[^/]+\/webhook-urls$/) && urls) {
          const set = [urls.pixWebhookUrl, urls.webhookUrl].find((u) => typeof u === 'string')
          if (set !== undefined || urls.pixWebhookUrl === null) accountUrl = typeof set === 'string' ? set : undefined
        }
        if (req.api === 'gateway' && req.method === 'POST' && RESEND.test(req.path) && typeof urls?.url === 'string') bodyUrls.add(urls.url)
        return undefined
      },
      onWebhook(d) {
        if (!bodyUrls.has(d.url) || accountUrl === undefined || accountUrl === d.url || typeof jsonObjectOf(d)?.transactionId !== 'string') return d
        return [d, { ...d, url: accountUrl }]
      },
    })
  })(),

  (() => {
    const final = new Set<string>()
    return defineFault({
      id: 'mn-cob-txid-reused-after-final',
      area: 'charges',
      clauses: ['7.create-charge-duplicate-txid-409'],
      description: 'PUT /cob/{txid} with the txid of a charge that reached a final state (paid, removed) creates a new charge instead of answering 409',
      onRequest(req) {
        const m = /^\/control\/cob\/([^/]+)\/(pay|remove)$/.exec(req.path)
        if (req.api === 'control' && req.method === 'POST' && m) final.add(decodeURIComponent(m[1]!))
        if (isReset(req)) final.clear()
        const put = /^\/cob\/([^/]+)$/.exec(req.path)
        if (!put || req.api !== 'base' || req.method !== 'PUT' || !final.has(decodeURIComponent(put[1]!))) return undefined
        const body = jsonObjectOf(req) ?? {}
        const txid = decodeURIComponent(put[1]!)
        const location = `pix.example.com/qr/v2/${randomUUID().replace(/-/g, '')}`
        return jsonResponse(201, {
          ...body,
          calendario: { expiracao: 86_400, ...(body.calendario ?? {}), criacao: new Date().toISOString() },
          txid,
          revisao: 0,
          loc: { id: Math.floor(Math.random() * 1e6), location, tipoCob: 'cob' },
          location,
          status: 'ATIVA',
          valor: { modalidadeAlteracao: 0, ...(body.valor ?? {}) },
        })
      },
    })
  })(),

  (() => {
    // The key compared on its first 8 characters: any key of the same start is the known key.
    const good = new Set<string>()
    return defineFault({
      id: 'mn-api-key-matched-on-its-start',
      area: 'auth',
      clauses: ['5.api-key-invalid-401'],
      description: 'the gateway matches x-api-key on its first 8 characters: a different key with the same start, or the key one character longer, shorter or changed at the end, is accepted',
      onRequest(req) {
        const key = req.headers['x-api-key']
        if (req.api !== 'gateway' || !key || good.has(key)) return undefined
        const same = [...good].find((k) => k.slice(0, 8) === key.slice(0, 8))
        return same ? { ...req, headers: { ...req.headers, 'x-api-key': same } } : undefined
      },
      onResponse(req, res) {
        const key = req.headers['x-api-key']
        if (req.api === 'gateway' && key && res.status >= 200 && res.status < 300) good.add(key)
        return undefined
      },
    })
  })(),

  (() => {
    // Both token endpoints compare clientSecret on its first 8 characters: a secret of the same start is the client's.
    const good = new Map<string, string>() // clientId -> a secret that got a token
    const tokenPaths = ['/oauth/token', '/api/auth/token']
    return defineFault({
      id: 'mn-client-secret-matched-on-its-start',
      area: 'auth',
      clauses: ['4.2.wrong-secret-refused', '7.cert-token-bad-credentials-401'],
      description: "the token endpoints match clientSecret on its first 8 characters: the secret one character longer, shorter or changed at the end gets a token",
      onRequest(req) {
        const body = jsonObjectOf(req)
        if (req.api !== 'base' || req.method !== 'POST' || !tokenPaths.includes(req.path) || typeof body?.clientId !== 'string' || typeof body.clientSecret !== 'string') return undefined
        const secret = good.get(body.clientId)
        if (!secret || secret === body.clientSecret || secret.slice(0, 8) !== body.clientSecret.slice(0, 8)) return undefined
        return { ...req, json: { ...body, clientSecret: secret } }
      },
      onResponse(req, res) {
        const body = jsonObjectOf(req)
        if (req.api === 'base' && tokenPaths.includes(req.path) && res.status < 300 && typeof body?.clientId === 'string' && typeof body.clientSecret === 'string') good.set(body.clientId, body.clientSecret)
        return undefined
      },
    })
  })(),

  (() => {
    // The REFUND notification's refunds[] comes from a cache of the payment's returns filled at its first REFUND.
    const cached = new Map<string, unknown>()
    return defineFault({
      id: 'mn-refund-notification-items-stale',
      area: 'returns',
      clauses: ['6.2.refund-items'],
      description: "a REFUND notification's refunds[] lists the payment's returns as they were at its first REFUND, without the return just settled",
      onWebhook(d) {
        const body = jsonObjectOf(d)
        const data = body?.data
        if (body?.type !== 'REFUND' || !data || typeof data.endToEndId !== 'string' || !Array.isArray(data.refunds)) return d
        if (cached.has(data.endToEndId)) data.refunds = structuredClone(cached.get(data.endToEndId))
        else cached.set(data.endToEndId, structuredClone(data.refunds))
        return d
      },
    })
  })(),
]
