// The reference's state tables (reference/model/tables.ts) against the interface's §3 tables: every
// row of the interface is there, column for column, and nothing else claims to come from it; rows
// and effects the reference adds name the not-shown clause they fill. And fire() refuses what no
// row allows, naming the entity, its state and the event.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { MACHINES, TIMED_MACHINES } from '../../../reference/machines.ts'
import { BALANCE_EFFECTS, BANK_SLIP, CHARGE, RETURN, TABLES, TRANSACTION, type Row, type Table } from '../../../reference/model/tables.ts'
import { startRef, type Ref } from './helpers.ts'

type InterfaceRow = [from: string, trigger: string, condition: string, to: string, also: string]

// Transcribed from the interface, §3.2, §3.3 and §3.4 (columns From, Trigger, Condition, To, Also).
const INTERFACE: Record<string, { table: Table<string>; rows: InterfaceRow[]; final: string[]; states: string[] }> = {
  '§3.2': {
    table: CHARGE,
    states: ['ATIVA', 'CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP'],
    final: ['CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP'],
    rows: [
      ['(none)', '`PUT /cob/{txid}`', 'valid request', 'ATIVA', '`revisao` = 0'],
      ['ATIVA', 'payment received', 'payer pays', 'CONCLUIDA', 'webhook `RECEIVE` with status `LIQUIDATED`'],
      ['ATIVA', 'cancellation', 'receiver cancels', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', ''],
      ['ATIVA', 'expiry or removal', 'removed by the payment provider', 'REMOVIDA_PELO_PSP', ''],
    ],
  },
  '§3.3': {
    table: RETURN,
    states: ['EM_PROCESSAMENTO', 'DEVOLVIDO', 'NAO_REALIZADO'],
    final: ['DEVOLVIDO', 'NAO_REALIZADO'],
    rows: [
      ['(none)', '`PUT /pix/{e2eid}/devolucao/{id}`', 'accepted', 'EM_PROCESSAMENTO', '`horario.solicitacao` set'],
      ['EM_PROCESSAMENTO', 'processing result', 'success', 'DEVOLVIDO', '`horario.liquidacao` set; webhook `REFUND`'],
      ['EM_PROCESSAMENTO', 'processing result', 'failure', 'NAO_REALIZADO', '`motivo` may explain'],
    ],
  },
  '§3.4': {
    table: BANK_SLIP,
    // §2.6 lists CANCELED; §3.4: "Transitions into CANCELED: not shown" (the reference has none).
    states: ['PENDING', 'WAITING_PAYMENT', 'PAID', 'EXPIRED', 'CANCELED'],
    final: ['PAID', 'EXPIRED', 'CANCELED'],
    rows: [
      ['(none)', '`POST /bank-slip/v1/payment`', 'accepted', 'PENDING', 'slip is sent to the issuing bank; registration typically takes 5 to 10 seconds'],
      ['PENDING', 'issuing bank confirms registration', 'success', 'WAITING_PAYMENT', 'webhook with status `WAITING_PAYMENT`'],
      ['WAITING_PAYMENT', 'payment confirmed by the bank', 'paid by any channel', 'PAID', 'webhook with status `PAID`'],
      ['WAITING_PAYMENT', 'expiry', 'overdue without payment', 'EXPIRED', ''],
    ],
  },
}

// §3.6, sentence by sentence: the moment, what happens to the funds, the webhook.
const INTERFACE_BALANCE: [when: string, effect: string, webhook: string][] = [
  ['an outgoing payment is accepted', 'its amount moves from `available` to `blocked`', ''],
  ['the bank confirms', 'the blocked amount is released', 'a `TRANSFER` webhook with status `LIQUIDATED` is sent'],
  ['an incoming payment', 'raises `available`', 'triggers a `RECEIVE` webhook with status `LIQUIDATED`'],
]

const asInterfaceRow = (r: Row<string>): InterfaceRow => [r.from ?? '(none)', r.trigger, r.condition, r.to, r.also ?? '']
const notShown = (r: Row<string>): string | undefined => (typeof r.source === 'object' ? r.source.notShown : undefined)

describe('the state tables against interface §3', () => {
  for (const [clause, expected] of Object.entries(INTERFACE)) {
    describe(`${clause} (${expected.table.entity})`, () => {
      it('has every row of the interface, column for column, and no other row claiming to come from it', () => {
        const fromInterface = expected.table.rows.filter((r) => r.source === clause).map(asInterfaceRow)
        expect(fromInterface).toEqual(expected.rows)
      })
      it('adds no row of its own (the interface shows every transition of this table)', () => {
        expect(expected.table.rows.filter((r) => r.source !== clause)).toEqual([])
      })
      it('has the interface states, and its final states have no way out', () => {
        expect([...expected.table.states]).toEqual(expected.states)
        expect([...expected.table.final]).toEqual(expected.final)
        for (const r of expected.table.rows) if (r.from !== null) expect(expected.table.final).not.toContain(r.from)
      })
    })
  }

  it('§3.1: every transaction transition is the reference\'s, over the three states, and says §3.1 leaves it open', () => {
    expect([...TRANSACTION.states]).toEqual(['PENDING', 'CONFIRMED', 'ERROR'])
    for (const r of TRANSACTION.rows) expect(notShown(r), `${r.from} --${r.event}--> ${r.to}`).toMatch(/^§3\.1 .*not shown/)
    // §3.1: "New cash-in and cash-out results are returned as PENDING."
    const created = (event: string) => TRANSACTION.rows.find((r) => r.from === null && r.event === event)?.to
    expect(created('issue')).toBe('PENDING')
    expect(created('accept')).toBe('PENDING')
  })

  it('§3.6: every balance effect of the interface is there, and the one more names its clause', () => {
    const fromInterface = BALANCE_EFFECTS.filter((e) => e.source === '§3.6').map((e) => [e.when, e.effect, e.webhook ?? ''])
    expect(fromInterface).toEqual(INTERFACE_BALANCE)
    for (const e of BALANCE_EFFECTS.filter((x) => x.source !== '§3.6')) expect(e.source).toMatchObject({ clause: expect.stringMatching(/^§\d/) })
  })

  it('§3.6 is what the transaction rows do: outgoing accepted blocks, confirmed releases (TRANSFER for a cash-out), incoming credits with RECEIVE', () => {
    const row = (event: string, guard?: string) => TRANSACTION.rows.find((r) => r.event === event && (guard === undefined || r.guard === guard))
    expect(row('accept')).toMatchObject({ ledger: 'block', to: 'PENDING' })
    expect(row('settle', 'cash-out')).toMatchObject({ ledger: 'release', webhooks: ['TRANSFER'] })
    expect(row('receive')).toMatchObject({ ledger: 'credit', webhooks: expect.arrayContaining(['RECEIVE']) })
    for (const r of TRANSACTION.rows) if (r.ledger) expect(BALANCE_EFFECTS.map((e) => e.move)).toContain(r.ledger)
  })

  it('states every effect beyond an interface row\'s "Also" column as a choice', () => {
    for (const table of Object.values(TABLES) as Table<string>[]) {
      for (const r of table.rows.filter((x) => typeof x.source === 'string')) {
        const unstated = (r.webhooks ?? []).length > 0 && !/webhook/.test(r.also ?? '')
        if (unstated || r.when) expect(r.choice, `${table.entity} ${r.from} --${r.event}-->`).toMatch(/\S/)
      }
    }
  })
})

describe('the machines', () => {
  it('bind each table to one kind of object, and the sweep visits those with a time-driven row', () => {
    for (const [name, table] of Object.entries(TABLES)) expect(MACHINES[name as keyof typeof TABLES].table, name).toBe(table)
    expect(TIMED_MACHINES.map((m) => m.table.entity)).toEqual(['charge', 'transaction', 'bank slip'])
  })
})

describe('fire() refuses an event the table does not allow', () => {
  let ref: Ref
  beforeAll(async () => {
    ref = await startRef()
  })
  afterAll(() => ref.close())
  beforeEach(() => ref.reset())

  it('with a 409 naming the entity, its state and the event', async () => {
    const payment = (await ref.control('/control/incoming-payments', { amount: 5 })).body
    const settle = await ref.control(`/control/transactions/${payment.transactionId}/settle`, {})
    expect(settle.status).toBe(409)
    expect(settle.body.message).toMatch(new RegExp(`transaction ${payment.transactionId} is CONFIRMED, a final state: §3.1 has no transition for settle`))
    const auth = { authorization: `Bearer ${await ref.token()}` }
    const txid = 'tablecharge0000000000000000'
    await ref.base(`/cob/${txid}`, { method: 'PUT', headers: auth, body: { calendario: {}, valor: { original: '1.00' } } })
    await ref.control(`/control/cob/${txid}/remove`, { by: 'receiver' })
    const pay = await ref.control(`/control/cob/${txid}/pay`, {})
    expect(pay.status).toBe(409)
    expect(pay.body.message).toBe(`charge ${txid} is REMOVIDA_PELO_USUARIO_RECEBEDOR, a final state: §3.2 has no transition for pay from there`)
  })
})
