// Transaction list items (interface §2.2): the status and type mapping tables, finalAmount against
// originalAmount and feeAmount, document masking against the unmasked single view (§2.1), and the
// same item in both listings (§4.4, §4.5).
import { check, type CheckContext } from '../../harness/check.ts'
import { show } from '../../harness/assertions.ts'
import { arbCnpj, arbCpf, maskDocument } from '../../generators/documents.ts'
import { ACCOUNT_LISTING, STATUS_LABEL, TYPE_LABEL, pixKeyListing, type Json, type ListedType, type Status } from './seed.ts'
import { receivedRecord, singleView, viewOfMade } from '../common/records.ts'
import { readAmount } from '../../generators/amounts.ts'
import { listedItem, quietestPixKey } from './listing.ts'
import { expectListingShape } from './shapes.ts'
import { AMOUNT_CLAUSE, ITEM_PRESENCE } from './fixtures.ts'
import { type Exchange } from '../../harness/exchange.ts'
import { transactionOf } from './records.ts'

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
    const { item, ex } = await madeAndListed(t, row.clause, row.type, row.status)
    t.expectEqual(row.clause, `status ${row.status} is listed as ${STATUS_LABEL[row.status]}`, item.status, STATUS_LABEL[row.status], ex)
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
    const { item, ex } = await madeAndListed(t, row.clause, row.type, row.status)
    t.expectEqual(row.clause, `${row.type} maps to ${operationType} / ${movementType}`, { operationType: item.operationType, movementType: item.movementType }, { operationType, movementType }, ex)
  })
}

// ---- item fields and amounts ---------------------------------------------------------------

// Each field's rule fails its own clause (shapes.ts); the page's metadata is the pagination checks' business.

check('listing: items of every type match the list item of 2.2, ids and amounts those of the transaction', {
  clauses: ['4.4.response-shape', '2.2.transaction-id', '2.2.external-id', '2.2.status-enum', '2.2.operation-type-enum', '2.2.movement-type-enum',
    '2.2.original-amount', '2.2.fee-amount', '2.2.final-amount', '2.2.end-to-end-id', '2.2.created-at', '2.2.processed-at', '2.2.counterpart-name',
    '2.2.counterpart-document', '2.2.counterpart-bank', ITEM_PRESENCE],
  needs: ['control', 'mutating'],
}, async (t) => {
  for (const row of TYPE_ROWS) {
    await t.case(row.type, async () => {
      const { view, item, ex } = await madeAndListed(t, '2.2.transaction-id', row.type, row.status)
      t.observe(ITEM_PRESENCE, `${row.type} ${row.status}`, presenceOf(item))
      expectListingShape(t, '4.4.response-shape', ex)
      if (typeof view.externalId === 'string') t.expectEqual('2.2.external-id', 'externalId is the caller-supplied id', item.externalId, view.externalId, ex)
      if (typeof view.e2eId === 'string' && item.endToEndId !== undefined) {
        t.expectEqual('2.2.end-to-end-id', 'endToEndId is the end-to-end id of the transaction', item.endToEndId, view.e2eId, ex)
      }
      for (const [field, clause] of Object.entries(AMOUNT_CLAUSE)) {
        const same = item[field] === undefined || readAmount(item[field]) === readAmount(view[field])
        t.expectThat(clause, `${field} is the transaction's, as a number of reais`, same, `${show(view[field])} as a number`, show(item[field]), ex)
      }
    })
  }
})

check('listing: finalAmount is originalAmount plus or minus feeAmount, to the cent, for every type', {
  clauses: ['2.2.final-amount'],
  needs: ['control', 'mutating'],
}, async (t) => {
  for (const row of TYPE_ROWS) {
    await t.case(row.type, async () => {
      const { item, ex } = await madeAndListed(t, '2.2.final-amount', row.type, row.status)
      const [original, fee, final] = [readAmount(item.originalAmount), readAmount(item.feeAmount), readAmount(item.finalAmount)]
      const adds = original !== undefined && fee !== undefined && final !== undefined && (final === original + fee || final === original - fee)
      t.expectThat('2.2.final-amount', `finalAmount = originalAmount ± feeAmount for a ${row.type}`, adds, 'original + fee or original − fee',
        `originalAmount ${show(item.originalAmount)}, feeAmount ${show(item.feeAmount)}, finalAmount ${show(item.finalAmount)}`, ex)
    })
  }
})

// ---- masking -------------------------------------------------------------------------------

for (const kind of [{ name: 'CPF', arb: arbCpf, clause: '2.2.mask-cpf', shape: '***.NNN.NNN-**' }, { name: 'CNPJ', arb: arbCnpj, clause: '2.2.mask-cnpj', shape: '**.NNN.NNN/****-**' }]) {
  check(`listing: a payer ${kind.name} is masked as ${kind.shape}, its shown digits those of the unmasked single view, in both listings`, {
    clauses: [kind.clause, '2.2.counterpart-document'],
    needs: ['control', 'mutating'],
  }, async (t) => {
    const key = await quietestPixKey(t)
    // A payment, its view and a narrow lookup in each listing: about five requests a case.
    await t.property([kind.arb()], async (document) => {
      const paid = await receivedRecord(t, { payer: { name: 'Kit Masked Payer', document }, pixKey: key })
      const { view } = await singleView(t, paid.id)
      const unmasked = typeof view.counterpartDocument === 'string' && /^\d+$/.test(view.counterpartDocument) ? view.counterpartDocument : document
      const expected = maskDocument(unmasked)
      for (const path of [ACCOUNT_LISTING, pixKeyListing(key)]) {
        const { item, ex } = await listedItem(t, kind.clause, path, view)
        const listed = (item.counterpart as Json | undefined)?.document
        // Every digit shown is a plain document, whatever its punctuation: 2.2.counterpart-document's "never", before the exact mask.
        const plain = typeof listed === 'string' && listed.replace(/\D/g, '') === unmasked
        t.expectThat('2.2.counterpart-document', 'counterpart.document never shows the plain document', !plain, `a masked ${kind.name}`, show(listed), ex)
        t.expectThat(kind.clause, `counterpart.document is the ${kind.name} masked as ${kind.shape}`, listed === expected, show(expected), maskDifference(listed, expected), ex)
      }
    }, { cost: 5 })
  })
}

// ---- both listings -------------------------------------------------------------------------

check('the same received payment is listed with the same fields in the account listing and the pix-key listing', {
  clauses: ['2.2.same-view-both-listings', '4.5.response-shape'],
  needs: ['control', 'mutating'],
}, async (t) => {
  const key = await quietestPixKey(t)
  const paid = await receivedRecord(t, { pixKey: key, payer: { name: 'Kit Both Listings', document: '52998224725' } })
  const { view } = await singleView(t, paid.id)
  const clause = '2.2.same-view-both-listings'
  const inAccount = await listedItem(t, clause, ACCOUNT_LISTING, view)
  const inKey = await listedItem(t, clause, pixKeyListing(key), view)
  expectListingShape(t, '4.5.response-shape', inKey.ex)
  t.expectEqual(clause, `the same list item in both listings (as in ${ACCOUNT_LISTING})`, sorted(inKey.item), sorted(inAccount.item), inKey.ex)
})

/**
 * Makes a transaction of `type` in `status` and reads it back: its §2.1 view (a precondition), by
 * the id a surface gave it (the listing's, when the view does not know the id its creation
 * answered), and its list item (not listed fails `clause`). A record no surface links to ends the
 * case inconclusive, observed; one the complete listing shows nowhere fails `clause`.
 */
async function madeAndListed(t: CheckContext, clause: string, type: ListedType, status: Status): Promise<{ view: Json; item: Json; ex: Exchange }> {
  const made = await transactionOf(t, type, status)
  const namedBy = `a listed ${type} is named by`
  if (made.unlinked) {
    t.observe(clause, namedBy, `none of the ids the kit holds (${made.id}): ${made.unlinked}`)
    t.inconclusive(`no surface links the ${type} made to a list item: ${made.unlinked}`)
  }
  if (made.absent) t.fail(clause, `the ${type} made is listed`, `an item of ${show(made.amount)} naming ${made.id}, or one of its amount, type and time`, made.absent, made.absentIn)
  const { view } = await t.given(`a ${type} ${status} (GET /api/pix/transaction/{id})`, async () => {
    const read = await viewOfMade(t, made)
    // The single view tells which internal type and status the target gave it: the mapping's input.
    t.expectThat('2.1.status-enum', `the transaction made is a ${type} ${status}`, read.view.type === type && read.view.status === status,
      `type ${type}, status ${status}`, `type ${show(read.view.type)}, status ${show(read.view.status)}`, read.ex)
    return read
  })
  const { item, ex } = await listedItem(t, clause, ACCOUNT_LISTING, view)
  if (made.linkedBy) t.observe(clause, namedBy, `an id only the listing shows (found by ${made.linkedBy}); the view does not know the id its creation answered`)
  return { view, item, ex }
}

const ITEM_FIELD_NAMES = ['transactionId', 'externalId', 'status', 'operationType', 'movementType', 'originalAmount', 'feeAmount', 'finalAmount',
  'endToEndId', 'createdAt', 'processedAt', 'counterpart']

const COUNTERPART_FIELDS = ['name', 'document', 'bank']

const BANK_FIELDS = ['bankISPB', 'bankName', 'bankCode', 'accountBranch', 'accountNumber']

/** The §2.2 fields an item omits, sets to null or to an empty string, by dotted path (values are not recorded: they may be personal data). */
function presenceOf(item: Json): { absent: string[]; null: string[]; empty: string[] } {
  const seen = { absent: [] as string[], null: [] as string[], empty: [] as string[] }
  const visit = (obj: unknown, names: string[], prefix: string) => {
    for (const name of names) {
      const value = obj !== null && typeof obj === 'object' ? (obj as Json)[name] : undefined
      const path = `${prefix}${name}`
      if (value === undefined) seen.absent.push(path)
      else if (value === null) seen.null.push(path)
      else if (value === '') seen.empty.push(path)
    }
  }
  visit(item, ITEM_FIELD_NAMES, '')
  if (item.counterpart !== null && typeof item.counterpart === 'object') {
    visit(item.counterpart, COUNTERPART_FIELDS, 'counterpart.')
    const bank = (item.counterpart as Json).bank
    if (bank !== null && typeof bank === 'object') visit(bank, BANK_FIELDS, 'counterpart.bank.')
  }
  return seen
}

/** Where the listed mask and the mask of the view's document differ, digit by digit. */
function maskDifference(listed: unknown, expected: string): string {
  if (typeof listed !== 'string') return show(listed)
  const positions = [...expected].flatMap((c, i) => (listed[i] === c ? [] : [i + 1]))
  return `${show(listed)}${positions.length ? ` (differs at character ${positions.join(', ')})` : ''}${listed.length !== expected.length ? ` (length ${listed.length})` : ''}`
}

/** `value` with every object's keys in order: two list items compared field by field, whatever order each listing wrote. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value as Json).sort(([x], [y]) => x.localeCompare(y)).map(([k, v]) => [k, sorted(v)]))
}
