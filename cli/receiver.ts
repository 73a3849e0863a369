// `pix-conformance receiver` (issue 20, item 3): the kit plays the provider and delivers every
// notification kind of §6 to an integrator's own webhook endpoint, then the awkward deliveries a
// real provider makes (twice, late, out of order, with fields added, slowly). Each case is a check
// on the receiver clauses of specs/receiver-clauses.yaml; the report is the certification's
// (results.json, junit.xml, report.html). With --probe-url, the receiver's own account of what it
// recorded shows whether each payment was recorded exactly once (probe contract: README
// "Testing your webhook receiver"). Exit codes: 0 no clause failed, 1 a clause failed, 2 bad
// options or a receiver (or probe) that cannot be reached.

import { createHash, randomInt } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { connect as netConnect } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs as tokenize } from 'node:util'
import fc, { type Arbitrary } from 'fast-check'
import { MAX_TIMEOUT_MS } from '../harness/config.ts'
import { MIN_SECRET_LENGTH } from '../harness/redact.ts'
import { arbAmountNumber, fromCents, reaisOf } from '../generators/amounts.ts'
import { barcodeToLine, buildBarcode, formatLine } from '../generators/boleto.ts'
import { loadReceiverClauses, RECEIVER_CLAUSES_PATH } from '../generators/clauses.ts'
import { arbCnpj, arbCpf, maskDocument } from '../generators/documents.ts'
import { buildPixCode } from '../generators/emv.ts'
import { arbE2eId, arbObjectId, arbRtrId, arbTxid, arbUuid } from '../generators/ids.ts'
import { OPENAPI_ID, OPENAPI_PATH, validator, webhookSchema } from '../generators/openapi.ts'
import { arbValid } from '../generators/schema-arb.ts'
import { ArgsError, MAX_SEED } from './args.ts'
import { shellQuote } from './reporting/command.ts'
import { colourWanted, oneLine, paint, type Paint } from './reporting/progress.ts'
import { buildResults } from './reporting/results.ts'
import { kitVersion, makeRunId } from './reporting/run-info.ts'
import { Scrubber } from './reporting/scrub.ts'
import type { CheckResult, ClauseInfo, EvidenceExchange, Results, RunVerdict } from './reporting/types.ts'
import { prepareRunDir, removeIfEmpty, writeReport } from './reporting/write.ts'

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const EXIT_PASSED = 0
const EXIT_FAILED = 1
const EXIT_UNUSABLE = 2
const DEFAULT_TIMEOUT_MS = 5_000
/** How long the slow-read case takes to send its body, and in how many pieces. */
const SLOW_READ_MS = 2_000
const SLOW_READ_PIECES = 8
const PROBE_POLL_MS = 200
const MAX_EVIDENCE_BODY = 2_000
const SOURCE_FILE = 'cli/receiver.ts'

export const RECEIVER_USAGE = `Usage: pix-conformance receiver --url URL [flags]
       (in the repository: npm run conformance -- receiver --url URL [flags])

Plays the provider against YOUR webhook receiver: delivers every notification kind of §6 (V1
PAID, PENDING, CANCELED, REFUND; V2 RECEIVE, REFUND, TRANSFER; bank slip WAITING_PAYMENT, PAID),
then the same notification twice (in turn and at once), a resend after the others, out-of-order
deliveries, unknown extra fields and a slowly sent body. Each must be answered 200 in time.
The notifications announce payments that never happened: point it at a test deployment.

  --url URL           the receiver's webhook endpoint (http or https), required
  --probe-url URL     a GET endpoint of yours that reports what the receiver recorded:
                      { "recorded": [ { "id": "<payment id>", "count": N } ] }; then each payment
                      must be recorded exactly once (README "Testing your webhook receiver")
  --timeout MS        time the receiver has to answer each notification (default ${DEFAULT_TIMEOUT_MS})
  --ca FILE           PEM certificate(s) to trust for an https receiver (and probe)
  --client-cert FILE  PEM certificate to present, as providers that deliver over mTLS do
  --client-key FILE   its private key (PEM); given together with --client-cert
  --report-dir DIR    where reports/<run-id>/ goes (default: reports/)
  --seed N            seed of the generated notifications (0..${MAX_SEED}); ids are new every run
  --help              this text

Exit codes: 0 no receiver clause failed, 1 a clause failed, 2 bad options, or the receiver or
the probe could not be reached.`

// =============================================================================================
// Options

export interface ReceiverOptions {
  url: URL
  probeUrl?: URL
  timeoutMs: number
  caFile?: string
  clientCertFile?: string
  clientKeyFile?: string
  reportDir?: string
  seed?: number
  help: boolean
}

const FLAGS = ['url', 'probe-url', 'timeout', 'ca', 'client-cert', 'client-key', 'report-dir', 'seed'] as const

export function parseReceiverArgs(argv: readonly string[]): ReceiverOptions {
  const options = Object.fromEntries([...FLAGS.map((f) => [f, { type: 'string' as const }]), ['help', { type: 'boolean' as const, short: 'h' }]])
  const { tokens } = tokenize({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true })
  const given: Record<string, string> = {}
  let help = false
  for (const token of tokens) {
    if (token.kind !== 'option') throw new ArgsError(token.kind === 'positional' ? token.value : '--', 'unexpected argument to receiver (see receiver --help)')
    const flag = `--${token.name}`
    if (token.name === 'help' || token.name === 'h') {
      help = true
      continue
    }
    if (!(FLAGS as readonly string[]).includes(token.name)) throw new ArgsError(flag, 'unknown flag of receiver (see receiver --help)')
    if (token.value === undefined || token.value.trim() === '' || (!token.inlineValue && token.value.startsWith('--'))) throw new ArgsError(flag, 'needs a value')
    given[token.name] = token.value
  }
  if (help) return { url: new URL('http://unused.invalid'), timeoutMs: DEFAULT_TIMEOUT_MS, help }
  if (!given.url) throw new ArgsError('--url', "is required: the receiver's webhook endpoint")
  if (Boolean(given['client-cert']) !== Boolean(given['client-key'])) {
    throw new ArgsError(given['client-cert'] ? '--client-key' : '--client-cert', 'is needed with the other: a certificate is presented with its key')
  }
  return {
    url: httpUrl('--url', given.url),
    ...(given['probe-url'] ? { probeUrl: httpUrl('--probe-url', given['probe-url']) } : {}),
    timeoutMs: given.timeout ? integer('--timeout', given.timeout, 1, MAX_TIMEOUT_MS) : DEFAULT_TIMEOUT_MS,
    ...(given.ca ? { caFile: given.ca } : {}),
    ...(given['client-cert'] ? { clientCertFile: given['client-cert'], clientKeyFile: given['client-key'] } : {}),
    ...(given['report-dir'] ? { reportDir: given['report-dir'] } : {}),
    ...(given.seed ? { seed: integer('--seed', given.seed, 0, MAX_SEED) } : {}),
    help,
  }
}

function httpUrl(flag: string, value: string): URL {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new ArgsError(flag, `"${value}" is not a URL`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ArgsError(flag, `must be an http or https URL, got ${url.protocol}`)
  return url
}

function integer(flag: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value)) throw new ArgsError(flag, `"${value}" is not a whole number`)
  const n = Number(value)
  if (n < min || n > max) throw new ArgsError(flag, `${value} must be between ${min} and ${max}`)
  return n
}

// =============================================================================================
// Notifications: generated from the contract's webhook schemas, with realistic values laid over
// the generated ones and the result checked against the schema again.

type Json = Record<string, unknown>
type WebhookName = 'pixNotificationV1' | 'pixReceiveV2' | 'pixRefundV2' | 'pixTransferV2' | 'bankSlipWaitingPayment' | 'bankSlipPaid'
export type V1Status = 'PAID' | 'PENDING' | 'CANCELED' | 'REFUND'

export interface Notification {
  webhook: WebhookName
  /** What a person reads: `V1 PAID`, `bank slip WAITING_PAYMENT`. */
  label: string
  body: Json
  /** The probe keys of the payments it announces; none for a status-only notification. */
  payments: string[]
}

/** Draws single values from arbitraries, deterministically from a seed. */
class Draw {
  private n = 0
  constructor(private readonly seed: number) {}
  one<T>(arb: Arbitrary<T>): T {
    this.n++
    // unbiased: the first draw of a biased arbitrary is an edge value (ffffffec-0008-4000-…)
    return fc.sample(fc.noBias(arb), { seed: (this.seed + 104_729 * this.n) | 0, numRuns: 1 })[0] as T
  }
}

const FIRST_NAMES = ['Ana', 'João', 'Maria', 'José', 'Francisca', 'Antônio', 'Luíza', 'Carlos', 'Fernanda', 'Paulo']
const LAST_NAMES = ['Silva', 'Santos', 'Oliveira', 'Souza', 'Pereira', 'Lima', 'Carvalho', 'Gonçalves', 'Araújo', 'Conceição']
const BANKS: [name: string, code: string, ispb: string][] = [
  ['Banco do Brasil S.A.', '001', '00000000'], ['Caixa Econômica Federal', '104', '00360305'],
  ['Itaú Unibanco S.A.', '341', '60701190'], ['Banco Bradesco S.A.', '237', '60746948'], ['Nu Pagamentos S.A.', '260', '18236120'],
]

const digits = (min: number, max = min): Arbitrary<string> => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max })
const personName = (): Arbitrary<string> => fc.tuple(fc.constantFrom(...FIRST_NAMES), fc.constantFrom(...LAST_NAMES)).map(([f, l]) => `${f} ${l}`)
const documentDigits = (): Arbitrary<string> => fc.oneof({ weight: 3, arbitrary: arbCpf() }, { weight: 1, arbitrary: arbCnpj() })
const amountCents = (): Arbitrary<number> => fc.integer({ min: 1, max: 5_000_00 })
const pixKey = (): Arbitrary<string> =>
  fc.oneof(arbCpf(), arbUuid(), personName().map((n) => `${n.toLowerCase().normalize('NFD').replace(/[^a-z ]/g, '').replace(' ', '.')}@example.com`))

/** The party fields of a V1 notification (`Payer…`, `Receiver…`), realistic. */
function partyArb(prefix: 'Payer' | 'Receiver'): Arbitrary<Json> {
  return fc.record({ name: personName(), document: documentDigits(), bank: fc.constantFrom(...BANKS), branch: digits(4), account: digits(5, 10) })
    .map(({ name, document, bank, branch, account }) => ({
      [`${prefix}Name`]: name, [`${prefix}DocumentNumber`]: document, [`${prefix}BankName`]: bank[0], [`${prefix}BankCode`]: bank[1],
      [`${prefix}BankISPB`]: bank[2], [`${prefix}BankBranch`]: branch, [`${prefix}BankAccount`]: account,
    }))
}

/**
 * The fields common to both slip notifications. WAITING_PAYMENT is drawn from these rather than its
 * whole schema: its additionalInfo is built below anyway, and drawing its `pdfUrl` (format uri) would
 * cost seconds (fast-check's web-URL arbitrary). The result is checked against the whole schema.
 */
const SLIP_COMMON_FIELDS = { $ref: `${OPENAPI_ID}#/components/schemas/BankSlipNotification` }

export class NotificationFactory {
  private readonly shapes: Draw
  private readonly ids: Draw
  private readonly arbs = new Map<WebhookName, Arbitrary<unknown>>()

  /**
   * `seed` decides the shapes and values; `idSeed` the ids, new every run so that a replay with the
   * same seed is not itself a duplicate delivery to the receiver.
   */
  constructor(seed: number, idSeed: number, private readonly now: Date = new Date()) {
    this.shapes = new Draw(seed)
    this.ids = new Draw(idSeed)
  }

  v1(status: V1Status): Notification {
    const base = this.generated('pixNotificationV1')
    const body: Json = {
      ...base,
      transactionId: this.ids.one(fc.oneof(arbUuid(), arbObjectId())),
      businessTransactionId: this.externalId(),
      status,
      value: this.shapes.one(arbAmountNumber()),
      movementType: 'IN', // the one value §6.1 shows
      endToEndId: this.ids.one(arbE2eId()),
      pixKey: this.shapes.one(pixKey()),
      createdDate: this.now.toISOString(),
    }
    // §6.1: payer and receiver blocks "when available": the schema draw decides which fields are present
    for (const prefix of ['Payer', 'Receiver'] as const) {
      const party = this.shapes.one(partyArb(prefix))
      for (const key of Object.keys(party)) if (key in base) body[key] = party[key]
    }
    return this.checked('pixNotificationV1', `V1 ${status}`, body, status === 'PAID' || status === 'REFUND' ? [body.transactionId as string] : [])
  }

  /** The same V1 transaction in another status (its own notification). */
  v1Update(of: Notification, status: V1Status): Notification {
    const body: Json = { ...of.body, status }
    return this.checked('pixNotificationV1', `V1 ${status}`, body, status === 'PAID' || status === 'REFUND' ? [body.transactionId as string] : [])
  }

  receive(): Notification {
    const base = this.generated('pixReceiveV2')
    const data = base.data as Json
    const document = this.shapes.one(documentDigits())
    const body: Json = {
      ...base,
      type: 'RECEIVE',
      data: {
        ...data,
        id: this.ids.one(fc.integer({ min: 1, max: 2 ** 31 - 1 })),
        txId: this.ids.one(arbTxid()),
        status: 'LIQUIDATED',
        payment: { ...(data.payment as Json), amount: fromCents(this.shapes.one(amountCents())), currency: 'BRL' },
        endToEndId: this.ids.one(arbE2eId()),
        debtorAccount: { ...(data.debtorAccount as Json), name: this.shapes.one(personName()), document: maskDocument(document) },
      },
    }
    return this.checked('pixReceiveV2', 'V2 RECEIVE', body, [(body.data as Json).endToEndId as string])
  }

  refund(): Notification {
    const base = this.generated('pixRefundV2')
    const original = this.shapes.one(amountCents())
    const refunded = this.shapes.one(fc.integer({ min: 1, max: original }))
    const returnE2e = this.ids.one(arbRtrId())
    const body: Json = {
      ...base,
      type: 'REFUND',
      data: {
        ...(base.data as Json),
        id: this.ids.one(fc.integer({ min: 1, max: 2 ** 31 - 1 })), // type not shown (§6.2): a number, as RECEIVE's
        txId: this.ids.one(arbTxid()),
        status: 'REFUNDED',
        payment: { amount: fromCents(original), currency: 'BRL' }, // type not shown: a string, as RECEIVE's
        refunds: [{
          status: 'LIQUIDATED', payment: { amount: reaisOf(refunded), currency: 'BRL' }, endToEndId: returnE2e,
          eventDate: this.now.toISOString(), information: this.shapes.one(fc.constantFrom('Devolução', 'Devolução a pedido do cliente', 'Estorno')),
        }],
        endToEndId: this.ids.one(arbE2eId()),
        creditDebitType: 'DEBIT',
      },
    }
    return this.checked('pixRefundV2', 'V2 REFUND', body, [returnE2e])
  }

  /**
   * §6.2 shows only the type of a TRANSFER event (payload: not shown). The kit's choice: a `data`
   * shaped like RECEIVE's. No payment key: what a receiver records of it is not the kit's to say.
   */
  transfer(): Notification {
    const body: Json = {
      ...this.generated('pixTransferV2'),
      type: 'TRANSFER',
      data: {
        id: this.ids.one(fc.integer({ min: 1, max: 2 ** 31 - 1 })),
        status: 'LIQUIDATED',
        payment: { amount: fromCents(this.shapes.one(amountCents())), currency: 'BRL' },
        endToEndId: this.ids.one(arbE2eId()),
      },
    }
    return this.checked('pixTransferV2', 'V2 TRANSFER', body, [])
  }

  /** One bank slip's two notifications: registered (WAITING_PAYMENT), then paid (PAID). */
  slip(): { waiting: Notification; paid: Notification } {
    const paymentId = this.ids.one(arbUuid())
    const externalId = this.externalId()
    const cents = this.shapes.one(amountCents())
    const amount = reaisOf(cents)
    const [bankName, bankCode] = this.shapes.one(fc.constantFrom(...BANKS))
    const dueDate = new Date(this.now.getTime() + 10 * 86_400_000).toISOString().slice(0, 10)
    const barcode = buildBarcode({ bankCode, currency: '9', dueDate, amount, freeField: this.ids.one(digits(25)) })
    const pixCode = buildPixCode({ key: this.shapes.one(arbUuid()), amount: fromCents(cents), merchantName: 'CONFORMANCE KIT', merchantCity: 'SAO PAULO', txid: this.ids.one(arbTxid()) })
    const common = { product: 'BOLETO', paymentId, externalId, processedAt: this.now.toISOString() }
    const waiting = this.checked('bankSlipWaitingPayment', 'bank slip WAITING_PAYMENT', {
      ...this.generated('bankSlipWaitingPayment', SLIP_COMMON_FIELDS), ...common, status: 'WAITING_PAYMENT',
      additionalInfo: { pdfUrl: `https://boletos.example.com/${paymentId}.pdf`, pixCode, barcode, slipLine: formatLine(barcodeToLine(barcode)), issuingBank: bankName },
    }, [])
    const paid = this.checked('bankSlipPaid', 'bank slip PAID', {
      ...this.generated('bankSlipPaid'), ...common, status: 'PAID', amount,
      additionalInfo: { amount, paymentType: this.shapes.one(fc.integer({ min: 1, max: 3 })), paymentDate: this.now.toISOString() },
    }, [paymentId])
    return { waiting, paid }
  }

  private externalId(): string {
    return `conformance-${this.ids.one(fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 12, maxLength: 12 }))}`
  }

  /** A draw from the webhook's schema, or from `from` (a schema of its parts) when given. */
  private generated(name: WebhookName, from?: object): Json {
    let arb = this.arbs.get(name)
    if (!arb) this.arbs.set(name, (arb = arbValid(from ?? webhookSchema(name))))
    return this.shapes.one(arb) as Json
  }

  private checked(name: WebhookName, label: string, body: Json, payments: string[]): Notification {
    const validate = validator(webhookSchema(name))
    if (!validate(body)) throw new Error(`kit bug: the ${label} notification does not match specs/openapi.yaml webhooks.${name}: ${JSON.stringify(validate.errors)}`)
    return { webhook: name, label, body, payments }
  }
}

/** A copy with fields the interface does not list, at the top level and in the first nested object. */
export function withUnknownFields(n: Notification): Notification {
  const body: Json = { ...n.body, kitUnknownField: 'a field this notification did not carry before', kitUnknownObject: { nested: [1, 'two', null], flag: true } }
  const nestedKey = ['data', 'additionalInfo'].find((k) => typeof body[k] === 'object' && body[k] !== null)
  if (nestedKey) body[nestedKey] = { ...(body[nestedKey] as Json), kitUnknownField: 42 }
  return { ...n, label: `${n.label} with unknown fields`, body }
}

// =============================================================================================
// Cases: each becomes one check of the report

const R = {
  ack: 'R.ack-200',
  duplicate: 'R.duplicate-idempotent',
  resend: 'R.resend-idempotent',
  order: 'R.out-of-order',
  unknown: 'R.unknown-fields',
  slow: 'R.slow-read',
  once: 'R.recorded-once',
} as const

export interface Step {
  /** For messages: "the second delivery of V1 PAID". */
  what: string
  notification: Notification
  /** The clause a delivery not answered 200 in time breaks. */
  clause: string
  slow?: boolean
  /** Sent at the same moment as the step before it. */
  withPrevious?: boolean
  /** Sent after every other case's deliveries, as a resend comes. */
  late?: boolean
}

export interface Case {
  area: string
  title: string
  steps: Step[]
  /** A refusal says nothing of the receiver: the payload is the kit's own choice (TRANSFER). */
  refusalInconclusive?: string
}

export function buildCases(f: NotificationFactory): Case[] {
  const one = (area: string, n: Notification, clause: string = R.ack, extra: Partial<Case> = {}): Case =>
    ({ area, title: n.label, steps: [{ what: `the ${n.label} notification`, notification: n, clause }], ...extra })
  const twice = (title: string, first: Notification, second: Step): Case =>
    ({ area: 'duplicates', title, steps: [{ what: `the first delivery of ${first.label}`, notification: first, clause: R.ack }, second] })

  const slipA = f.slip()
  const kinds: Case[] = [
    one('kinds', f.v1('PAID')),
    one('kinds', f.v1('PENDING')),
    one('kinds', f.v1('CANCELED')),
    { ...one('kinds', f.v1('REFUND')), title: 'V1 REFUND (REFUND_IN and REFUND_OUT are notified as REFUND)' },
    one('kinds', f.receive()),
    one('kinds', f.refund()),
    one('kinds', f.transfer(), R.ack, { refusalInconclusive: 'the interface does not show the TRANSFER payload (§6.2); the kit sent a data block shaped like RECEIVE, which this receiver may legitimately not know' }),
    one('kinds', slipA.waiting),
    one('kinds', slipA.paid),
  ]

  const v1Dup = f.v1('PAID')
  const receiveDup = f.receive()
  const slipDup = f.slip()
  const v1Together = f.v1('PAID')
  const v1Resend = f.v1('PAID')
  const duplicates: Case[] = [
    twice('the same V1 PAID notification twice', v1Dup, { what: 'the second delivery of the same V1 PAID', notification: v1Dup, clause: R.duplicate }),
    twice('the same V2 RECEIVE notification twice', receiveDup, { what: 'the second delivery of the same V2 RECEIVE', notification: receiveDup, clause: R.duplicate }),
    {
      area: 'duplicates', title: 'the same bank slip PAID notification twice',
      steps: [
        { what: 'the bank slip WAITING_PAYMENT notification', notification: slipDup.waiting, clause: R.ack },
        { what: 'the first delivery of bank slip PAID', notification: slipDup.paid, clause: R.ack },
        { what: 'the second delivery of the same bank slip PAID', notification: slipDup.paid, clause: R.duplicate },
      ],
    },
    {
      area: 'duplicates', title: 'the same V1 PAID notification twice at once',
      steps: [
        { what: 'one of two simultaneous deliveries of V1 PAID', notification: v1Together, clause: R.duplicate },
        { what: 'the other of two simultaneous deliveries of V1 PAID', notification: v1Together, clause: R.duplicate, withPrevious: true },
      ],
    },
    {
      area: 'duplicates', title: 'a V1 PAID notification resent after the others',
      steps: [
        { what: 'the original V1 PAID', notification: v1Resend, clause: R.ack },
        { what: 'the resend of the same V1 PAID (after the other notifications)', notification: v1Resend, clause: R.resend, late: true },
      ],
    },
  ]

  const slipLate = f.slip()
  const v1Early = f.v1('PAID')
  const ordering: Case[] = [
    {
      area: 'ordering', title: 'bank slip PAID before its WAITING_PAYMENT',
      steps: [
        { what: 'bank slip PAID, sent before the slip was notified as registered', notification: slipLate.paid, clause: R.order },
        { what: 'the bank slip WAITING_PAYMENT that arrives after its PAID', notification: slipLate.waiting, clause: R.order },
      ],
    },
    {
      area: 'ordering', title: 'V1 PAID before PENDING of the same transaction',
      steps: [
        { what: 'V1 PAID, sent first', notification: v1Early, clause: R.order },
        { what: 'the V1 PENDING of the same transaction, arriving after its PAID', notification: f.v1Update(v1Early, 'PENDING'), clause: R.order },
      ],
    },
  ]

  const slipExtra = f.slip()
  const payload: Case[] = [
    one('payload', withUnknownFields(f.v1('PAID')), R.unknown),
    one('payload', withUnknownFields(f.receive()), R.unknown),
    {
      area: 'payload', title: slipExtra.paid.label + ' with unknown fields',
      steps: [
        { what: 'the bank slip WAITING_PAYMENT notification', notification: slipExtra.waiting, clause: R.ack },
        { what: 'bank slip PAID with unknown fields', notification: withUnknownFields(slipExtra.paid), clause: R.unknown },
      ],
    },
  ]

  const slowOne = f.v1('PAID')
  const slow: Case[] = [{
    area: 'slow-read', title: 'a V1 PAID notification whose body arrives slowly',
    steps: [{ what: 'V1 PAID sent slowly, in pieces', notification: slowOne, clause: R.slow, slow: true }],
  }]
  return [...kinds, ...duplicates, ...ordering, ...payload, ...slow]
}

/** The probe keys a case's notifications announce, each once. */
export function paymentsOf(c: Case): string[] {
  return [...new Set(c.steps.flatMap((s) => s.notification.payments))]
}

// =============================================================================================
// Delivery over HTTP(S)

export interface Transport {
  timeoutMs: number
  tls: { ca?: Buffer; cert?: Buffer; key?: Buffer }
  userAgent: string
  slowReadMs: number
}

export interface Answer {
  status?: number
  body: string
  /** From the last byte sent to the end of the answer. */
  durationMs: number
  error?: string
}

function send(url: URL, method: 'GET' | 'POST', t: Transport, body?: string, slow = false): Promise<Answer> {
  return new Promise((settle) => {
    const started = Date.now()
    let sentAt: number | undefined
    let answerTimer: NodeJS.Timeout | undefined
    let done = false
    const finish = (a: Omit<Answer, 'durationMs'>) => {
      if (done) return
      done = true
      clearTimeout(answerTimer)
      clearTimeout(backstop)
      settle({ ...a, durationMs: Date.now() - (sentAt ?? started) })
      req.destroy()
    }
    const headers: Record<string, string> = { 'user-agent': t.userAgent, accept: 'application/json' }
    if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) })
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest
    const req: ClientRequest = request(url, { method, headers, agent: false, ...t.tls }, (res: IncomingMessage) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { if (text.length < MAX_EVIDENCE_BODY) text += chunk })
      res.on('end', () => finish({ status: res.statusCode, body: text.slice(0, MAX_EVIDENCE_BODY) }))
      res.on('error', (e) => finish({ status: res.statusCode, body: text, error: describeError(e) }))
    })
    req.on('error', (e) => finish({ body: '', error: describeError(e) }))
    // should the request never finish being sent (a receiver that stops reading), the run still ends
    const limit = t.timeoutMs + (slow ? t.slowReadMs : 0) + 1_000
    const backstop = setTimeout(() => finish({ body: '', error: `no answer within ${limit} ms of the first byte (the body could not be sent)` }), limit)
    // the receiver's time starts with the last byte handed over
    const endAndStartClock = (last?: string) => {
      if (done) return
      sentAt = Date.now()
      answerTimer = setTimeout(() => finish({ body: '', error: `no answer within ${t.timeoutMs} ms` }), t.timeoutMs)
      if (last === undefined) req.end()
      else req.end(last)
    }
    if (body !== undefined && slow) void sendSlowly(req, body, t.slowReadMs).then((last) => endAndStartClock(last))
    else endAndStartClock(body)
  })
}

/** Writes all but the last piece, a pause before each; resolves with the last piece (req.end sends it). */
async function sendSlowly(req: ClientRequest, body: string, totalMs: number): Promise<string> {
  const chars = [...body]
  const size = Math.ceil(chars.length / SLOW_READ_PIECES)
  const pieces: string[] = []
  for (let at = 0; at < chars.length; at += size) pieces.push(chars.slice(at, at + size).join(''))
  for (const piece of pieces.slice(0, -1)) {
    if (req.destroyed) break
    req.write(piece)
    await new Promise((r) => setTimeout(r, totalMs / SLOW_READ_PIECES))
  }
  await new Promise((r) => setTimeout(r, totalMs / SLOW_READ_PIECES))
  return pieces[pieces.length - 1] ?? ''
}

function describeError(e: Error & { code?: string }): string {
  if (e.code === 'ECONNREFUSED') return 'connection refused'
  if (e.code === 'ECONNRESET') return 'connection reset'
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') return 'host name does not resolve'
  return e.code ? `${e.code}: ${e.message}` : e.message
}

const TLS_TRUST_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'ERR_TLS_CERT_ALTNAME_INVALID',
])

/** Opens (and closes) a connection: undefined when it works, else why, in terms of the flags. */
function reachable(url: URL, t: Transport): Promise<string | undefined> {
  return new Promise((settle) => {
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80))
    const host = url.hostname.replace(/^\[|\]$/g, '')
    const socket = url.protocol === 'https:'
      ? tlsConnect({ host, port, servername: host === url.hostname && !/^[\d.]+$/.test(host) ? host : undefined, ...t.tls }, () => finish(undefined))
      : netConnect({ host, port }, () => finish(undefined))
    const timer = setTimeout(() => finish(`no connection within ${t.timeoutMs} ms`), t.timeoutMs)
    function finish(problem: string | undefined): void {
      clearTimeout(timer)
      socket.destroy()
      settle(problem)
    }
    socket.on('error', (e: Error & { code?: string }) => {
      if (e.code && TLS_TRUST_CODES.has(e.code)) finish(`its TLS certificate is not trusted (${e.code}); give the CA with --ca FILE`)
      else finish(describeError(e))
    })
  })
}

// =============================================================================================
// The probe: GET → 200 { "recorded": [ { "id": "...", "count": N } ] }

export type ProbeRead = { ok: true; counts: Map<string, number>; exchange: EvidenceExchange } | { ok: false; problem: string; exchange: EvidenceExchange }

export async function readProbe(url: URL, t: Transport): Promise<ProbeRead> {
  const answer = await send(url, 'GET', t)
  const exchange = exchangeOf(url, 'GET', undefined, answer)
  if (answer.error) return { ok: false, problem: answer.error, exchange }
  if (answer.status !== 200) return { ok: false, problem: `answered ${answer.status}, not 200`, exchange }
  const parsed = parseProbeBody(answer.body)
  return typeof parsed === 'string' ? { ok: false, problem: parsed, exchange } : { ok: true, counts: parsed, exchange }
}

/** The counts by id, or what is wrong with the body (ids given twice are added up). */
export function parseProbeBody(text: string): Map<string, number> | string {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return 'its body is not JSON'
  }
  const recorded = (json as { recorded?: unknown } | null)?.recorded
  if (!Array.isArray(recorded)) return 'its body has no "recorded" array'
  const counts = new Map<string, number>()
  for (const [i, entry] of recorded.entries()) {
    const { id, count } = (entry ?? {}) as { id?: unknown; count?: unknown }
    if (typeof id !== 'string' || !Number.isInteger(count) || (count as number) < 0) return `recorded[${i}] is not { "id": string, "count": whole number ≥ 0 }`
    counts.set(id, (counts.get(id) ?? 0) + (count as number))
  }
  return counts
}

// =============================================================================================
// Running the cases

export interface CaseRun {
  c: Case
  answers: Answer[]
  exchanges: EvidenceExchange[]
  durationMs: number
}

async function deliverAll(url: URL, cases: Case[], t: Transport, onCase: (run: CaseRun) => void): Promise<CaseRun[]> {
  const runs: CaseRun[] = cases.map((c) => ({ c, answers: [], exchanges: [], durationMs: 0 }))
  for (const late of [false, true]) {
    for (const run of runs) {
      const steps = run.c.steps.map((s, i) => ({ s, i })).filter(({ s }) => Boolean(s.late) === late)
      if (steps.length === 0) continue
      const started = Date.now()
      for (const group of groupsOf(steps)) {
        const answers = await Promise.all(group.map(({ s }) => send(url, 'POST', t, JSON.stringify(s.notification.body), s.slow)))
        group.forEach(({ s, i }, k) => {
          run.answers[i] = answers[k]!
          run.exchanges[i] = exchangeOf(url, 'POST', s.notification.body, answers[k]!)
        })
      }
      run.durationMs += Date.now() - started
      if (late || !run.c.steps.some((s) => s.late)) onCase(run)
    }
  }
  return runs
}

/** Steps in delivery groups: a step `withPrevious` joins the group before it. */
function groupsOf<T extends { s: Step }>(steps: T[]): T[][] {
  const groups: T[][] = []
  for (const step of steps) {
    if (step.s.withPrevious && groups.length > 0) groups[groups.length - 1]!.push(step)
    else groups.push([step])
  }
  return groups
}

function exchangeOf(url: URL, method: string, body: unknown, a: Answer): EvidenceExchange {
  let json: unknown
  try {
    json = a.body ? JSON.parse(a.body) : undefined
  } catch {
    json = undefined
  }
  return {
    request: { method, url: url.href, ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body } : {}) },
    response: {
      status: a.status ?? 0,
      body: a.body,
      ...(json !== undefined ? { json } : {}),
      durationMs: a.durationMs,
      ...(a.error ? { error: a.error } : {}),
    },
  }
}

/** Reads the probe until every expected key shows up (a receiver may record asynchronously) or time runs out. */
async function settledProbe(url: URL, expected: string[], t: Transport): Promise<ProbeRead> {
  const deadline = Date.now() + t.timeoutMs
  for (;;) {
    const read = await readProbe(url, t)
    if (!read.ok || expected.every((k) => (read.counts.get(k) ?? 0) >= 1) || Date.now() >= deadline) return read
    await new Promise((r) => setTimeout(r, PROBE_POLL_MS))
  }
}

// =============================================================================================
// Verdicts

type Outcome =
  | { status: 'passed' }
  | { status: 'failed'; clause: string; specifics: string; exchange?: EvidenceExchange }
  | { status: 'inconclusive'; reason: string }
  | { status: 'blocked'; reason: string; exchange?: EvidenceExchange }

const answeredInTime = (a: Answer): boolean => a.error === undefined && a.status === 200

function describeAnswer(a: Answer): string {
  if (a.error) return a.error
  const body = a.body.trim() ? `: ${oneLine(a.body, 120)}` : ''
  return `answered ${a.status} after ${a.durationMs} ms${body}`
}

/** The deliveries of a case: each answered 200 in time, else the step's clause fails. */
export function judgeDeliveries(run: CaseRun, t: Transport): Outcome {
  for (const [i, step] of run.c.steps.entries()) {
    const a = run.answers[i]!
    if (answeredInTime(a)) continue
    if (run.c.refusalInconclusive) return { status: 'inconclusive', reason: `${step.what} ${describeAnswer(a)}; ${run.c.refusalInconclusive}` }
    return { status: 'failed', clause: step.clause, specifics: `${step.what} ${describeAnswer(a)}; expected 200 within ${t.timeoutMs} ms`, exchange: run.exchanges[i] }
  }
  return { status: 'passed' }
}

/** The payments a delivery was answered 200 to: the receiver says it processed them (§6). */
export function acknowledgedPayments(run: CaseRun): string[] {
  return [...new Set(run.c.steps.flatMap((s, i) => (answeredInTime(run.answers[i]!) ? s.notification.payments : [])))]
}

/**
 * What the probe says of a case's payments: each recorded exactly once, whatever the receiver
 * answered to the repeats. A payment no delivery of which was answered 200 has no verdict.
 */
export function judgeRecorded(run: CaseRun, probe: ProbeRead): Outcome {
  if (!probe.ok) return { status: 'blocked', reason: `the probe (--probe-url) ${probe.problem}`, exchange: probe.exchange }
  const acknowledged = acknowledgedPayments(run)
  const unanswered = paymentsOf(run.c).filter((key) => !acknowledged.includes(key))
  for (const key of acknowledged) {
    const count = probe.counts.get(key) ?? 0
    if (count === 1) continue
    const deliveries = run.c.steps.filter((s) => s.notification.payments.includes(key)).length
    return {
      status: 'failed', clause: R.once, exchange: probe.exchange,
      specifics: `the probe reports payment ${key} recorded ${count} time${count === 1 ? '' : 's'} after ${deliveries} deliver${deliveries === 1 ? 'y' : 'ies'} of it; expected exactly once`,
    }
  }
  if (unanswered.length > 0) return { status: 'blocked', reason: `no delivery of payment ${unanswered.join(', ')} was answered 200, so the receiver need not have recorded it` }
  return { status: 'passed' }
}

interface CheckPlace {
  id: string
  title: string
  area: string
  clauses: string[]
  needs: string[]
}

function checkOf(place: CheckPlace, run: CaseRun, outcome: Outcome, catalogue: Map<string, ClauseInfo>, seed: number, command: string): CheckResult {
  const base: CheckResult = {
    ...place, file: SOURCE_FILE, status: outcome.status, durationMs: run.durationMs, seed, replayCommand: command, exchanges: run.exchanges,
  }
  switch (outcome.status) {
    case 'passed': return base
    case 'inconclusive': return { ...base, reason: outcome.reason }
    case 'blocked': return { ...base, reason: outcome.reason, exchanges: [...run.exchanges, ...(outcome.exchange ? [outcome.exchange] : [])] }
    case 'failed': {
      const statement = catalogue.get(outcome.clause)?.statement
      const evidence = outcome.exchange ? [outcome.exchange, ...run.exchanges.filter((e) => e !== outcome.exchange)] : run.exchanges
      return { ...base, failedClause: outcome.clause, message: `${outcome.clause}${statement ? ` — ${statement}` : ''}\n${outcome.specifics}`, exchanges: evidence }
    }
  }
}

/** A case's checks: its deliveries, and with a probe what the receiver recorded of its payments. */
export function checksOf(run: CaseRun, t: Transport, probe: ProbeRead | undefined, catalogue: Map<string, ClauseInfo>, seed: number, command: string): CheckResult[] {
  const c = run.c
  const deliveries = checkOf({ id: `receiver/${c.area}::${c.title}`, title: c.title, area: c.area, clauses: [...new Set(c.steps.map((s) => s.clause))], needs: [] },
    run, judgeDeliveries(run, t), catalogue, seed, command)
  if (!probe || paymentsOf(c).length === 0) return [deliveries]
  const title = `${c.title}: each payment recorded once`
  const recorded = checkOf({ id: `receiver/recorded::${title}`, title, area: 'recorded', clauses: [R.once], needs: ['probe-url'] },
    run, judgeRecorded(run, probe), catalogue, seed, command)
  return [deliveries, recorded]
}

const NO_PROBE_REASON = 'needs --probe-url: a URL of yours that reports what the receiver recorded (README "Testing your webhook receiver")'

function probeSkippedCheck(seed: number): CheckResult {
  return {
    id: 'receiver/recorded::each payment recorded exactly once', title: 'each payment recorded exactly once', area: 'recorded', file: SOURCE_FILE,
    clauses: [R.once], needs: ['probe-url'], status: 'skipped', durationMs: 0, seed, skipReason: NO_PROBE_REASON,
  }
}

/** `PASSED — 6 of 7 receiver clauses verified (1 needs --probe-url)`, and the like. */
export function receiverVerdict(r: Omit<Results, 'verdict'>): RunVerdict {
  const must = r.clauses.filter((c) => c.level === 'must')
  const verified = must.filter((c) => c.status === 'passed').length
  const result: RunVerdict['result'] =
    r.summary.failed > 0 || r.errors.length > 0 ? 'FAILED'
    : r.summary.total === 0 ? 'NO CHECKS RAN'
    : r.summary.blocked > 0 || r.summary.inconclusive > 0 ? 'INCOMPLETE'
    : 'PASSED'
  const why: string[] = []
  const failed = must.filter((c) => c.status === 'failed').map((c) => c.id)
  if (failed.length) why.push(`${failed.join(', ')} failed`)
  const count = (status: string) => must.filter((c) => c.status === status).length
  if (count('not-reached')) why.push(`${count('not-reached')} not reached`)
  if (count('inconclusive')) why.push(`${count('inconclusive')} inconclusive`)
  if (count('blocked')) why.push(`${count('blocked')} blocked by the probe`)
  if (count('skipped')) why.push(`${count('skipped')} needs --probe-url`)
  if (count('uncovered')) why.push(`${count('uncovered')} without a check`)
  return { result, headline: `${result} — ${verified} of ${must.length} receiver clauses verified${why.length ? ` (${why.join('; ')})` : ''}` }
}

// =============================================================================================
// The command

export interface ReceiverIo {
  out?: (line: string) => void
  err?: (line: string) => void
  /** Length of the slow-read case (tests shorten it). */
  slowReadMs?: number
  /** Colour the console lines (default: when stdout is a terminal). */
  colour?: boolean
}

/** `pix-conformance receiver …`: the exit code (0 passed, 1 a clause failed, 2 unusable). */
export async function receiverMain(argv: string[], io: ReceiverIo = {}): Promise<number> {
  const scrubber = new Scrubber()
  const say = (line = '') => (io.out ?? ((l: string) => process.stdout.write(`${l}\n`)))(scrubber.text(line))
  const complain = (line: string) => (io.err ?? ((l: string) => process.stderr.write(`${l}\n`)))(scrubber.text(line))
  let options: ReceiverOptions
  try {
    options = parseReceiverArgs(argv)
  } catch (e) {
    complain(`receiver: ${(e as Error).message}`)
    return EXIT_UNUSABLE
  }
  if (options.help) {
    say(RECEIVER_USAGE)
    return EXIT_PASSED
  }
  for (const url of [options.url, options.probeUrl]) if (url) for (const s of urlSecrets(url)) scrubber.add(s.name, s.value)
  const runId = makeRunId(new Date(), 'receiver')
  const runDir = join(resolve(options.reportDir ?? 'reports'), runId)
  try {
    return await run(options, { runId, runDir, say, complain, scrubber, io })
  } catch (e) {
    if (e instanceof ArgsError) {
      complain(`receiver: ${e.message}`)
      return EXIT_UNUSABLE
    }
    throw e
  } finally {
    removeIfEmpty(runDir)
  }
}

interface RunContext {
  runId: string
  runDir: string
  say: (line?: string) => void
  complain: (line: string) => void
  scrubber: Scrubber
  io: ReceiverIo
}

async function run(options: ReceiverOptions, ctx: RunContext): Promise<number> {
  const { say, complain, scrubber } = ctx
  const transport: Transport = {
    timeoutMs: options.timeoutMs,
    tls: tlsFiles(options),
    userAgent: `pix-conformance-receiver/${kitVersion(REPO_ROOT)}`,
    slowReadMs: ctx.io.slowReadMs ?? SLOW_READ_MS,
  }
  try {
    prepareRunDir(ctx.runDir)
  } catch (e) {
    throw new ArgsError('--report-dir', `cannot write reports under ${dirname(ctx.runDir)} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`)
  }
  const unreachable = await reachable(options.url, transport)
  if (unreachable) throw new ArgsError('--url', `the receiver ${options.url.href} cannot be reached: ${unreachable}`)
  if (options.probeUrl) {
    const first = await readProbe(options.probeUrl, transport)
    if (!first.ok) throw new ArgsError('--probe-url', `the probe ${options.probeUrl.href} ${first.problem} (it must answer 200 with { "recorded": [ { "id": "…", "count": N } ] })`)
  }

  const seed = options.seed ?? randomInt(0, MAX_SEED + 1)
  const startedAt = new Date()
  const catalogue = loadReceiverClauses()
  const byId = new Map<string, ClauseInfo>(catalogue.map((c) => [c.id, c]))
  const cases = buildCases(new NotificationFactory(seed, randomInt(0, MAX_SEED + 1), startedAt))
  const command = replayCommand(options, seed)
  const p = paint(ctx.io.colour ?? colourWanted(process.stdout))

  say(`Delivering §6 notifications to ${options.url.href} as a provider would`)
  say(p.dim(`seed ${seed} · answer within ${options.timeoutMs} ms · probe ${options.probeUrl?.href ?? '(none: recorded-once not checked)'} · run ${ctx.runId}`))
  complain('warning: these notifications announce payments that never happened; use a test deployment of the receiver')

  const runs = await deliverAll(options.url, cases, transport, (r) => say(caseLine(r, p)))
  const expected = runs.flatMap(acknowledgedPayments)
  const probe = options.probeUrl ? await settledProbe(options.probeUrl, expected, transport) : undefined

  const checks = runs.flatMap((r) => checksOf(r, transport, probe, byId, seed, command))
  if (!options.probeUrl) checks.push(probeSkippedCheck(seed))
  const built = buildResults({
    runId: ctx.runId, startedAt: startedAt.toISOString(), finishedAt: new Date().toISOString(),
    target: { baseUrl: options.url.href, gatewayUrl: options.probeUrl ? `probe ${options.probeUrl.href}` : '(no probe)', embedded: false },
    profile: 'sandbox', seed, kitVersion: kitVersion(REPO_ROOT), specHash: receiverSpecHash(), command,
  }, checks, catalogue)
  const results: Results = { ...built, verdict: receiverVerdict(built) }
  const written = writeReport(ctx.runDir, results, scrubber)
  say(summary(written, ctx.runDir, p))
  return written.verdict.result === 'FAILED' ? EXIT_FAILED : EXIT_PASSED
}

function tlsFiles(o: ReceiverOptions): Transport['tls'] {
  const read = (flag: string, file: string | undefined): Buffer | undefined => {
    if (!file) return undefined
    try {
      return readFileSync(file)
    } catch (e) {
      throw new ArgsError(flag, `cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`)
    }
  }
  const ca = read('--ca', o.caFile)
  const cert = read('--client-cert', o.clientCertFile)
  const key = read('--client-key', o.clientKeyFile)
  return { ...(ca ? { ca } : {}), ...(cert ? { cert } : {}), ...(key ? { key } : {}) }
}

/** A password in the URL and query values (a webhook token is often one) never reach a report. */
function urlSecrets(url: URL): { name: string; value: string }[] {
  const found = [...url.searchParams.entries()].map(([k, v]) => ({ name: `url-${k}`, value: v }))
  if (url.password) found.push({ name: 'url-password', value: decodeURIComponent(url.password) })
  return found.filter((s) => s.value.length >= MIN_SECRET_LENGTH)
}

function replayCommand(o: ReceiverOptions, seed: number): string {
  const args = ['--url', o.url.href]
  if (o.probeUrl) args.push('--probe-url', o.probeUrl.href)
  if (o.timeoutMs !== DEFAULT_TIMEOUT_MS) args.push('--timeout', String(o.timeoutMs))
  if (o.caFile) args.push('--ca', o.caFile)
  if (o.clientCertFile && o.clientKeyFile) args.push('--client-cert', o.clientCertFile, '--client-key', o.clientKeyFile)
  args.push('--seed', String(seed))
  return `npm run conformance -- receiver ${args.map(shellQuote).join(' ')}`
}

/** sha256 of the contract the notifications come from and the receiver catalogue. */
function receiverSpecHash(): string {
  const hash = createHash('sha256')
  for (const file of [OPENAPI_PATH, RECEIVER_CLAUSES_PATH]) hash.update(readFileSync(file))
  return hash.digest('hex')
}

// =============================================================================================
// Console

function caseLine(r: CaseRun, p: Paint): string {
  const bad = r.c.steps.findIndex((_, i) => !answeredInTime(r.answers[i]!))
  const answer = bad >= 0 ? r.answers[bad]! : r.answers[r.answers.length - 1]!
  const mark = bad < 0 ? p.pass('✓') : r.c.refusalInconclusive ? p.skip('?') : p.fail('✗')
  const what = bad < 0 ? p.dim(`${r.answers.length} × 200, last in ${answer.durationMs} ms`) : `${r.c.steps[bad]!.clause}: ${oneLine(describeAnswer(answer), 100)}`
  return ` ${mark} ${`${r.c.area} › ${r.c.title}`.padEnd(68)} ${what}`
}

function summary(r: Results, runDir: string, p: Paint): string {
  const lines = ['']
  const failed = r.checks.filter((c) => c.status === 'failed')
  if (failed.length > 0) {
    lines.push(p.fail(p.bold(`Failures (${failed.length}):`)))
    for (const c of failed) {
      const [head, ...rest] = (c.message ?? '').split('\n')
      lines.push(`  ${p.fail('✗')} ${c.area} › ${c.title}`, `      ${oneLine(head ?? '', 300)}`, ...rest.map((l) => `      ${oneLine(l, 300)}`))
    }
    lines.push('')
  }
  const unverdicted = r.checks.filter((c) => c.status === 'inconclusive' || c.status === 'blocked' || c.status === 'skipped')
  for (const c of unverdicted) lines.push(p.skip(`  ? ${c.status} · ${c.area} › ${c.title}: ${oneLine(c.reason ?? c.skipReason ?? '', 300)}`))
  if (unverdicted.length > 0) lines.push('')
  const paintOf = r.verdict.result === 'PASSED' ? p.pass : r.verdict.result === 'INCOMPLETE' ? p.skip : p.fail
  lines.push(paintOf(p.bold(r.verdict.headline)), `Report: ${runDir}  (report.html, results.json, junit.xml)`, '')
  return lines.join('\n')
}
