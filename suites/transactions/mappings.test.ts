// Transaction list items (interface §2.2): the status and type mapping tables, finalAmount against
// originalAmount and feeAmount, document masking against the unmasked single view (§2.1), and the
// same item in both listings (§4.4, §4.5).
import { check, type CheckContext } from '../../harness/check.ts'
import { show } from '../../harness/assertions.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { arbCnpj, arbCpf, maskDocument } from '../../generators/documents.ts'
import {
  ACCOUNT_LISTING, STATUS_LABEL, TYPE_LABEL, cents, incomingPayment, listedItem, ourPixKey, pixKeyListing, singleView, transactionOf,
  type Json, type ListedType, type Status,
} from './seed.ts'

/** Makes a transaction of `type` in `status` and reads it back: its §2.1 view and its list item. */
async function madeAndListed(t: CheckContext, type: ListedType, status: Status): Promise<{ view: Json; item: Json; ex: Exchange }> {
  const made = await transactionOf(t, type, status)
  const { view, ex: viewEx } = await singleView(t, made.id)
  // The single view tells which internal type and status the target gave it: the mapping's input.
  if (view.type !== type || view.status !== status) {
    t.fail(`precondition: the transaction made is a ${type} ${status} (2.1)`, `type ${type}, status ${status}`, `type ${show(view.type)}, status ${show(view.status)}`, viewEx)
  }
  const { item, ex } = await listedItem(t, ACCOUNT_LISTING, view)
  return { view, item, ex }
}

// ---- status mapping table ------------------------------------------------------------------

const STATUS_ROWS: { status: Status; type: ListedType; made: string; clause: string; needs: ('control' | 'mutating')[] }[] = [
  { status: 'PENDING', type: 'WITHDRAW', made: 'a cash-out not yet settled', clause: '2.2.status-map-pending', needs: ['mutating'] },
  { status: 'CONFIRMED', type: 'PAYMENT', made: 'a received payment', clause: '2.2.status-map-confirmed', needs: ['control', 'mutating'] },
  { status: 'ERROR', type: 'WITHDRAW', made: 'a cash-out the bank refused', clause: '2.2.status-map-error', needs: ['control', 'mutating'] },
]

for (const row of STATUS_ROWS) {
  check(`listing: internal status ${row.status} (${row.made}) is listed as ${STATUS_LABEL[row.status]}`, {
    clauses: [row.clause], needs: row.needs,
  }, async (t) => {
    const { item, ex } = await madeAndListed(t, row.type, row.status)
    if (item.status !== STATUS_LABEL[row.status]) t.fail(`status ${row.status} is listed as ${STATUS_LABEL[row.status]} (2.2)`, show(STATUS_LABEL[row.status]), show(item.status), ex)
  })
}

// ---- type mapping table --------------------------------------------------------------------

const TYPE_ROWS: { type: ListedType; status: Status; made: string; clause: string }[] = [
  { type: 'PAYMENT', status: 'CONFIRMED', made: 'a received payment', clause: '2.2.type-map-payment' },
  { type: 'WITHDRAW', status: 'PENDING', made: 'a cash-out', clause: '2.2.type-map-withdraw' },
  { type: 'REFUND_IN', status: 'PENDING', made: 'a gateway refund of a received payment', clause: '2.2.type-map-refund-in' },
  { type: 'REFUND_OUT', status: 'CONFIRMED', made: 'a settled cash-out sent back by its receiver', clause: '2.2.type-map-refund-out' },
]

for (const row of TYPE_ROWS) {
  const { operationType, movementType } = TYPE_LABEL[row.type]
  check(`listing: a ${row.type} (${row.made}) is listed as ${operationType} / ${movementType}`, {
    clauses: [row.clause], needs: row.type === 'WITHDRAW' ? ['mutating'] : ['control', 'mutating'],
  }, async (t) => {
    const { item, ex } = await madeAndListed(t, row.type, row.status)
    if (item.operationType !== operationType || item.movementType !== movementType) {
      t.fail(`${row.type} maps to ${operationType} / ${movementType} (2.2)`, `operationType ${show(operationType)}, movementType ${show(movementType)}`,
        `operationType ${show(item.operationType)}, movementType ${show(item.movementType)}`, ex)
    }
  })
}

// ---- item fields and amounts ---------------------------------------------------------------

check('listing: items of every type match the list item of 2.2, ids and amounts those of the transaction', {
  clauses: ['4.4.response-shape', '2.2.transaction-id', '2.2.external-id', '2.2.status-enum', '2.2.operation-type-enum', '2.2.movement-type-enum',
    '2.2.original-amount', '2.2.fee-amount', '2.2.end-to-end-id', '2.2.created-at', '2.2.processed-at', '2.2.counterpart-name', '2.2.counterpart-bank'],
  needs: ['control', 'mutating'],
}, async (t) => {
  for (const row of TYPE_ROWS) {
    const { view, item, ex } = await madeAndListed(t, row.type, row.status)
    t.expectSchema(ex, 'listTransactions')
    if (typeof view.externalId === 'string' && item.externalId !== view.externalId) {
      t.fail('externalId is the caller-supplied id (2.2)', show(view.externalId), show(item.externalId), ex)
    }
    if (typeof view.e2eId === 'string' && item.endToEndId !== undefined && item.endToEndId !== view.e2eId) {
      t.fail('endToEndId is the end-to-end id of the transaction (2.2)', show(view.e2eId), show(item.endToEndId), ex)
    }
    for (const field of ['originalAmount', 'feeAmount', 'finalAmount'] as const) {
      if (item[field] !== undefined && cents(item[field]) !== cents(view[field])) {
        t.fail(`${field} is the transaction's, as a number of reais (2.2)`, `${show(view[field])} as a number`, show(item[field]), ex)
      }
    }
  }
})

check('listing: finalAmount is originalAmount plus or minus feeAmount, to the cent, for every type', {
  clauses: ['2.2.final-amount'],
  needs: ['control', 'mutating'],
}, async (t) => {
  for (const row of TYPE_ROWS) {
    const { item, ex } = await madeAndListed(t, row.type, row.status)
    const [original, fee, final] = [cents(item.originalAmount), cents(item.feeAmount), cents(item.finalAmount)]
    if (original === undefined || fee === undefined || final === undefined || (final !== original + fee && final !== original - fee)) {
      t.fail(`finalAmount = originalAmount ± feeAmount (2.2) for a ${row.type}`, 'original + fee or original − fee',
        `originalAmount ${show(item.originalAmount)}, feeAmount ${show(item.feeAmount)}, finalAmount ${show(item.finalAmount)}`, ex)
    }
  }
})

// ---- masking -------------------------------------------------------------------------------

/** Where the listed mask and the mask of the view's document differ, digit by digit. */
function maskDifference(listed: unknown, expected: string): string {
  if (typeof listed !== 'string') return show(listed)
  const positions = [...expected].flatMap((c, i) => (listed[i] === c ? [] : [i + 1]))
  return `${show(listed)}${positions.length ? ` (differs at character ${positions.join(', ')})` : ''}${listed.length !== expected.length ? ` (length ${listed.length})` : ''}`
}

for (const kind of [{ name: 'CPF', arb: arbCpf, clause: '2.2.mask-cpf', shape: '***.NNN.NNN-**' }, { name: 'CNPJ', arb: arbCnpj, clause: '2.2.mask-cnpj', shape: '**.NNN.NNN/****-**' }]) {
  check(`listing: a payer ${kind.name} is masked as ${kind.shape}, its shown digits those of the unmasked single view, in both listings`, {
    clauses: [kind.clause, '2.2.counterpart-document'],
    needs: ['control', 'mutating'],
  }, async (t) => {
    const key = await ourPixKey(t)
    await t.property([kind.arb()], async (document) => {
      const paid = await incomingPayment(t, { payer: { name: 'Kit Masked Payer', document }, pixKey: key })
      const { view } = await singleView(t, paid.id)
      const unmasked = typeof view.counterpartDocument === 'string' && /^\d+$/.test(view.counterpartDocument) ? view.counterpartDocument : document
      const expected = maskDocument(unmasked)
      for (const path of [ACCOUNT_LISTING, pixKeyListing(key)]) {
        const { item, ex } = await listedItem(t, path, view)
        const listed = (item.counterpart as Json | undefined)?.document
        if (listed !== expected) t.fail(`counterpart.document is the ${kind.name} masked as ${kind.shape} (2.2)`, show(expected), maskDifference(listed, expected), ex)
      }
    }, { numRuns: Math.min(t.config.numRuns, 5) })
  })
}

// ---- both listings -------------------------------------------------------------------------

check('the same received payment is listed with the same fields in the account listing and the pix-key listing', {
  clauses: ['2.2.same-view-both-listings', '4.5.response-shape'],
  needs: ['control', 'mutating'],
}, async (t) => {
  const key = await ourPixKey(t)
  const paid = await incomingPayment(t, { pixKey: key, payer: { name: 'Kit Both Listings', document: '52998224725' } })
  const { view } = await singleView(t, paid.id)
  const inAccount = await listedItem(t, ACCOUNT_LISTING, view)
  const inKey = await listedItem(t, pixKeyListing(key), view)
  t.expectSchema(inKey.ex, 'listTransactionsByPixKey')
  const a = JSON.stringify(sorted(inAccount.item))
  const k = JSON.stringify(sorted(inKey.item))
  if (a !== k) t.fail('the same list item in both listings (2.2)', `as in ${ACCOUNT_LISTING}: ${a}`, k, inKey.ex)
})

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value as Json).sort(([x], [y]) => x.localeCompare(y)).map(([k, v]) => [k, sorted(v)]))
}
