// The state tables of interface §3, as data: one table per subsection, row for row. Nothing else in
// the reference writes a status: machine.ts `fire(table, entity, event)` applies a row or refuses
// the event. A row the interface's own table has is `source: '§3.x'`, with its columns verbatim; a
// row the reference adds where the interface is silent names the clause it leaves open
// (`notShown`). Guards, timers, ledger moves and webhooks are named here and bound in machine.ts.
// test/unit/reference/tables.test.ts holds these rows against the interface's tables.
import type { CobStatus, ReturnStatus, SlipStatus, TxStatus } from './types.ts'

/** A move of §3.6 (and §2.3's failure rule) on the account's available and blocked funds. */
export type LedgerMove = 'block' | 'release' | 'unblock' | 'credit'

/** The notifications of §6 a row sends (V1 = §6.1; the others are §6.2 event types or §6.3 statuses). */
export type Webhook = 'V1' | 'RECEIVE' | 'REFUND' | 'TRANSFER' | 'SLIP'

/** Which objects a row applies to, when one event has rows for several kinds of object. */
export type Guard = 'debit' | 'credit' | 'outgoing' | 'cash-out' | 'gateway-refund' | 'return-debit'

/** A time-driven row: when it is due (bound in machine.ts), the sweep fires it. */
export type Timer = 'charge-expiry' | 'cash-in-expiry' | 'slip-registration' | 'slip-expiry'

export interface Row<S extends string> {
  /** null: the row creates the object. */
  from: S | null
  /** The name the code fires. */
  event: string
  /** §3 "Trigger" and "Condition" columns (verbatim for interface rows). */
  trigger: string
  condition: string
  to: S
  /** §3 "Also" column (verbatim for interface rows). */
  also?: string
  guard?: Guard
  when?: Timer
  ledger?: LedgerMove
  webhooks?: Webhook[]
  /** An effect the reference adds to an interface row, and the not-shown clause that leaves it open. */
  choice?: string
  /** The interface table the row comes from, or the not-shown clause the reference's choice fills. */
  source: '§3.2' | '§3.3' | '§3.4' | '§3.6' | { notShown: string }
}

export interface Table<S extends string> {
  /** How errors name the object: "charge", "return", "bank slip", "transaction". */
  entity: string
  clause: string
  states: readonly S[]
  final: readonly S[]
  rows: readonly Row<S>[]
}

// §3.2 Immediate charge (cob)
export const CHARGE: Table<CobStatus> = {
  entity: 'charge',
  clause: '§3.2',
  states: ['ATIVA', 'CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP'],
  final: ['CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP'],
  rows: [
    { from: null, event: 'create', trigger: '`PUT /cob/{txid}`', condition: 'valid request', to: 'ATIVA', also: '`revisao` = 0', source: '§3.2' },
    { from: 'ATIVA', event: 'pay', trigger: 'payment received', condition: 'payer pays', to: 'CONCLUIDA', also: 'webhook `RECEIVE` with status `LIQUIDATED`', webhooks: ['RECEIVE'], source: '§3.2' },
    { from: 'ATIVA', event: 'cancel', trigger: 'cancellation', condition: 'receiver cancels', to: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', source: '§3.2' },
    { from: 'ATIVA', event: 'remove', trigger: 'expiry or removal', condition: 'removed by the payment provider', to: 'REMOVIDA_PELO_PSP', when: 'charge-expiry', choice: 'on time once `calendario.criacao` + `expiracao` has passed on the simulated clock (§2.4 expiracao)', source: '§3.2' },
  ],
}

// §3.3 Return (devolucao)
export const RETURN: Table<ReturnStatus> = {
  entity: 'return',
  clause: '§3.3',
  states: ['EM_PROCESSAMENTO', 'DEVOLVIDO', 'NAO_REALIZADO'],
  final: ['DEVOLVIDO', 'NAO_REALIZADO'],
  rows: [
    { from: null, event: 'request', trigger: '`PUT /pix/{e2eid}/devolucao/{id}`', condition: 'accepted', to: 'EM_PROCESSAMENTO', also: '`horario.solicitacao` set', source: '§3.3' },
    { from: 'EM_PROCESSAMENTO', event: 'settle', trigger: 'processing result', condition: 'success', to: 'DEVOLVIDO', also: '`horario.liquidacao` set; webhook `REFUND`', webhooks: ['REFUND'], source: '§3.3' },
    { from: 'EM_PROCESSAMENTO', event: 'fail', trigger: 'processing result', condition: 'failure', to: 'NAO_REALIZADO', also: '`motivo` may explain', source: '§3.3' },
  ],
}

// §3.4 Bank slip
export const BANK_SLIP: Table<SlipStatus> = {
  entity: 'bank slip',
  clause: '§3.4',
  states: ['PENDING', 'WAITING_PAYMENT', 'PAID', 'EXPIRED', 'CANCELED'],
  final: ['PAID', 'EXPIRED', 'CANCELED'],
  rows: [
    { from: null, event: 'create', trigger: '`POST /bank-slip/v1/payment`', condition: 'accepted', to: 'PENDING', also: 'slip is sent to the issuing bank; registration typically takes 5 to 10 seconds', source: '§3.4' },
    { from: 'PENDING', event: 'register', trigger: 'issuing bank confirms registration', condition: 'success', to: 'WAITING_PAYMENT', also: 'webhook with status `WAITING_PAYMENT`', webhooks: ['SLIP'], when: 'slip-registration', choice: 'after `slipRegistrationDelayMs` of real time (§3.4 says "typically 5 to 10 seconds")', source: '§3.4' },
    { from: 'WAITING_PAYMENT', event: 'pay', trigger: 'payment confirmed by the bank', condition: 'paid by any channel', to: 'PAID', also: 'webhook with status `PAID`', webhooks: ['SLIP'], source: '§3.4' },
    { from: 'WAITING_PAYMENT', event: 'expire', trigger: 'expiry', condition: 'overdue without payment', to: 'EXPIRED', when: 'slip-expiry', webhooks: ['SLIP'], choice: 'on time `slipGraceDays` after the due date ends (§2.6: payable after its due date); webhook with status `EXPIRED` (§6.3: expiry notification not shown)', source: '§3.4' },
  ],
}

const TX_NOT_SHOWN = { notShown: '§3.1 transaction status: transitions not shown' }

// §3.1 Transaction status, with the §3.6 balance effects on the rows they belong to. §3.1 shows the
// states and that new cash-in and cash-out results are PENDING; every transition is the reference's.
export const TRANSACTION: Table<TxStatus> = {
  entity: 'transaction',
  clause: '§3.1',
  states: ['PENDING', 'CONFIRMED', 'ERROR'],
  final: ['CONFIRMED', 'ERROR'],
  rows: [
    { from: null, event: 'accept', trigger: 'cash-out, gateway refund or return accepted', condition: 'available covers amount plus fee', to: 'PENDING', guard: 'debit', ledger: 'block', source: TX_NOT_SHOWN },
    { from: null, event: 'issue', trigger: 'cash-in created', condition: 'valid request', to: 'PENDING', guard: 'credit', source: TX_NOT_SHOWN },
    { from: null, event: 'receive', trigger: 'incoming payment', condition: 'money arrives', to: 'CONFIRMED', guard: 'credit', ledger: 'credit', webhooks: ['V1', 'RECEIVE'], source: TX_NOT_SHOWN },
    { from: null, event: 'receive-charge', trigger: 'a charge (cob) is paid', condition: 'payer pays', to: 'CONFIRMED', guard: 'credit', ledger: 'credit', source: TX_NOT_SHOWN },
    { from: null, event: 'send-back', trigger: 'the receiver of a cash-out sends it back', condition: 'settled cash-out', to: 'CONFIRMED', guard: 'credit', ledger: 'credit', webhooks: ['V1'], source: TX_NOT_SHOWN },
    { from: 'PENDING', event: 'pay', trigger: 'cash-in paid', condition: 'before its expirationDate', to: 'CONFIRMED', guard: 'credit', ledger: 'credit', webhooks: ['V1', 'RECEIVE'], source: TX_NOT_SHOWN },
    { from: 'PENDING', event: 'expire', trigger: 'cash-in expiry', condition: 'past its expirationDate', to: 'ERROR', guard: 'credit', when: 'cash-in-expiry', source: TX_NOT_SHOWN },
    { from: 'PENDING', event: 'settle', trigger: 'the bank confirms', condition: 'cash-out', to: 'CONFIRMED', guard: 'cash-out', ledger: 'release', webhooks: ['TRANSFER'], source: TX_NOT_SHOWN },
    { from: 'PENDING', event: 'settle', trigger: 'the bank confirms', condition: 'gateway refund', to: 'CONFIRMED', guard: 'gateway-refund', ledger: 'release', webhooks: ['V1'], source: TX_NOT_SHOWN },
    { from: 'PENDING', event: 'settle', trigger: 'the return is settled (§3.3)', condition: 'debit of a return', to: 'CONFIRMED', guard: 'return-debit', ledger: 'release', source: TX_NOT_SHOWN },
    { from: 'PENDING', event: 'fail', trigger: 'the bank refuses', condition: 'cash-out or gateway refund', to: 'ERROR', guard: 'outgoing', ledger: 'unblock', webhooks: ['V1'], source: TX_NOT_SHOWN },
    { from: 'PENDING', event: 'fail', trigger: 'the return fails (§3.3)', condition: 'debit of a return', to: 'ERROR', guard: 'return-debit', ledger: 'unblock', source: TX_NOT_SHOWN },
  ],
}

/** §3.6 and §2.3: what each ledger move does to the account. */
export interface BalanceEffect {
  move: LedgerMove
  /** §3.6's wording of the moment. */
  when: string
  effect: string
  webhook?: string
  source: '§3.6' | { clause: string }
}

export const BALANCE_EFFECTS: readonly BalanceEffect[] = [
  { move: 'block', when: 'an outgoing payment is accepted', effect: 'its amount moves from `available` to `blocked`', source: '§3.6' },
  { move: 'release', when: 'the bank confirms', effect: 'the blocked amount is released', webhook: 'a `TRANSFER` webhook with status `LIQUIDATED` is sent', source: '§3.6' },
  { move: 'credit', when: 'an incoming payment', effect: 'raises `available`', webhook: 'triggers a `RECEIVE` webhook with status `LIQUIDATED`', source: '§3.6' },
  { move: 'unblock', when: 'a failed operation', effect: 'the blocked value returns to available', source: { clause: '§2.3 "On a failed operation the blocked value returns to available"' } },
]

export const TABLES = { charge: CHARGE, return: RETURN, bankSlip: BANK_SLIP, transaction: TRANSACTION } as const
