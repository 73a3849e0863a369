// The stateful rules: one small model of what the application has seen so far, per account (its
// Authorization or API key): charges and returns with the statuses they showed, in order; each
// transaction as the single view and the listings showed it; balance reads. A rule fires when two
// observations of one record disagree in a way the interface does not allow.
import { centsOf, hasAtMostTwoDecimals } from '../../generators/amounts.ts'
import { isMaskOf } from '../../generators/documents.ts'
import { header, type Matched, type ObservedExchange } from './exchanges.ts'
import { isObject, MOVEMENT, OPERATION_TYPE, requestJson, responseJson, STATUS_MAP_CLAUSE, STATUS_TEXT, TYPE_MAP_CLAUSE } from './rules.ts'
import type { Emit } from './verdicts.ts'

type Json = Record<string, any>

interface Seen<T> { value: T; ex: ObservedExchange }

/** §3.2 and §3.3: the transitions each table allows (a status may be shown again unchanged). */
const MACHINES = {
  charge: {
    allowed: { ATIVA: ['CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP'] } as Record<string, string[]>,
    finals: ['CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP'],
    finalClause: '3.2.final-states',
    edge: { CONCLUIDA: '3.2.pay-ativa-concluida', REMOVIDA_PELO_USUARIO_RECEBEDOR: '3.2.cancel-removida-recebedor', REMOVIDA_PELO_PSP: '3.2.remove-removida-psp' } as Record<string, string>,
  },
  return: {
    allowed: { EM_PROCESSAMENTO: ['DEVOLVIDO', 'NAO_REALIZADO'] } as Record<string, string[]>,
    finals: ['DEVOLVIDO', 'NAO_REALIZADO'],
    finalClause: '3.3.final-states',
    edge: { DEVOLVIDO: '3.3.settle-devolvido', NAO_REALIZADO: '3.3.fail-nao-realizado' } as Record<string, string>,
  },
}
type Kind = keyof typeof MACHINES

interface TransactionRecord {
  views: Seen<Json>[]
  /** Items of the account listing and of the pix-key listing. */
  listed: Seen<Json & { _listing: string }>[]
}

/** GET of a charge or a return: not in the interface, but a provider may serve it, and what it shows is a status the application saw. */
const CHARGE_READ = /\/cob\/([^/?]+)$/
const RETURN_READ = /\/pix\/([^/]+)\/devolucao\/([^/?]+)$/

export class Model {
  private readonly statuses = new Map<string, Seen<string>[]>() // `${kind} ${account} ${key}`
  private readonly createdTxids = new Set<string>() // `${account} ${txid}`
  private readonly transactions = new Map<string, TransactionRecord>() // `${account} ${id}`
  private readonly externalIds = new Map<string, string>() // `${account} ${externalId}` → id
  private readonly known = new Set<string>() // `${account} ${id or externalId}` some answer showed
  private lastBalance: { account: string; op: string; body: Json; ex: ObservedExchange } | undefined
  /** Bearer tokens by the client they were issued to: records of one account stay together across token renewals. */
  private readonly clients = new Map<string, string>()

  constructor(private readonly emit: Emit) {}

  observe(ex: ObservedExchange, m: Matched | undefined): void {
    if (ex.response.status === 0) return
    if (m && (m.op.operationId === 'createOauthToken' || m.op.operationId === 'createCertToken')) this.learnToken(ex)
    const account = this.accountOf(ex)
    if (!m) return this.unlisted(ex, account)
    const status = ex.response.status
    const ok = status >= 200 && status < 300
    const body = responseJson(ex)
    if (ex.request.method !== 'GET') this.lastBalance = undefined
    switch (m.op.operationId) {
      case 'putCob': return this.putCob(ex, m, account, body)
      case 'putDevolucao':
        if (ok && isObject(body) && typeof body.status === 'string') {
          this.emit('3.3.create-em-processamento', this.statusesOf('return', account, `${m.params.e2eid}/${m.params.id}`).length > 0 || body.status === 'EM_PROCESSAMENTO', `a new return answered ${body.status}`, ex)
          this.status('return', account, `${m.params.e2eid}/${m.params.id}`, body.status, ex)
        }
        return
      case 'createCashIn':
      case 'createCashOutQrCode':
        if (ok && isObject(body)) this.remember(account, body.transactionId, body.externalId)
        return
      case 'getTransaction': return this.view(ex, m, account, body)
      case 'listTransactions':
      case 'listTransactionsByPixKey':
        if (ok && isObject(body) && Array.isArray(body.data)) {
          for (const item of body.data.filter(isObject)) this.listed(ex, account, item, m.op.operationId)
        }
        return
      case 'getBalance':
      case 'getAccountBalances':
        if (ok && isObject(body)) this.balance(ex, account, m.op.operationId, body)
        return
      default:
    }
  }

  private learnToken(ex: ObservedExchange): void {
    const req = requestJson(ex)
    const body = responseJson(ex)
    if (isObject(req) && typeof req.clientId === 'string' && isObject(body) && typeof body.access_token === 'string') this.clients.set(body.access_token, req.clientId)
  }

  private accountOf(ex: ObservedExchange): string {
    const auth = header(ex.request.headers, 'authorization')
    const token = auth && /^Bearer\s+(.+)$/i.exec(auth)?.[1]
    const client = token ? this.clients.get(token) : undefined
    return client !== undefined ? `client ${client}` : accountOf(ex)
  }

  private unlisted(ex: ObservedExchange, account: string): void {
    if (ex.request.method !== 'GET' || ex.response.status !== 200) return
    const body = responseJson(ex)
    if (!isObject(body) || typeof body.status !== 'string') return
    const path = pathOf(ex.request.url)
    const ret = RETURN_READ.exec(path)
    if (ret) return this.status('return', account, `${decodeURIComponent(ret[1]!)}/${decodeURIComponent(ret[2]!)}`, body.status, ex)
    const cob = CHARGE_READ.exec(path)
    if (cob) this.status('charge', account, decodeURIComponent(cob[1]!), body.status, ex)
  }

  private putCob(ex: ObservedExchange, m: Matched, account: string, body: unknown): void {
    const key = `${account} ${m.params.txid}`
    const status = ex.response.status
    if (this.createdTxids.has(key) && (status < 500)) {
      this.emit('7.create-charge-duplicate-txid-409', status === 409, `PUT /cob/${m.params.txid} of a charge this session saw created answered ${status}`, ex)
    }
    if (status >= 200 && status < 300 && isObject(body) && typeof body.status === 'string') {
      this.createdTxids.add(key)
      this.status('charge', account, m.params.txid ?? '', body.status, ex)
    }
  }

  private statusesOf(kind: Kind, account: string, key: string): Seen<string>[] {
    return this.statuses.get(`${kind} ${account} ${key}`) ?? []
  }

  /** One more status of a charge or return, judged against the last one seen. */
  private status(kind: Kind, account: string, key: string, value: string, ex: ObservedExchange): void {
    const id = `${kind} ${account} ${key}`
    const seen = this.statuses.get(id) ?? []
    const last = seen.at(-1)
    seen.push({ value, ex })
    this.statuses.set(id, seen.slice(-4))
    if (!last || last.value === value) {
      if (last && MACHINES[kind].finals.includes(value)) this.emit(MACHINES[kind].finalClause, true, undefined, last.ex, ex)
      return
    }
    const machine = MACHINES[kind]
    const allowed = machine.allowed[last.value]?.includes(value) ?? false
    const name = kind === 'charge' ? `charge ${key}` : `return ${key}`
    if (machine.finals.includes(last.value)) {
      this.emit(machine.finalClause, false, `the ${name} was ${last.value} (final), then ${value}`, last.ex, ex)
    } else if (allowed) {
      this.emit(machine.edge[value]!, true, undefined, last.ex, ex)
    } else if (machine.edge[value]) {
      this.emit(machine.edge[value]!, false, `the ${name} went from ${last.value} to ${value}, which §${kind === 'charge' ? '3.2' : '3.3'} does not allow`, last.ex, ex)
    }
  }

  private remember(account: string, id: unknown, externalId: unknown): void {
    if (typeof id === 'string') this.known.add(`${account} ${id}`)
    if (typeof externalId === 'string' && externalId !== '') this.known.add(`${account} ${externalId}`)
    if (typeof id === 'string' && typeof externalId === 'string' && externalId !== '') this.externalIds.set(`${account} ${externalId}`, id)
  }

  private record(account: string, id: string): TransactionRecord {
    const key = `${account} ${id}`
    let r = this.transactions.get(key)
    if (!r) {
      r = { views: [], listed: [] }
      this.transactions.set(key, r)
    }
    return r
  }

  private view(ex: ObservedExchange, m: Matched, account: string, body: unknown): void {
    const asked = m.params.id ?? ''
    const status = ex.response.status
    if (status === 404 && this.known.has(`${account} ${asked}`)) {
      const byExternal = this.externalIds.has(`${account} ${asked}`) && !/^\d+$/.test(asked)
      this.emit(byExternal ? '4.3.get-by-external-id' : '4.3.get-by-id', false, `GET /api/pix/transaction/${asked} answered 404 for a transaction this session saw`, ex)
      return
    }
    if (status !== 200 || !isObject(body) || typeof body.id !== 'string') return
    this.remember(account, body.id, body.externalId)
    const r = this.record(account, body.id)
    r.views.push({ value: body, ex })
    if (r.views.length > 4) r.views.splice(1, 1) // keep the first and the latest
  }

  private listed(ex: ObservedExchange, account: string, item: Json, listing: string): void {
    if (typeof item.transactionId !== 'string') return
    this.remember(account, item.transactionId, item.externalId)
    const r = this.record(account, item.transactionId)
    r.listed.push({ value: { ...item, _listing: listing }, ex })
    if (r.listed.length > 6) r.listed.splice(2, 1)
  }

  /** §2.3 equivalences, between a public and a central-bank-style read of one account with nothing sent between them. */
  private balance(ex: ObservedExchange, account: string, op: string, body: Json): void {
    const prev = this.lastBalance
    this.lastBalance = { account, op, body, ex }
    if (!prev || prev.account !== account || prev.op === op) return
    const gap = Math.abs(Date.parse(ex.startedAt) - Date.parse(prev.ex.startedAt))
    if (!(gap <= 1_000)) return // funds may move between two reads: only reads a moment apart are compared
    const pub = op === 'getBalance' ? body : prev.body
    const bcb = op === 'getBalance' ? prev.body : body
    const amounts = Array.isArray(bcb.data) && isObject(bcb.data[0]) && isObject(bcb.data[0].balanceAmount) ? bcb.data[0].balanceAmount : undefined
    if (!amounts) return
    const pair: [string, unknown, unknown][] = [
      ['2.3.net-equals-available', pub.netBalance, amounts.available],
      ['2.3.blocked-equals-blocked', pub.blockedBalance, amounts.blocked],
    ]
    for (const [clause, a, b] of pair) {
      if (!money(a) || !money(b)) continue
      this.emit(clause, centsOf(a) === centsOf(b), `GET /api/balance and GET /accounts/balances a moment apart: ${a} and ${b}`, prev.ex, ex)
    }
  }

  /** The rules that compare surfaces: run once every exchange is in. */
  finish(): void {
    for (const r of this.transactions.values()) {
      if (r.views.length > 0) for (const item of r.listed) this.viewAgainstListing(r, item)
      this.listingsAgree(r)
    }
  }

  private viewAgainstListing(r: TransactionRecord, item: Seen<Json>): void {
    const view = nearestView(r.views, item.ex)
    const v = view.value
    const l = item.value
    const both = [view.ex, item.ex]
    const amounts: [string, string][] = [['originalAmount', '2.2.original-amount'], ['feeAmount', '2.2.fee-amount'], ['finalAmount', '2.2.final-amount']]
    for (const [field, clause] of amounts) {
      if (!money(v[field]) || !money(l[field])) continue
      this.emit(clause, centsOf(v[field]) === centsOf(l[field]), `${field}: ${v[field]} in the single view, ${l[field]} in the listing`, ...both)
    }
    if (typeof v.type === 'string' && OPERATION_TYPE[v.type] && typeof l.operationType === 'string') {
      const okType = l.operationType === OPERATION_TYPE[v.type] && l.movementType === MOVEMENT[v.type]
      this.emit(TYPE_MAP_CLAUSE[v.type]!, okType, `type ${v.type} in the single view, ${l.operationType}/${l.movementType} in the listing (the table gives ${OPERATION_TYPE[v.type]}/${MOVEMENT[v.type]})`, ...both)
    }
    if (typeof l.status === 'string') {
      // statuses move on (PENDING then CONFIRMED): the listing agrees with the view just before it or just after it
      const around = [viewBefore(r.views, item.ex), viewAfter(r.views, item.ex)].filter((x): x is Seen<Json> => x !== undefined)
      const expected = around.map((s) => s.value.status).filter((s): s is string => typeof s === 'string' && STATUS_TEXT[s] !== undefined)
      if (expected.length > 0) {
        const agrees = expected.some((s) => STATUS_TEXT[s] === l.status)
        const clause = STATUS_MAP_CLAUSE[expected[expected.length - 1]!]!
        this.emit(agrees ? STATUS_MAP_CLAUSE[expected.find((s) => STATUS_TEXT[s] === l.status)!]! : clause, agrees, `status ${expected.join(' then ')} in the single view, "${l.status}" in the listing`, ...around.map((s) => s.ex), item.ex)
      }
    }
    const doc = v.counterpartDocument
    const masked = isObject(l.counterpart) ? l.counterpart.document : undefined
    if (typeof doc === 'string' && typeof masked === 'string' && /^\d{11}$|^\d{14}$/.test(doc)) {
      this.emit(doc.length === 11 ? '2.2.mask-cpf' : '2.2.mask-cnpj', isMaskOf(masked, doc), `counterpartDocument ${doc.length === 11 ? 'CPF' : 'CNPJ'} in the single view, "${masked}" in the listing`, ...both)
    }
    if (typeof v.e2eId === 'string' && typeof l.endToEndId === 'string') this.emit('2.2.end-to-end-id', v.e2eId === l.endToEndId, `e2eId ${v.e2eId} in the single view, endToEndId ${l.endToEndId} in the listing`, ...both)
  }

  /** §2.2: both listings show one record the same way (status aside: it moves on between reads). */
  private listingsAgree(r: TransactionRecord): void {
    const account = r.listed.filter((i) => i.value._listing === 'listTransactions').at(-1)
    const byKey = r.listed.filter((i) => i.value._listing === 'listTransactionsByPixKey').at(-1)
    if (!account || !byKey) return
    const fields = ['externalId', 'operationType', 'movementType', 'originalAmount', 'feeAmount', 'finalAmount', 'endToEndId', 'createdAt']
    const differ = fields.filter((f) => JSON.stringify(account.value[f]) !== JSON.stringify(byKey.value[f]))
    const cp = (x: Json) => JSON.stringify(isObject(x.counterpart) ? x.counterpart : null)
    if (cp(account.value) !== cp(byKey.value)) differ.push('counterpart')
    this.emit('2.2.same-view-both-listings', differ.length === 0, `transaction ${account.value.transactionId}: ${differ.join(', ')} differ between the account listing and the pix-key listing`, account.ex, byKey.ex)
  }
}

function money(x: unknown): x is number | string {
  if (typeof x === 'number') return Number.isFinite(x) && hasAtMostTwoDecimals(x)
  return typeof x === 'string' && /^-?\d+(\.\d{1,2})?$/.test(x)
}

function viewBefore(views: Seen<Json>[], ex: ObservedExchange): Seen<Json> | undefined {
  return views.filter((v) => v.ex.seq < ex.seq).at(-1)
}
function viewAfter(views: Seen<Json>[], ex: ObservedExchange): Seen<Json> | undefined {
  return views.find((v) => v.ex.seq > ex.seq)
}
function nearestView(views: Seen<Json>[], ex: ObservedExchange): Seen<Json> {
  return viewBefore(views, ex) ?? viewAfter(views, ex) ?? views[0]!
}

/** Whose records these are: the bearer token or the API key the request carried (never reported). */
export function accountOf(ex: ObservedExchange): string {
  return header(ex.request.headers, 'authorization') ?? header(ex.request.headers, 'x-api-key') ?? '(none)'
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname
  } catch {
    return url
  }
}

export { requestJson }
