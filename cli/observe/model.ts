// The stateful rules: one small model of what the application has seen so far, per account (its
// Authorization or API key): charges and returns with the statuses they showed, in order; each
// transaction as the single view and the listings showed it; balance reads. A rule fires when two
// observations of one record disagree in a way the interface does not allow.
// This file is long because it is one model of every surface a record shows (views, listings,
// balances, charges, returns) and the rules that compare them: the comparisons need all of it.
import { createHash } from 'node:crypto'
import { centsOf, hasAtMostTwoDecimals } from '../../generators/amounts.ts'
import { isMaskOf } from '../../generators/documents.ts'
import { header, type Matched, type ObservedExchange } from './exchanges.ts'
import { isObject, MOVEMENT, OPERATION_TYPE, requestJson, responseJson, STATUS_MAP_CLAUSE, STATUS_TEXT, TYPE_MAP_CLAUSE } from './rules.ts'
import type { Emit } from './verdicts.ts'

type Json = Record<string, any>

interface Seen<T> { value: T; ex: ObservedExchange }

/** Records kept per kind: a session of days forgets its oldest records first (a rule needs a record seen again soon). */
export const MAX_RECORDS = 50_000

/** Map.set that forgets the oldest entry beyond MAX_RECORDS (Maps keep insertion order). */
function keep<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key)
  map.set(key, value)
  if (map.size > MAX_RECORDS) map.delete(map.keys().next().value as K)
}

function keepIn<T>(set: Set<T>, value: T): void {
  set.delete(value)
  set.add(value)
  if (set.size > MAX_RECORDS) set.delete(set.values().next().value as T)
}

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
  /** The latest read of each balance shape since the last request that was not a GET. */
  private readonly balances = new Map<string, { account: string; body: Json; ex: ObservedExchange }>()
  /** Cash-outs by their externalId: the transaction the first accepted one made. */
  private readonly cashOuts = new Map<string, Seen<string>>()
  /** Original amounts of received payments by end-to-end id, as the view or a listing showed them. */
  private readonly originals = new Map<string, number>()
  /** Cents returned per end-to-end id by returns the target accepted, and the ids of those returns. */
  private readonly returned = new Map<string, { cents: number; ids: Set<string> }>()
  /** Times the target gave for "now" in its answers (consultedAt, generateTime…), with when the request started: the target's clock. */
  private readonly clock: { seq: number; wall: number; target: number; ex: ObservedExchange }[] = []
  private readonly criacoes: { seq: number; wall: number; target: number; ex: ObservedExchange }[] = []
  /** Bearer tokens by the client they were issued to: records of one account stay together across token renewals. */
  private readonly clients = new Map<string, string>()

  /** accounts: the API key and client id of each account of the target's settings, so both APIs' records of one account meet. */
  constructor(private readonly emit: Emit, accounts: readonly { clientId: string; apiKey: string }[] = []) {
    for (const a of accounts) this.keys.set(a.apiKey, a.clientId)
  }

  private readonly keys = new Map<string, string>()

  chargeCreated(ex: ObservedExchange, txid: string): boolean {
    return this.createdTxids.has(`${this.accountOf(ex)} ${txid}`)
  }

  observe(ex: ObservedExchange, m: Matched | undefined): void {
    if (ex.response.status === 0) return
    if (m && (m.op.operationId === 'createOauthToken' || m.op.operationId === 'createCertToken')) this.learnToken(ex)
    const account = this.accountOf(ex)
    if (!m) return this.unlisted(ex, account)
    const status = ex.response.status
    const ok = status >= 200 && status < 300
    const body = responseJson(ex)
    if (ex.request.method !== 'GET') this.balances.clear()
    if (ok && isObject(body)) this.clockOf(ex, m.op.operationId, body)
    switch (m.op.operationId) {
      case 'putCob': return this.putCob(ex, m, account, body)
      case 'putDevolucao':
        this.returnSum(ex, m, account)
        if (ok && isObject(body) && typeof body.status === 'string') {
          this.emit('3.3.create-em-processamento', this.statusesOf('return', account, `${m.params.e2eid}/${m.params.id}`).length > 0 || body.status === 'EM_PROCESSAMENTO', `a new return answered ${body.status}`, ex)
          this.status('return', account, `${m.params.e2eid}/${m.params.id}`, body.status, ex)
        }
        return
      case 'createCashOutQrCode':
        this.cashOutOnce(ex, account, body)
        if (ok && isObject(body)) this.remember(account, body.transactionId, body.externalId)
        return
      case 'createCashIn':
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
      case 'getGatewayBalance':
        if (ok && isObject(body)) this.balance(ex, account, m.op.operationId, body)
        return
      default:
    }
  }

  private learnToken(ex: ObservedExchange): void {
    const req = requestJson(ex)
    const body = responseJson(ex)
    if (isObject(req) && typeof req.clientId === 'string' && isObject(body) && typeof body.access_token === 'string') keep(this.clients, body.access_token, req.clientId)
  }

  accountOf(ex: ObservedExchange): string {
    if (ex.account) return ex.account
    const auth = header(ex.request.headers, 'authorization')
    const token = auth && /^Bearer\s+(.+)$/i.exec(auth)?.[1]
    const key = header(ex.request.headers, 'x-api-key')
    const client = token ? this.clients.get(token) : key ? this.keys.get(key) : undefined
    return client !== undefined ? `client ${client}` : accountOf(ex)
  }

  private clockOf(ex: ObservedExchange, op: string, body: Json): void {
    if (ex.untimed) return
    const stamp = op === 'getBalance' || op === 'getGatewayBalance' ? body.consultedAt
      : op === 'getAccountBalances' ? (isObject(body.data?.[0]) ? body.data[0].eventDate : undefined)
      : op === 'createCashIn' || op === 'createCashOutQrCode' ? body.generateTime
      : op === 'putDevolucao' ? (isObject(body.horario) ? body.horario.solicitacao : undefined)
      : undefined
    const entry = { seq: ex.seq, wall: Date.parse(ex.startedAt), target: Date.parse(String(stamp)), ex }
    if (op === 'putCob' && isObject(body.calendario)) {
      const c = { ...entry, target: Date.parse(String(body.calendario.criacao)) }
      if (!Number.isNaN(c.target) && !Number.isNaN(c.wall) && this.criacoes.length < 1000) this.criacoes.push(c)
      return
    }
    if (stamp === undefined || Number.isNaN(entry.target) || Number.isNaN(entry.wall)) return
    this.clock.push(entry)
    if (this.clock.length > 2000) this.clock.splice(0, 1000)
  }

  /**
   * §2.4: calendario.criacao is the charge's creation, on the target's clock: against the nearest
   * "now" the target gave before and after it (its clock may be a sandbox's, moved on at will), it
   * must agree with one of them within 5 minutes of the time between the requests.
   */
  private criacaoAgainstClock(): void {
    for (const c of this.criacoes) {
      const before = this.clock.filter((k) => k.seq < c.seq).at(-1)
      const after = this.clock.find((k) => k.seq > c.seq)
      const near = [before, after].filter((k): k is NonNullable<typeof k> => k !== undefined)
      if (near.length === 0) continue
      const off = near.map((k) => Math.abs((c.target - k.target) - (c.wall - k.wall)))
      this.emit('2.4.criacao', off.some((o) => o <= 5 * 60_000), `calendario.criacao ${new Date(c.target).toISOString()} is ${Math.round(Math.min(...off) / 1000)} s off the target's clock as its other answers show it (${near.map((k) => new Date(k.target).toISOString()).join(', ')})`, c.ex, ...near.map((k) => k.ex))
    }
  }

  /**
   * A RECEIVE LIQUIDATED for a charge this session created says the charge is CONCLUIDA (§3.2): a
   * status the application saw, in order with the API's; its amount is the charge's (§6.2).
   */
  notification(ex: ObservedExchange): void {
    const p = requestJson(ex)
    if (!isObject(p) || p.type !== 'RECEIVE' || !isObject(p.data) || typeof p.data.txId !== 'string' || p.data.status !== 'LIQUIDATED') return
    // collected first: status() moves the record to the end of the map, which a live iteration would visit again
    const charges = [...this.statuses].filter(([key]) => key.startsWith('charge ') && key.endsWith(` ${p.data.txId}`))
    for (const [key, seen] of charges) {
      const created = seen[0]!.ex
      const original = isObject(responseJson(created)) ? (responseJson(created) as Json).valor?.original : undefined
      const amount = isObject(p.data.payment) ? p.data.payment.amount : undefined
      if (money(original) && money(amount)) this.emit('6.2.receive-txid-of-charge', centsOf(amount) === centsOf(original), `RECEIVE of charge ${p.data.txId} for ${amount}, the charge is for ${original}`, created, ex)
      const account = key.slice('charge '.length, key.length - p.data.txId.length - 1)
      this.status('charge', account, p.data.txId, 'CONCLUIDA', ex)
    }
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
      keepIn(this.createdTxids, key)
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
    keep(this.statuses, id, seen.slice(-4))
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
    if (typeof id === 'string') keepIn(this.known, `${account} ${id}`)
    if (typeof externalId === 'string' && externalId !== '') keepIn(this.known, `${account} ${externalId}`)
    if (typeof id === 'string' && typeof externalId === 'string' && externalId !== '') keep(this.externalIds, `${account} ${externalId}`, id)
  }

  private original(account: string, e2e: unknown, amount: unknown): void {
    if (typeof e2e === 'string' && e2e !== '' && money(amount)) keep(this.originals, `${account} ${e2e}`, centsOf(amount))
  }

  private record(account: string, id: string): TransactionRecord {
    const key = `${account} ${id}`
    let r = this.transactions.get(key)
    if (!r) {
      r = { views: [], listed: [] }
      keep(this.transactions, key, r)
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
    this.original(account, body.e2eId, body.originalAmount)
    const r = this.record(account, body.id)
    r.views.push({ value: body, ex })
    if (r.views.length > 4) r.views.splice(1, 1) // keep the first and the latest
  }

  private listed(ex: ObservedExchange, account: string, item: Json, listing: string): void {
    if (typeof item.transactionId !== 'string') return
    this.remember(account, item.transactionId, item.externalId)
    this.original(account, item.endToEndId, item.originalAmount)
    const r = this.record(account, item.transactionId)
    r.listed.push({ value: { ...item, _listing: listing }, ex })
    if (r.listed.length > 6) r.listed.splice(2, 1)
  }

  /**
   * §2.3 and §1: the three shapes are one balance. Reads of two shapes of one account are compared
   * only a moment apart with no request but reads between them: funds may move in between anyway
   * (a payment arriving), so a disagreement there is rare but possible, and the evidence shows both.
   */
  private balance(ex: ObservedExchange, account: string, op: string, body: Json): void {
    if (ex.untimed) return
    const now = { account, body, ex }
    for (const [otherOp, other] of this.balances) {
      if (otherOp === op || other.account !== account) continue
      const gap = Math.abs(Date.parse(ex.startedAt) - Date.parse(other.ex.startedAt))
      if (!(gap <= 1_000)) continue
      const shapes = { [op]: now, [otherOp]: other }
      const pub = shapes.getBalance?.body
      const bcbItem = shapes.getAccountBalances?.body.data?.[0]
      const bcb = isObject(bcbItem) && isObject(bcbItem.balanceAmount) ? bcbItem.balanceAmount : undefined
      const gw = shapes.getGatewayBalance?.body
      const pairs: [string, unknown, unknown, string][] = []
      if (pub && bcb) {
        pairs.push(['2.3.net-equals-available', pub.netBalance, bcb.available, 'netBalance and available'], ['2.3.blocked-equals-blocked', pub.blockedBalance, bcb.blocked, 'blockedBalance and blocked'])
        const consulted = Date.parse(String(pub.consultedAt))
        const event = Date.parse(String(bcbItem.eventDate))
        if (!Number.isNaN(consulted) && !Number.isNaN(event)) this.emit('2.3.consulted-at-is-event-date', Math.abs(consulted - event) <= gap + 2_000, `consultedAt ${pub.consultedAt} and eventDate ${bcbItem.eventDate} of reads ${gap} ms apart`, other.ex, ex)
      }
      if (gw && (pub || bcb)) {
        pairs.push(['1.balance-shapes-one-balance', gw.availableBalance, pub ? pub.netBalance : bcb!.available, 'availableBalance (gateway) and the available funds of the other shape'])
        pairs.push(['1.balance-shapes-one-balance', gw.blockedBalance, pub ? pub.blockedBalance : bcb!.blocked, 'blockedBalance (gateway) and the blocked funds of the other shape'])
      }
      for (const [clause, a, b, what] of pairs) {
        if (!money(a) || !money(b)) continue
        this.emit(clause, centsOf(a) === centsOf(b), `${what} of reads ${gap} ms apart: ${a} and ${b}`, other.ex, ex)
      }
    }
    this.balances.set(op, now)
  }

  /** §4.7: externalId is the payment's unique identifier: a second cash-out with it makes no second payment. */
  private cashOutOnce(ex: ObservedExchange, account: string, body: unknown): void {
    const req = requestJson(ex)
    if (!isObject(req) || typeof req.externalId !== 'string' || req.externalId === '') return
    const key = `${account} ${req.externalId}`
    const first = this.cashOuts.get(key)
    const status = ex.response.status
    const made = status >= 200 && status < 300 && isObject(body) && typeof body.transactionId === 'string' ? body.transactionId : undefined
    if (!first) {
      if (made) keep(this.cashOuts, key, { value: made, ex })
      return
    }
    if (status >= 500) return
    this.emit('4.7.external-id-unique', made === undefined || made === first.value, `a second cash-out with externalId ${req.externalId} made transaction ${made} beside ${first.value}`, first.ex, ex)
  }

  /** §4.11: returns of one payment add up to at most its original amount, and any split within it is accepted. */
  private returnSum(ex: ObservedExchange, m: Matched, account: string): void {
    const req = requestJson(ex)
    const e2eid = m.params.e2eid ?? ''
    const rid = m.params.id ?? ''
    if (!isObject(req) || typeof req.valor !== 'string' || !/^\d+\.\d{2}$/.test(req.valor)) return
    if (!/^[a-zA-Z0-9]{32}$/.test(e2eid) || rid.length < 1 || rid.length > 35) return
    if (req.natureza !== undefined && req.natureza !== 'ORIGINAL' && req.natureza !== 'RETIRADA') return
    if (req.descricao !== undefined && !(typeof req.descricao === 'string' && [...req.descricao].length <= 140)) return
    const key = `${account} ${e2eid}`
    const original = this.originals.get(key)
    const done = this.returned.get(key) ?? { cents: 0, ids: new Set<string>() }
    if (done.ids.has(rid)) return // the same return again: not a new amount
    const after = done.cents + centsOf(req.valor)
    const status = ex.response.status
    const accepted = status >= 200 && status < 300
    if (accepted) {
      done.cents = after
      done.ids.add(rid)
      keep(this.returned, key, done)
    }
    if (original === undefined || !(accepted || status === 400)) return
    const what = `returns of ${fromCentsText(after)} in all of a payment of ${fromCentsText(original)}`
    if (after > original) this.emit('7.return-value-exceeds-refundable-400', !accepted, `${what} were accepted`, ex)
    else if (done.ids.size > (accepted ? 1 : 0)) this.emit('4.11.partial-returns-up-to-original', accepted, `${what} refused with 400`, ex)
    else if (!accepted) this.emit('4.11.status-201', false, `a return of ${req.valor} of a payment of ${fromCentsText(original)} refused with 400`, ex)
  }

  /** The rules that compare surfaces: run once every exchange is in. */
  finish(): void {
    this.criacaoAgainstClock()
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
    // two surfaces that disagree do not say which is wrong: the clause broken is their agreement (2.1.view-current)
    for (const field of ['originalAmount', 'feeAmount', 'finalAmount']) {
      if (!money(v[field]) || !money(l[field])) continue
      this.emit('2.1.view-current', centsOf(v[field]) === centsOf(l[field]), `${field}: ${v[field]} in the single view, ${l[field]} in the listing`, ...both)
    }
    if (typeof v.type === 'string' && OPERATION_TYPE[v.type] && typeof l.operationType === 'string') {
      const okType = l.operationType === OPERATION_TYPE[v.type] && l.movementType === MOVEMENT[v.type]
      this.emit(TYPE_MAP_CLAUSE[v.type]!, okType, `type ${v.type} in the single view, ${l.operationType}/${l.movementType} in the listing (the table gives ${OPERATION_TYPE[v.type]}/${MOVEMENT[v.type]})`, ...both)
    }
    if (typeof l.status === 'string') {
      // §3.1 shows no transition, so a status may have moved on between two reads: the listing is
      // judged where the view shows the same status just before and just after it, or a moment apart
      const before = viewBefore(r.views, item.ex)
      const after = viewAfter(r.views, item.ex)
      const close = (v: Seen<Json> | undefined) => v !== undefined && !v.ex.untimed && !item.ex.untimed && Math.abs(Date.parse(v.ex.startedAt) - Date.parse(item.ex.startedAt)) <= 1_000 && Math.abs(v.ex.seq - item.ex.seq) === 1
      const around = before && after ? (before.value.status === after.value.status ? [before, after] : []) : close(before) ? [before!] : close(after) ? [after!] : []
      const expected = around[0]?.value.status
      if (typeof expected === 'string' && STATUS_TEXT[expected]) {
        this.emit(STATUS_MAP_CLAUSE[expected]!, STATUS_TEXT[expected] === l.status, `status ${expected} in the single view ${around.length === 2 ? 'before and after' : 'a moment from'} the listing, "${l.status}" in the listing`, ...around.map((s) => s.ex), item.ex)
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
    const cp = (x: Json) => (isObject(x.counterpart) ? x.counterpart : {})
    const a = cp(account.value)
    const b = cp(byKey.value)
    for (const f of ['name', 'document']) if (JSON.stringify(a[f]) !== JSON.stringify(b[f])) differ.push(`counterpart.${f}`)
    const bankA = isObject(a.bank) ? a.bank : {}
    const bankB = isObject(b.bank) ? b.bank : {}
    for (const f of ['bankISPB', 'bankName', 'bankCode', 'accountBranch', 'accountNumber']) if (JSON.stringify(bankA[f]) !== JSON.stringify(bankB[f])) differ.push(`counterpart.bank.${f}`)
    this.emit('2.2.same-view-both-listings', differ.length === 0, `transaction ${account.value.transactionId}: ${differ.join(', ')} differ between the account listing and the pix-key listing`, account.ex, byKey.ex)
  }
}

function fromCentsText(cents: number): string {
  return (cents / 100).toFixed(2)
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

/** Whose records these are: the bearer token or the API key the request carried, hashed (it may be written to the session's HAR). */
export function accountOf(ex: ObservedExchange): string {
  const credential = header(ex.request.headers, 'authorization') ?? header(ex.request.headers, 'x-api-key')
  return credential === undefined ? '(none)' : `credential ${createHash('sha256').update(credential).digest('hex').slice(0, 16)}`
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname
  } catch {
    return url
  }
}

export { requestJson }
