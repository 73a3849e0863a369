// The second outsider batch (issue 40 item 6): plausible bugs of a real provider of the interface,
// written from the interface, the clause catalogue and the reference's answers alone, without the
// suites or the other faults in view. Each is a proxy rewrite between the kit and the reference.
// Grouped per area; faults/index.ts spreads each group. Where a fault keeps state, it is keyed by
// something unique to one check (a txid, an e2e id, a record's id with its creation time) or lives
// a few seconds of real time, since the target is reset between checks without the proxy seeing it.
// The file is long because it holds the batch's 77 faults, one small definition or table row each, kept
// together as the batch was written; moving each group into its faults/<area>.ts would shorten it.
import { jsonObjectOf, jsonResponse, matches, type Fault, type ProxyRequest, type WebhookDelivery } from '../../fault.ts'
import { asFirstAccount, noteFirstAccount, swapped } from './isolation.ts'
import {
  COB,
  PIX_KEY_LISTING,
  RETURN,
  TX_VIEW,
  isAccountListing,
  isListing,
  isPixKeyListing,
  isSlipNote,
  isV1,
  isV2,
  listItems,
  localAsUtc,
  ob,
  okAnswerOf,
  refuse,
  type Obj,
} from './outsider.ts'
import { itemFaults, okAnswerFaults, rewriteItems, rewriteOk } from './rewrites.ts'

// ── helpers of this batch ───────────────────────────────────────────────────────────────────

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const DAY_MS = 86_400_000

/** `2026-11-29T07:32:37.505Z` → `2026-11-29 07:32:37`: a SQL DATETIME printed as it came from the driver. */
const sqlDateTime = (iso: unknown) => (typeof iso === 'string' && !Number.isNaN(Date.parse(iso)) ? new Date(iso).toISOString().slice(0, 19).replace('T', ' ') : iso)
/** Epoch milliseconds of an ISO time. */
const epochMs = (iso: unknown) => (typeof iso === 'string' && !Number.isNaN(Date.parse(iso)) ? Date.parse(iso) : iso)
/** The date part only. */
const dateOnly = (iso: unknown) => (typeof iso === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(iso) ? iso.slice(0, 10) : iso)
/** `29/11/2026 04:32:46`: the Brazilian wall-clock rendering of an instant. */
const brazilianWallClock = (iso: unknown) => {
  if (typeof iso !== 'string' || Number.isNaN(Date.parse(iso))) return iso
  const d = new Date(Date.parse(iso) - 3 * 3_600_000).toISOString()
  return `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)} ${d.slice(11, 19)}`
}
const toNumberIfDigits = (v: unknown) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v)
const reais = (n: number) => Math.round(n * 100) / 100
const dataOf = (d: WebhookDelivery): Obj | undefined => jsonObjectOf({ json: jsonObjectOf(d)?.data })
const isCobPut = (req: ProxyRequest) => matches(req, 'PUT', COB, 'base')
const isReturnPut = (req: ProxyRequest) => matches(req, 'PUT', RETURN, 'base')
const returnPath = (req: ProxyRequest) => /^\/pix\/([^/]+)\/devolucao\/([^/]+)$/.exec(req.path)
const txidOf = (path: string) => /^\/(?:control\/)?cob\/([^/]+)/.exec(path)?.[1]
const isControlPost = (req: ProxyRequest, path: RegExp) => matches(req, 'POST', path, 'control')
/** A list item's identity across resets: its id with its creation time. */
const itemKey = (i: Obj) => `${String(i.transactionId)}|${String(i.createdAt)}`
/** What a webhook URL says of its check: the capture path up to its channel names (…/hooks/<check>-<name>[-<name>…]). */
const checkOfUrl = (url: string) => url.replace(/(\/hooks\/[^/-]+)-[^/]*$/, '$1')

// State of the stateful faults.
const endedCharges = new Map<string, Obj>()
const firstCobAnswers = new Map<string, Obj>()
const failedTransactions = new Map<string, number>()
const failedReturnsOf = new Map<string, number>()
const pixKeyListingFirstSeen = new Map<string, { status: unknown; at: number }>()
const publicBalanceCache = new Map<string, { json: unknown; at: number }>()
const gatewayConsultedCache = new Map<string, { consultedAt: unknown; at: number }>()
const slipCreatedAt = new Map<string, string>()
const firstWebhookSetting = new Map<string, { check: string; url: string }>()
const balanceCallsPerAccount = new Map<string, number[]>()
/** The target clock's lead over the host's, from the clock moves the kit asked for (the window rolls on the target clock). */
const balanceClock = { offsetMs: 0 }

// ── transactions (single view §2.1, listings §2.2, §4.3–4.5) ──────────────────────────────────────

const transactions: Fault[] = [
  ...okAnswerFaults({ area: 'transactions' }, [
    ['ob2-view-bank-code-as-number', ['2.1.counterpart-bank-code'], 'getTransaction', 'the view serialises counterpartAccountBankCode from an integer column: 260 instead of "260" (and "001" would lose its zeros)', (b) => { b.counterpartAccountBankCode = toNumberIfDigits(b.counterpartAccountBankCode) }],
    ['ob2-view-branch-as-number', ['2.1.counterpart-branch'], 'getTransaction', 'the view parses the branch as a number: counterpartAccountBranch 1 instead of "0001"', (b) => { b.counterpartAccountBranch = toNumberIfDigits(b.counterpartAccountBranch) }],
    ['ob2-view-account-number-digits-number', ['2.1.counterpart-account-number'], 'getTransaction', 'the view strips the check-digit dash and sends the account number as a JSON number (45678909)', (b) => { if (typeof b.counterpartAccountNumber === 'string') b.counterpartAccountNumber = Number(b.counterpartAccountNumber.replace(/\D/g, '')) || b.counterpartAccountNumber }],
    ['ob2-view-bank-name-relation-object', ['2.1.counterpart-bank-name'], 'getTransaction', 'the ORM eager-loads the bank relation into counterpartAccountBankName: {code, name} instead of the name string', (b) => { if (typeof b.counterpartAccountBankName === 'string') b.counterpartAccountBankName = { code: b.counterpartAccountBankCode, name: b.counterpartAccountBankName } }],
    ['ob2-view-created-at-sql-datetime', ['2.1.created-at'], 'getTransaction', 'the view prints createdAt as the database driver gives it: "2026-11-29 07:32:37" (no T, no zone)', (b) => { b.createdAt = sqlDateTime(b.createdAt) }],
  ]),
  rewriteOk('getTransaction', (b) => { if (b.processedAt === null || b.processedAt === undefined) b.processedAt = '' }, {
    id: 'ob2-view-processed-at-empty-string', area: 'transactions', clauses: ['2.1.processed-at'],
    description: 'an unprocessed transaction shows processedAt "" (an empty string) instead of null or no field',
  }),
  rewriteOk('getTransaction', (b) => { if (b.type === 'WITHDRAW') b.externalId = null }, {
    id: 'ob2-view-external-id-null-for-cash-out', area: 'transactions', clauses: ['2.1.external-id'],
    description: 'the cash-out externalId is stored in another column the view does not read: a WITHDRAW shows externalId null',
  }),
  rewriteOk('getTransaction', (b) => { if (typeof b.createdAt === 'string') b.updatedAt = b.createdAt }, {
    id: 'ob2-view-updated-at-not-touched', area: 'transactions', clauses: ['2.1.updated-at'],
    description: 'status changes are written by a raw UPDATE that does not touch updatedAt: a settled or failed transaction keeps updatedAt = createdAt',
  }),
  ...itemFaults(isListing, { area: 'transactions' }, [
    ['ob2-listing-operation-type-title-case', ['2.2.operation-type-enum', '2.2.type-map-payment', '2.2.type-map-withdraw'], 'the listing capitalises every word of operationType: "Pix In", "Pix Out", "Refund In", "Refund Out"', (i) => { if (typeof i.operationType === 'string') i.operationType = i.operationType.replace(/ (\w)/, (_m, c: string) => ` ${c.toUpperCase()}`) }],
    ['ob2-listing-created-at-epoch-ms', ['2.2.created-at'], 'the listing sends createdAt as epoch milliseconds (a number), as its cache layer stores dates', (i) => { i.createdAt = epochMs(i.createdAt) }],
    ['ob2-listing-processed-at-date-only', ['2.2.processed-at'], 'processedAt in the listing comes from a DATE column: "2026-11-29" without the time', (i) => { i.processedAt = dateOnly(i.processedAt) }],
    ['ob2-listing-counterpart-name-null', ['2.2.counterpart-name'], 'a counterpart without a registered name is listed with counterpart.name null (the view of the same record has its name); here every name is dropped to null', (i) => { if (i.counterpart && typeof i.counterpart === 'object') i.counterpart.name = null }],
  ]),
  ob({
    id: 'ob2-listing-bank-codes-as-numbers', area: 'transactions', clauses: ['2.2.counterpart-bank'],
    description: 'counterpart.bank.bankCode and accountBranch are numbers in the listing (260, 1): numeric columns serialised as they are',
    onResponse(req, res) {
      if (!isAccountListing(req) && !isPixKeyListing(req)) return
      for (const i of listItems(res)) {
        const bank = i.counterpart?.bank
        if (bank && typeof bank === 'object') {
          bank.bankCode = toNumberIfDigits(bank.bankCode)
          bank.accountBranch = toNumberIfDigits(bank.accountBranch)
        }
      }
    },
  }),
  rewriteItems(isListing, (i) => { if (typeof i.originalAmount === 'number' && typeof i.feeAmount === 'number' && i.feeAmount !== 0) i.finalAmount = i.originalAmount }, {
    id: 'ob2-listing-final-amount-ignores-fee', area: 'transactions', clauses: ['2.2.final-amount'],
    description: 'the listing copies originalAmount into finalAmount (the fee is applied only in the single view)',
  }),
  ob({
    id: 'ob2-account-listing-total-counts-all-accounts', area: 'transactions', clauses: ['2.2.pagination-total', '2.2.pagination-total-pages', '1.own-account-transactions'],
    description: 'the COUNT query of the account listing lacks the account filter: total (and totalPages, hasNext) count 7 records of other accounts',
    onResponse(req, res) {
      if (!isAccountListing(req) || res.status !== 200) return
      const m = jsonObjectOf(res)?.metadata
      if (!m || typeof m.total !== 'number' || typeof m.size !== 'number' || m.size <= 0) return
      m.total += 7
      m.totalPages = Math.ceil(m.total / m.size)
      if (typeof m.page === 'number') m.hasNext = m.page < m.totalPages
    },
  }),
  ob({
    id: 'ob2-account-listing-e2e-filter-else-if', area: 'transactions', clauses: ['4.4.end-to-end-id-filter'],
    description: 'the filters are an if/else-if chain: when status or type is given too, endToEndId is ignored',
    onRequest(req) {
      if (!isAccountListing(req)) return
      const q = req.query
      if (q.has('endToEndId') && (q.has('status') || q.has('type') || q.has('externalId'))) {
        q.delete('endToEndId')
        return req
      }
    },
  }),
  ob({
    id: 'ob2-account-listing-31-day-interval-refused', area: 'transactions', clauses: ['4.4.interval-max-31'],
    description: 'the interval rule is written `days >= 31`: a startDate/endDate pair exactly 31 days apart is refused with 400',
    onRequest(req) {
      if (!isAccountListing(req)) return
      const s = req.query.get('startDate')
      const e = req.query.get('endDate')
      if (!s || !e) return
      const days = Math.round((Date.parse(e.slice(0, 10)) - Date.parse(s.slice(0, 10))) / DAY_MS)
      if (days === 31) return refuse(400, 'date interval must not exceed 31 days')
    },
  }),
  ob({
    id: 'ob2-pix-key-listing-size-capped-at-100', area: 'transactions', clauses: ['4.5.size-range'],
    description: 'the pix-key listing reuses the account listing validator: size above 100 (up to 1000 allowed) is refused with 400',
    onRequest(req) {
      if (!isPixKeyListing(req)) return
      const size = Number(req.query.get('size'))
      if (Number.isInteger(size) && size > 100 && size <= 1000) return refuse(400, 'size must not be greater than 100')
    },
  }),
  ob({
    id: 'ob2-pix-key-listing-default-31-days', area: 'transactions', clauses: ['4.5.start-date-default'],
    description: 'the pix-key listing copies the account listing default: without startDate it goes 31 days back instead of 30',
    onRequest(req) {
      if (!isPixKeyListing(req) || req.query.has('startDate')) return
      req.query.set('startDate', new Date(Date.now() - 31 * DAY_MS).toISOString().slice(0, 10))
      return req
    },
  }),
]

// ── balance (§2.3, §4.8, §4.9, §4.13) ──────────────────────────────────────────────────────────

const balance: Fault[] = [
  ...okAnswerFaults({ area: 'balance' }, [
    ['ob2-public-blocked-balance-decimal-string', ['2.3.public-blocked-balance'], 'getBalance', 'the public balance serialises blockedBalance from a Decimal column as a string ("0.00")', (b) => { if (typeof b.blockedBalance === 'number') b.blockedBalance = b.blockedBalance.toFixed(2) }],
    ['ob2-bcb-balance-data-not-array', ['2.3.bcb-data-array'], 'getAccountBalances', 'with a single balance the central-bank-style answer sends data as that object, not an array of one', (b) => { if (Array.isArray(b.data) && b.data.length === 1) b.data = b.data[0] }],
    ['ob2-bcb-balance-event-date-date-only', ['2.3.bcb-event-date'], 'getAccountBalances', 'eventDate is the balance date ("2026-11-29"), not the date-time of the query', (b) => { if (Array.isArray(b.data)) for (const i of b.data) if (i && typeof i === 'object') i.eventDate = dateOnly(i.eventDate) }],
    ['ob2-bcb-balance-available-string', ['2.3.bcb-available'], 'getAccountBalances', 'the central-bank-style balance writes available as a decimal string ("10012.22"), the way other central-bank APIs write amounts', (b) => { if (Array.isArray(b.data)) for (const i of b.data) if (typeof i?.balanceAmount?.available === 'number') i.balanceAmount.available = i.balanceAmount.available.toFixed(2) }],
    ['ob2-bcb-balance-blocked-null-when-zero', ['2.3.bcb-blocked'], 'getAccountBalances', 'an account with nothing blocked gets blocked null (no row in the blocks table) instead of 0', (b) => { if (Array.isArray(b.data)) for (const i of b.data) if (i?.balanceAmount?.blocked === 0) i.balanceAmount.blocked = null }],
  ]),
  ob({
    id: 'ob2-bcb-balance-requires-date-param', area: 'balance', clauses: ['4.9.status-200'],
    description: 'GET /accounts/balances without a query parameter is refused 400 "dataHora is required" (the provider made the reference date mandatory)',
    onRequest(req) {
      if (matches(req, 'GET', '/accounts/balances', 'base') && [...req.query.keys()].length === 0 && req.headers.authorization) return refuse(400, 'dataHora is required')
    },
  }),
  rewriteOk('getBalance', (b) => { if (typeof b.consultedAt === 'string') b.consultedAt = localAsUtc(b.consultedAt) }, {
    id: 'ob2-public-consulted-at-local-as-utc', area: 'balance', clauses: ['2.3.consulted-at-is-event-date', '2.3.public-consulted-at'],
    description: 'the public balance stamps consultedAt with São Paulo wall time labelled Z: three hours before the query',
  }),
  rewriteOk('getGatewayBalance', (b, req) => {
    const key = req.headers['x-api-key'] ?? ''
    const hit = gatewayConsultedCache.get(key)
    if (hit && Date.now() - hit.at < 60_000) b.consultedAt = hit.consultedAt
    else gatewayConsultedCache.set(key, { consultedAt: b.consultedAt, at: Date.now() })
  }, {
    id: 'ob2-gateway-consulted-at-of-cache-fill', area: 'balance', clauses: ['2.3.gateway-consulted-at'],
    description: 'the gateway balance is cached for 60 s per key and consultedAt is the time the cache was filled, not of this query (the amounts are read live)',
  }),
  ob({
    id: 'ob2-public-balance-cached-per-token', area: 'balance', clauses: ['1.balance-shapes-one-balance', '2.3.net-equals-available', '3.6.accept-moves-to-blocked', '3.6.incoming-raises-available'],
    description: 'the public balance is cached 15 s per bearer token: after a payment or a cash-out the same token reads the old balance while the other shapes moved',
    onResponse(req, res) {
      if (!okAnswerOf(req, res, 'getBalance')) return
      const key = req.headers.authorization ?? ''
      const hit = publicBalanceCache.get(key)
      if (hit && Date.now() - hit.at < 15_000) return jsonResponse(200, { ...(hit.json as Obj), consultedAt: (res.json as Obj).consultedAt })
      publicBalanceCache.set(key, { json: res.json, at: Date.now() })
    },
  }),
]

// ── cash (§4.6, §4.7) ─────────────────────────────────────────────────────────────────────────

const cash: Fault[] = [
  rewriteOk('createCashOutQrCode', (b) => { if (typeof b.generateTime === 'string') b.generateTime = localAsUtc(b.generateTime) }, {
    id: 'ob2-cash-out-generate-time-local-as-utc', area: 'cash', clauses: ['4.7.generate-time'],
    description: 'the cash-out answer stamps generateTime with São Paulo wall time labelled Z (three hours early)',
  }),
  rewriteOk('createCashIn', (b) => {
    if (typeof b.generateTime !== 'string' || typeof b.expirationDate !== 'string') return
    const span = Date.parse(b.expirationDate) - Date.parse(b.generateTime)
    const now = Date.now()
    b.generateTime = new Date(now).toISOString()
    if (Number.isFinite(span)) b.expirationDate = new Date(now + span).toISOString()
  }, {
    id: 'ob2-cash-in-times-on-host-clock', area: 'cash', clauses: ['4.6.generate-time'],
    description: 'the cash-in service stamps generateTime (and expirationDate from it) with its own host clock, not the platform clock the other services use: equal until the clock moves',
  }),
  rewriteOk('createCashIn', (b, req) => {
    const seconds = jsonObjectOf(req)?.transaction?.expirationTime
    if (typeof b.generateTime !== 'string' || typeof seconds !== 'number') return
    b.expirationDate = new Date(Date.parse(b.generateTime) + seconds * 60_000).toISOString()
  }, {
    id: 'ob2-cash-in-expiration-time-in-minutes', area: 'cash', clauses: ['4.6.expiration-date-from-expiration-time'],
    description: 'transaction.expirationTime is read as minutes: expirationDate = generateTime + expirationTime × 60 s',
  }),
  rewriteOk('createCashIn', (b) => { if (typeof b.qrCodeImage === 'string') b.qrCodeImage = b.qrCodeImage.replace(/^data:[^,]*,/, '') }, {
    id: 'ob2-cash-in-qr-image-raw-base64', area: 'cash', clauses: ['4.6.qr-image-when-requested'],
    description: 'qrCodeImage is the bare base64 of the PNG, without the data:image/png;base64, prefix',
  }),
  ob({
    id: 'ob2-cash-out-requires-recipient-fields', area: 'cash', clauses: ['4.7.optional-fields'],
    description: 'the cash-out validator marks name and document required: a payment from a QR code alone is refused with 400',
    onRequest(req) {
      if (!matches(req, 'POST', '/api/pix/cash-out-qrcode', 'base')) return
      const b = jsonObjectOf(req)
      if (b && (typeof b.name !== 'string' || typeof b.document !== 'string')) return refuse(400, 'name and document are required')
    },
  }),
]

// ── charges (§2.4, §3.2, §4.10) ──────────────────────────────────────────────────────────────────

const charges: Fault[] = [
  ...okAnswerFaults({ area: 'charges' }, [
    ['ob2-cob-status-lowercase', ['2.4.status-enum', '3.2.create-ativa'], 'putCob', 'the charge status is serialised from a lower-case enum: "ativa"', (b) => { if (typeof b.status === 'string') b.status = b.status.toLowerCase() }],
    ['ob2-cob-location-is-url', ['2.4.location-equals-loc'], 'putCob', 'top-level location is the payload URL of the charge (as in other central-bank APIs), not the EMV code of loc.location', (b) => { if (typeof b.location === 'string' && typeof b.txid === 'string') b.location = `pix.provider.example/qr/v2/${b.txid}` }],
    ['ob2-cob-expiracao-echoed-in-ms', ['4.10.echoes-request', '4.10.expiracao-default'], 'putCob', 'the charge stores calendario.expiracao in milliseconds and echoes it so: 3600 sent, 3600000 answered; the default 86400000', (b) => { if (typeof b.calendario?.expiracao === 'number') b.calendario.expiracao *= 1000 }],
  ]),
  ob({
    id: 'ob2-cob-cnpj-devedor-refused', area: 'charges', clauses: ['4.10.devedor-cnpj-form'],
    description: 'the provider supports only individual debtors: devedor with cnpj + nome is refused 400 "devedor.cpf is required"',
    onRequest(req) {
      if (isCobPut(req) && typeof jsonObjectOf(req)?.devedor?.cnpj === 'string') return refuse(400, 'devedor.cpf is required')
    },
  }),
  rewriteOk('putCob', (b) => { if (b.valor?.modalidadeAlteracao === 1) b.valor.modalidadeAlteracao = 0 }, {
    id: 'ob2-cob-modalidade-1-ignored', area: 'charges', clauses: ['4.10.modalidade-values'],
    description: 'valor.modalidadeAlteracao is not stored: 1 is accepted and answered as 0',
  }),
  ob({
    id: 'ob2-cob-txid-reusable-after-final-state', area: 'charges', clauses: ['7.create-charge-duplicate-txid-409', '3.2.final-states'],
    description: 'txid uniqueness is a partial index over ATIVA charges: once a charge was paid or removed, PUT of the same txid creates a new ATIVA charge (201) instead of 409',
    onRequest(req) {
      const txid = txidOf(req.path)
      if (txid && isControlPost(req, /^\/control\/cob\/[^/]+\/(pay|remove)$/)) endedCharges.set(txid, {})
    },
    onResponse(req, res) {
      const txid = txidOf(req.path)
      if (!txid) return
      if (isCobPut(req) && res.status === 201 && jsonObjectOf(res)) firstCobAnswers.set(txid, structuredClone(res.json))
      if (isCobPut(req) && res.status === 409 && endedCharges.has(txid)) {
        const first = firstCobAnswers.get(txid)
        const sent = jsonObjectOf(req) ?? {}
        if (!first) return
        const answer = { ...first, ...sent, calendario: { ...first.calendario, ...sent.calendario, criacao: new Date().toISOString() }, status: 'ATIVA', revisao: 0 }
        return jsonResponse(201, answer)
      }
    },
  }),
]

// ── returns (§2.5, §3.3, §4.11) and the gateway refund (§4.14) ──────────────────────────────────

const returns: Fault[] = [
  ...okAnswerFaults({ area: 'returns' }, [
    ['ob2-return-natureza-lowercase', ['2.5.natureza-enum', '4.11.natureza-default'], 'putDevolucao', 'natureza is answered in lower case ("original", "retirada")', (b) => { if (typeof b.natureza === 'string') b.natureza = b.natureza.toLowerCase() }],
    ['ob2-return-status-processando', ['2.5.status-enum', '3.3.create-em-processamento'], 'putDevolucao', 'a return being processed is answered with status "PROCESSANDO" (the provider\'s own word) instead of EM_PROCESSAMENTO', (b) => { if (b.status === 'EM_PROCESSAMENTO') b.status = 'PROCESSANDO' }],
    ['ob2-return-solicitacao-brazilian-format', ['2.5.solicitacao-timestamp'], 'putDevolucao', 'horario.solicitacao is printed for people: "29/11/2026 04:32:46" (Brasília wall time, day first)', (b) => { if (b.horario && typeof b.horario === 'object') b.horario.solicitacao = brazilianWallClock(b.horario.solicitacao) }],
    ['ob2-return-motivo-null', ['2.5.motivo-optional'], 'putDevolucao', 'every return carries motivo null when there is nothing to explain, instead of leaving it out', (b) => { if (b.motivo === undefined) b.motivo = null }],
    ['ob2-return-retirada-stored-as-original', ['4.11.natureza-retirada-accepted'], 'putDevolucao', 'natureza RETIRADA is accepted but not stored: the return is ORIGINAL', (b) => { if (b.natureza === 'RETIRADA') b.natureza = 'ORIGINAL' }],
  ]),
  ob({
    id: 'ob2-return-id-column-32', area: 'returns', clauses: ['4.11.id-length'],
    description: 'the return id column is VARCHAR(32) (the size of an e2e id): ids of 33 to 35 characters are refused with 400',
    onRequest(req) {
      const p = isReturnPut(req) ? returnPath(req) : undefined
      const id = p?.[2]
      if (id !== undefined && id.length >= 33 && id.length <= 35) return refuse(400, 'id must have at most 32 characters')
    },
  }),
  ob({
    id: 'ob2-return-failed-return-still-counts', area: 'returns', clauses: ['4.11.partial-returns-up-to-original', '3.3.fail-nao-realizado'],
    description: 'the returned total is raised when a return is requested and not lowered when it fails: after a NAO_REALIZADO return, a new return of the payment is refused 400 as exceeding the refundable amount',
    onRequest(req) {
      const failed = /^\/control\/returns\/([^/]+)\/[^/]+\/fail$/.exec(req.path)
      if (failed && req.api === 'control' && req.method === 'POST') failedReturnsOf.set(failed[1] as string, Date.now())
      const p = isReturnPut(req) ? returnPath(req) : undefined
      const at = p ? failedReturnsOf.get(p[1] as string) : undefined
      if (at !== undefined && Date.now() - at < 120_000) return refuse(400, 'valor exceeds the amount still refundable')
    },
  }),
]

// ── bank slips (§2.6, §3.4, §4.15, §4.16, §6.3) ──────────────────────────────────────────────────

const bankSlip: Fault[] = [
  ...okAnswerFaults({ area: 'bank-slip' }, [
    ['ob2-slip-created-status-created', ['2.6.status-enum', '3.4.create-pending'], 'createBankSlip', 'a new slip is answered with status "CREATED" (the provider\'s own state before sending it to the bank)', (b) => { if (b.status === 'PENDING') b.status = 'CREATED' }],
    ['ob2-slip-due-date-day-early', ['2.6.due-date'], 'createBankSlip', 'dueDate is parsed as UTC midnight and printed in Brasília time: the slip is due one day early ("2026-12-09" for "2026-12-10")', (b) => { if (typeof b.dueDate === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(b.dueDate)) b.dueDate = new Date(Date.parse(`${b.dueDate}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10) }],
    ['ob2-slip-amount-in-cents', ['2.6.amount'], 'createBankSlip', 'the slip answer gives amount in cents as the issuing bank stores it (100.5 sent, 10050 answered)', (b) => { if (typeof b.amount === 'number') b.amount = Math.round(b.amount * 100) }],
    ['ob2-slip-created-at-midnight', ['2.6.created-at'], 'createBankSlip', 'createdAt comes from the DATE of creation: midnight UTC of the day, not the moment the slip was created', (b) => { if (typeof b.createdAt === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(b.createdAt)) b.createdAt = `${b.createdAt.slice(0, 10)}T00:00:00.000Z` }],
  ]),
  ob({
    id: 'ob2-slip-pdf-by-external-id-not-found', area: 'bank-slip', clauses: ['4.16.by-id-or-external-id'],
    description: 'generate-pdf looks the slip up by UUID only: by its externalId it answers 404 BOLETO_NOT_FOUND',
    onRequest(req) {
      const id = /^\/bank-slip\/v1\/payment\/([^/]+)\/generate-pdf$/.exec(req.path)?.[1]
      if (req.api === 'gateway' && req.method === 'POST' && id !== undefined && !UUID.test(decodeURIComponent(id))) {
        return jsonResponse(404, { statusCode: 404, message: 'bank slip not found', error: 'Not Found', code: 'BOLETO_NOT_FOUND' })
      }
    },
  }),
  ob({
    id: 'ob2-slip-paid-note-processed-at-of-creation', area: 'bank-slip', clauses: ['6.3.common-fields'],
    description: 'the PAID notification carries processedAt = the slip\'s createdAt (the record\'s timestamp), not the moment of payment',
    onResponse(req, res) {
      const b = okAnswerOf(req, res, 'createBankSlip')
      if (b && typeof b.id === 'string' && typeof b.createdAt === 'string') slipCreatedAt.set(b.id, b.createdAt)
    },
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (!isSlipNote(j) || j.status !== 'PAID') return
      const createdAt = slipCreatedAt.get(String(j.paymentId))
      if (createdAt) j.processedAt = createdAt
    },
  }),
  ob({
    id: 'ob2-slip-line-is-barcode', area: 'bank-slip', clauses: ['6.3.slip-line-of-barcode'],
    description: 'slipLine carries the 44-digit barcode itself, not the 47-digit human-readable line built from it',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (isSlipNote(j) && j.status === 'WAITING_PAYMENT' && typeof j.additionalInfo?.barcode === 'string') j.additionalInfo.slipLine = j.additionalInfo.barcode
    },
  }),
]

// ── buyer (§2.7, §4.17) ──────────────────────────────────────────────────────────────────────────

const buyer: Fault[] = [
  rewriteOk('getBuyer', (b) => {
    if (typeof b.name === 'string') {
      const [first, ...rest] = b.name.split(' ')
      b.name = { first, last: rest.join(' ') }
    }
  }, {
    id: 'ob2-buyer-name-split-object', area: 'buyer', clauses: ['2.7.name'],
    description: 'the buyer name comes back as the stored {first, last} object rather than the name string',
  }),
  rewriteOk('getBuyer', (b) => { if (b.alternativeEmail === undefined) b.alternativeEmail = null }, {
    id: 'ob2-buyer-alternative-email-null', area: 'buyer', clauses: ['2.7.alternative-email'],
    description: 'a buyer without an alternative e-mail is sent with alternativeEmail null instead of no field',
  }),
  ob({
    id: 'ob2-buyer-address-formatted-string', area: 'buyer', clauses: ['2.7.address'],
    description: 'the address is returned as one formatted line ("Avenida Paulista, 1000 - Bela Vista, Sao Paulo/SP") instead of the object',
    onResponse(req, res) {
      const b = okAnswerOf(req, res, 'getBuyer')
      const a = b?.address
      if (b && a && typeof a === 'object') b.address = `${a.street}, ${a.number} - ${a.district}, ${a.city}/${a.state}`
    },
  }),
  ...okAnswerFaults({ area: 'buyer' }, [
    ['ob2-buyer-created-at-epoch-seconds', ['2.7.created-at'], 'getBuyer', 'createdAt is a Unix timestamp in seconds (a number)', (b) => { if (typeof b.createdAt === 'string' && !Number.isNaN(Date.parse(b.createdAt))) b.createdAt = Math.floor(Date.parse(b.createdAt) / 1000) }],
    ['ob2-buyer-updated-at-sql-datetime', ['2.7.updated-at'], 'getBuyer', 'updatedAt is the driver\'s DATETIME text "2026-11-29 07:32:22"', (b) => { b.updatedAt = sqlDateTime(b.updatedAt) }],
  ]),
]

// ── auth (§4.1, §4.2, §5) ───────────────────────────────────────────────────────────────────────

const auth: Fault[] = [
  rewriteOk('createCertToken', (b) => { if (typeof b.token_type === 'string') b.token_type = 'JWT' }, {
    id: 'ob2-cert-token-type-jwt', area: 'auth', clauses: ['4.1.token-type-bearer'],
    description: 'the certificate token answer says token_type "JWT" (the token\'s format) instead of Bearer',
  }),
  ob({
    id: 'ob2-bearer-scheme-not-checked', area: 'auth', clauses: ['7.bearer-invalid-token-401', '7.bearer-missing-token-401'],
    description: 'the token is taken as the last word of Authorization whatever the scheme: "Basic <jwt>", "Token <jwt>" or the bare JWT are accepted',
    onRequest(req) {
      const a = req.headers.authorization
      if (req.api !== 'base' || a === undefined || /^Bearer\s/i.test(a)) return
      const last = a.trim().split(/\s+/).pop() ?? ''
      if (/^[\w-]+\.[\w-]+\.[\w-]*$/.test(last)) return { ...req, headers: { ...req.headers, authorization: `Bearer ${last}` } }
    },
  }),
  ob({
    id: 'ob2-api-key-case-and-space-insensitive', area: 'auth', clauses: ['5.api-key-invalid-401'],
    description: 'API keys are looked up case-insensitively and trimmed: a key with its case changed or a space added is accepted as the real one',
    onRequest(req) {
      const key = req.headers['x-api-key']
      if (req.api !== 'gateway' || key === undefined) return
      const known = ['PIX_API_KEY', 'PIX_API_KEY_LIMITED', 'PIX_OTHER_API_KEY', 'PIX_BALANCE_API_KEY'].map((n) => process.env[n]).filter((k): k is string => !!k)
      const real = known.find((k) => k !== key && k.toLowerCase() === key.trim().toLowerCase())
      if (real) return { ...req, headers: { ...req.headers, 'x-api-key': real } }
    },
  }),
]

// ── webhooks (§4.12, §4.18, §6.1, §6.2) ───────────────────────────────────────────────────────────

const webhooks: Fault[] = [
  ob({
    id: 'ob2-v1-created-date-local-as-utc', area: 'webhooks', clauses: ['6.1.created-date'],
    description: 'the V1 notification stamps createdDate with São Paulo wall time labelled Z: three hours before both the creation and the notification',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (isV1(j) && typeof j.createdDate === 'string') j.createdDate = localAsUtc(j.createdDate)
    },
  }),
  ob({
    id: 'ob2-v1-refund-status-not-normalised', area: 'webhooks', clauses: ['6.1.status-refund-normalised'],
    description: 'the V1 notification of a refund sends the internal REFUND_IN instead of the normalised REFUND',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (isV1(j) && j.status === 'REFUND') j.status = 'REFUND_IN'
    },
  }),
  ob({
    id: 'ob2-receive-amount-net-of-fee', area: 'webhooks', clauses: ['6.2.receive-txid-of-charge'],
    description: 'RECEIVE payment.amount is the amount credited after the fee (1% off), not the charge\'s valor.original',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      const data = isV2(j, 'RECEIVE') ? dataOf(d) : undefined
      const amount = Number(data?.payment?.amount)
      if (data && Number.isFinite(amount) && amount > 0) data.payment.amount = reais(amount - Math.max(0.01, reais(amount * 0.01))).toFixed(2)
    },
  }),
  ob({
    id: 'ob2-refund-items-e2e-of-original', area: 'webhooks', clauses: ['6.2.refund-items'],
    description: 'each REFUND refunds item carries the end-to-end id of the original payment instead of the return\'s own',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      const data = isV2(j, 'REFUND') ? dataOf(d) : undefined
      if (data && Array.isArray(data.refunds) && typeof data.endToEndId === 'string') for (const r of data.refunds) if (r && typeof r === 'object') r.endToEndId = data.endToEndId
    },
  }),
  ob({
    id: 'ob2-receive-posted-as-text-plain', area: 'webhooks', clauses: ['6.http-post-json'],
    description: 'V2 notifications are posted with a pre-serialised string body, so the HTTP client labels them text/plain',
    onWebhook(d) {
      const j = jsonObjectOf(d)
      if (j && typeof j.type === 'string') return { ...d, headers: { ...d.headers, 'content-type': 'text/plain;charset=UTF-8' } }
    },
  }),
  ob({
    id: 'ob2-resend-object-id-refused', area: 'webhooks', clauses: ['4.12.transaction-id-forms'],
    description: 'resend validates the path id as a UUID only: a 24-hex object id is refused with 400',
    onRequest(req) {
      const id = /^\/pix\/v[12]\/webhooks\/resend\/([^/]+)$/.exec(req.path)?.[1]
      if (req.api === 'gateway' && req.method === 'POST' && id !== undefined && /^[0-9a-f]{24}$/i.test(id)) {
        return jsonResponse(400, { statusCode: 400, message: 'transactionId must be a UUID', error: 'Bad Request', code: 'INVALID_UUID' })
      }
    },
  }),
  ob({
    id: 'ob2-webhook-setting-first-wins', area: 'webhooks', clauses: ['4.18.set-pix-webhook-url'],
    description: 'POST /v1/account/webhook is an insert-if-absent: setting pixWebhookUrl a second time keeps the first URL (and answers 200)',
    onRequest(req) {
      if (!matches(req, 'POST', '/v1/account/webhook', 'gateway')) return
      const b = jsonObjectOf(req)
      const key = req.headers['x-api-key'] ?? ''
      if (!b || typeof b.pixWebhookUrl !== 'string') return
      const first = firstWebhookSetting.get(key)
      if (!first || first.check !== checkOfUrl(b.pixWebhookUrl)) {
        firstWebhookSetting.set(key, { check: checkOfUrl(b.pixWebhookUrl), url: b.pixWebhookUrl })
        return
      }
      b.pixWebhookUrl = first.url
      return req
    },
  }),
]

// ── model (every surface after every change) ────────────────────────────────────────────────────

const model: Fault[] = [
  ob({
    id: 'ob2-pix-key-listing-status-cached', area: 'model', clauses: ['2.2.same-view-both-listings', '2.1.view-current'],
    description: 'the pix-key listing is served from a cache filled on first sight of each record: a payment listed Pendente stays Pendente there after it is confirmed or fails, while the account listing moves on',
    onResponse(req, res) {
      if (!isPixKeyListing(req) || res.status !== 200) return
      for (const i of listItems(res)) {
        const k = itemKey(i)
        const seen = pixKeyListingFirstSeen.get(k)
        if (seen && Date.now() - seen.at < 300_000) i.status = seen.status
        else pixKeyListingFirstSeen.set(k, { status: i.status, at: Date.now() })
      }
    },
  }),
  ob({
    id: 'ob2-view-status-stale-after-failure', area: 'model', clauses: ['2.1.view-current'],
    description: 'the single view does not see a failure the bank reports: a failed transaction stays PENDING there while both listings show Error',
    onRequest(req) {
      const id = /^\/control\/transactions\/([^/]+)\/fail$/.exec(req.path)?.[1]
      if (id !== undefined && req.api === 'control' && req.method === 'POST') failedTransactions.set(decodeURIComponent(id), Date.now())
    },
    onResponse(req, res) {
      if (!matches(req, 'GET', TX_VIEW, 'base')) return
      const b = okAnswerOf(req, res, 'getTransaction')
      const at = b ? failedTransactions.get(String(b.id)) : undefined
      if (b && at !== undefined && Date.now() - at < 120_000 && b.status === 'ERROR') {
        b.status = 'PENDING'
        b.processedAt = null
      }
    },
  }),
  rewriteOk('getTransaction', (b) => { if (typeof b.finalAmount === 'string' && b.feeAmount !== '0.00') b.originalAmount = b.finalAmount }, {
    id: 'ob2-view-amount-is-net', area: 'model', clauses: ['2.1.view-current'],
    description: 'the single view shows the net amount as originalAmount (originalAmount = finalAmount), so the view and the listings give the payment different amounts',
  }),
]

// ── conventions (§0) ─────────────────────────────────────────────────────────────────────────────

const conventions: Fault[] = [
  ob({
    id: 'ob2-bcb-balance-text-plain', area: 'conventions', clauses: ['0.json-bodies'],
    description: 'the central-bank-style balance is written by a hand-made serialiser with Content-Type text/plain',
    onResponse(req, res) {
      if (matches(req, 'GET', '/accounts/balances', 'base') && res.status === 200) return { ...res, headers: { ...res.headers, 'content-type': 'text/plain; charset=utf-8' } }
    },
  }),
]

// ── isolation (another account's resource served) ──────────────────────────────────────────────

const isolation: Fault[] = [
  swapped(
    'ob2-pix-key-listing-other-account',
    '4.5.other-account-pix-key-not-listed',
    'GET',
    PIX_KEY_LISTING,
    'base',
    'the pix-key listing checks the token but looks the key up across all accounts: another account\'s token naming this account\'s key lists its transactions',
  ),
  swapped(
    'ob2-return-other-account',
    '4.11.other-account-return-refused',
    'PUT',
    RETURN,
    'base',
    'the return looks the e2eid up across accounts: another account\'s token returns this account\'s received payment',
  ),
  ob({
    id: 'ob2-view-by-external-id-not-scoped', area: 'isolation', clauses: ['4.3.other-account-view-refused'],
    description: 'the view scopes the numeric-id lookup to the account but not the externalId lookup: another account\'s token reads this account\'s transaction by its externalId',
    onRequest(req) {
      noteFirstAccount(req)
      const id = /^\/api\/pix\/transaction\/([^/]+)$/.exec(req.path)?.[1]
      if (req.method === 'GET' && id !== undefined && !/^\d+$/.test(id)) return asFirstAccount(req)
    },
  }),
  ob({
    id: 'ob2-pdf-by-external-id-not-scoped', area: 'isolation', clauses: ['4.16.other-account-pdf-refused'],
    description: 'generate-pdf scopes the UUID lookup to the key\'s account but not the externalId lookup: another account\'s key gets the PDF of this account\'s slip by externalId',
    onRequest(req) {
      const id = /^\/bank-slip\/v1\/payment\/([^/]+)\/generate-pdf$/.exec(req.path)?.[1]
      if (req.api === 'gateway' && req.method === 'POST' && id !== undefined && !UUID.test(decodeURIComponent(id))) return asFirstAccount(req)
    },
  }),
]

// ── rate limits (§8) ─────────────────────────────────────────────────────────────────────────────

const rateLimits: Fault[] = [
  ob({
    id: 'ob2-gateway-balance-limit-per-account', area: 'rate-limits', clauses: ['8.gateway-balance-rate'],
    description: 'the gateway balance limit is counted per account, not per API key: the account\'s second key is refused (429) once the first used the 60 requests of the minute (the window rolls on the target clock)',
    readings: { limitedBalance: 'allowed' },
    onRequest(req) {
      const seconds = jsonObjectOf(req)?.seconds
      if (matches(req, 'POST', '/control/clock/advance', 'control') && typeof seconds === 'number') balanceClock.offsetMs += seconds * 1000
    },
    onResponse(req, res) {
      const b = okAnswerOf(req, res, 'getGatewayBalance')
      if (!b || typeof b.id !== 'string') return
      const now = Date.now() + balanceClock.offsetMs
      const log = (balanceCallsPerAccount.get(b.id) ?? []).filter((t) => t > now - 60_000)
      if (log.length >= 60) {
        balanceCallsPerAccount.set(b.id, log)
        return jsonResponse(429, { statusCode: 429, message: 'rate limit exceeded', error: 'Too Many Requests' })
      }
      balanceCallsPerAccount.set(b.id, [...log, now])
    },
  }),
]

export default { transactions, balance, cash, charges, returns, bankSlip, buyer, auth, webhooks, model, conventions, isolation, rateLimits }

