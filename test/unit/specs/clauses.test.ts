import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  CLAUSES_PATH,
  ClauseCatalogueError,
  clauseById,
  clauseIdsBySection,
  loadClauses,
  parseClauses,
} from '../../../generators/clauses.ts'

const ID_PATTERN = /^\d+(\.\d+)?\.[a-z0-9]+(-[a-z0-9]+)*$/

/** The sections of the interface that state rules; each must own at least one clause. */
const RULE_SECTIONS = [
  ...range(1, 7).map((n) => `2.${n}`),
  ...range(1, 6).map((n) => `3.${n}`),
  ...range(1, 19).map((n) => `4.${n}`),
  '5',
  ...range(1, 3).map((n) => `6.${n}`),
  '7',
  '8',
  '9',
]

/** Every section number the interface has (for `also` lists); "0" is the unnumbered Conventions. */
const INTERFACE_SECTIONS = new Set(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', ...RULE_SECTIONS, '2.8'])

/**
 * §7's error table, one entry per status it names (the gateway balance row names three: 401 / 403 /
 * 500), so 24 in all, with the clauses that state them.
 */
const ERROR_TABLE: { operation: string; status: string; clauses: string[] }[] = [
  { operation: 'Token (certificate)', status: '400', clauses: ['7.cert-token-header-absent-400', '7.cert-token-header-malformed-400'] },
  { operation: 'Token (certificate)', status: '401', clauses: ['7.cert-token-bad-credentials-401', '7.cert-token-bad-certificate-401'] },
  { operation: 'Token (certificate)', status: '403', clauses: ['7.cert-token-not-linked-403'] },
  { operation: 'Any bearer endpoint', status: '401', clauses: ['7.bearer-missing-token-401', '7.bearer-invalid-token-401', '7.bearer-expired-token-401'] },
  { operation: 'Any bearer endpoint (central-bank-style)', status: '403', clauses: ['7.bcb-permission-denied-403'] },
  { operation: 'Transaction status', status: '404', clauses: ['7.transaction-not-found-404'] },
  { operation: 'List transactions', status: '400', clauses: ['7.list-invalid-params-400', '7.list-interval-over-31-days-400'] },
  {
    operation: 'Create charge',
    status: '400',
    clauses: ['7.create-charge-txid-400', '7.create-charge-cpf-digits-400', '7.create-charge-document-invalid-400', '7.create-charge-value-format-400'],
  },
  { operation: 'Create charge', status: '409', clauses: ['7.create-charge-duplicate-txid-409'] },
  { operation: 'Return', status: '400', clauses: ['7.return-value-format-400', '7.return-value-exceeds-refundable-400'] },
  { operation: 'Return', status: '404', clauses: ['7.return-original-not-found-404', '7.return-not-received-payment-404'] },
  { operation: 'Return', status: '422', clauses: ['7.return-after-89-days-422'] },
  {
    operation: 'Resend webhook',
    status: '400',
    clauses: ['7.resend-missing-id-400', '7.resend-url-not-https-400', '7.resend-other-account-400', '7.resend-no-webhook-url-400'],
  },
  { operation: 'Resend webhook', status: '401', clauses: ['7.resend-api-key-401'] },
  { operation: 'Resend webhook', status: '404', clauses: ['7.resend-not-found-404'] },
  { operation: 'Resend webhook', status: '429', clauses: ['7.resend-rate-429'] },
  { operation: 'Resend webhook', status: '500', clauses: ['7.resend-internal-error-500'] },
  { operation: 'Gateway balance', status: '401', clauses: ['7.gateway-balance-bad-key-401'] },
  { operation: 'Gateway balance', status: '403', clauses: ['7.gateway-balance-no-permission-403'] },
  { operation: 'Gateway balance', status: '500', clauses: ['7.gateway-balance-internal-500'] },
  { operation: 'Buyer', status: '400 INVALID_UUID', clauses: ['7.buyer-invalid-uuid-400'] },
  { operation: 'Buyer', status: '401 UNAUTHORIZED', clauses: ['7.buyer-unauthorized-401'] },
  { operation: 'Buyer', status: '404 BUYER_NOT_FOUND', clauses: ['7.buyer-not-found-404'] },
  { operation: 'Buyer', status: '500 INTERNAL_SERVER_ERROR', clauses: ['7.buyer-internal-500'] },
]

/** §8's limits table (19 rows) with the clauses that state each row (own §8 id or also: ["8"]). */
const LIMITS_TABLE: { limit: string; clauses: string[] }[] = [
  { limit: 'Certificate token lifetime', clauses: ['5.cert-token-lifetime'] },
  { limit: 'Credential token lifetime', clauses: ['5.credential-token-lifetime'] },
  { limit: 'clientSecret length', clauses: ['4.2.client-secret-length'] },
  { limit: 'Page size (account listing)', clauses: ['4.4.size-range', '4.4.size-default'] },
  { limit: 'Page size (pix-key listing)', clauses: ['4.5.size-range', '4.5.total-at-most-1000'] },
  { limit: 'Date interval', clauses: ['4.4.interval-max-31', '4.5.interval-max-31'] },
  { limit: 'Default period', clauses: ['4.4.start-date-default', '4.5.start-date-default'] },
  { limit: 'txid', clauses: ['4.10.txid-length'] },
  { limit: 'Charge expiration', clauses: ['4.10.expiracao-default'] },
  {
    limit: 'chave, solicitacaoPagador, nome (debtor), info name, info value',
    clauses: ['4.10.chave-max', '4.10.solicitacao-max', '4.10.devedor-nome-max', '4.10.info-nome-max', '4.10.info-valor-max'],
  },
  { limit: 'e2eid', clauses: ['4.11.e2eid-length'] },
  { limit: 'Return id', clauses: ['4.11.id-length'] },
  { limit: 'Return description', clauses: ['4.11.descricao-max'] },
  { limit: 'Return deadline', clauses: ['4.11.within-89-days-accepted'] },
  { limit: 'Refund deadline', clauses: ['4.14.within-90-days'] },
  { limit: 'Minimum refund value', clauses: ['4.14.value-min'] },
  { limit: 'QR code string', clauses: ['4.7.qr-length', '4.7.qr-prefix'] },
  { limit: 'Webhook resend rate', clauses: ['8.resend-rate'] },
  { limit: 'Gateway balance rate', clauses: ['8.gateway-balance-rate'] },
]

/** One clause per "not shown" statement of the interface. */
const NOT_SHOWN = [
  '2.2.required-fields-not-shown',
  '2.6.interest-fine-not-shown',
  '3.1.transitions-not-shown',
  '3.4.canceled-not-shown',
  '3.5.transitions-not-shown',
  '4.6.required-fields-not-shown',
  '4.7.external-id-required-not-shown',
  '4.15.required-fields-not-shown',
  '4.15.other-operations-not-shown',
  '4.17.other-operations-not-shown',
  '4.18.response-not-shown',
  '4.18.other-setters-not-shown',
  '4.19.shapes-not-shown',
  '5.scope-mapping-not-shown',
  '6.1.movement-type-values-not-shown',
  '6.2.transfer-payload-not-shown',
  '6.3.expiry-cancel-notification-not-shown',
  '6.3.retry-policy-not-shown',
  '7.refund-code-status-not-shown',
  '7.pdf-code-status-not-shown',
  '7.error-bodies-not-shown',
  '8.other-rate-limits-not-shown',
  '8.payload-size-not-shown',
  '9.version-selection-not-shown',
  '9.deprecation-not-shown',
]

const clauses = loadClauses()

describe('clause catalogue: every entry', () => {
  it.each(clauses.map((c) => [c.id, c] as const))('%s has a well-formed shape', (_id, clause) => {
    expect(Object.keys(clause).sort()).toEqual(
      [...(clause.also ? ['also'] : []), 'id', ...(clause.judges ? ['judges'] : []), 'level', 'section', 'severity', 'statement', 'testability'],
    )
    if (clause.judges !== undefined) expect(clause.judges).toBe('meaning')
    expect(['money', 'security', 'data', 'protocol']).toContain(clause.severity)
    expect(clause.id).toMatch(ID_PATTERN)
    expect(clause.id.startsWith(`${clause.section}.`)).toBe(true)
    expect(clause.id.slice(clause.section.length + 1)).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
    expect(typeof clause.section).toBe('string')
    expect(clause.statement.trim().length).toBeGreaterThan(10)
    expect(clause.statement).not.toMatch(/[\r\n]/)
    expect(['black-box', 'needs-control', 'not-shown']).toContain(clause.testability)
    expect(['must', 'info']).toContain(clause.level)
    if (clause.testability === 'not-shown') expect(clause.level).toBe('info')
    for (const section of clause.also ?? []) {
      expect(INTERFACE_SECTIONS.has(section), `also section ${section}`).toBe(true)
      expect(section).not.toBe(clause.section)
    }
  })
})

describe('clause catalogue: as a whole', () => {
  it('holds more than 150 clauses', () => {
    expect(clauses.length).toBeGreaterThan(150)
  })

  it('has unique ids', () => {
    expect(duplicates(clauses.map((c) => c.id))).toEqual([])
  })

  it('has unique statements (no rule stated twice)', () => {
    expect(duplicates(clauses.map((c) => c.statement.toLowerCase()))).toEqual([])
  })

  it('uses only sections of the interface', () => {
    const unknown = clauses.filter((c) => !INTERFACE_SECTIONS.has(c.section)).map((c) => c.id)
    expect(unknown).toEqual([])
  })

  it.each(RULE_SECTIONS)('section %s has at least one clause', (section) => {
    expect(clauses.some((c) => c.section === section)).toBe(true)
  })

  it('is grouped by section in interface order', () => {
    const sections = clauses.map((c) => c.section)
    const outOfOrder = sections.filter((s, i) => i > 0 && compareSections(sections[i - 1] ?? s, s) > 0)
    expect(outOfOrder).toEqual([])
  })

  it('marks every not-shown statement of the interface, and only those, as not-shown', () => {
    const notShown = clauses.filter((c) => c.testability === 'not-shown').map((c) => c.id)
    expect(notShown.sort()).toEqual([...NOT_SHOWN].sort())
    for (const clause of clauses.filter((c) => c.testability === 'not-shown')) {
      expect(clause.statement, clause.id).toMatch(/not shown|not described/)
    }
  })
})

describe('clause catalogue: §7 error table', () => {
  it('lists 24 statuses (22 rows, the gateway balance row naming three)', () => {
    expect(ERROR_TABLE).toHaveLength(24)
  })

  it.each(ERROR_TABLE.map((row) => [`${row.operation} ${row.status}`, row] as const))('%s has its clauses', (_name, row) => {
    for (const id of row.clauses) {
      const clause = clauseById(id)
      expect(clause, id).toBeDefined()
      expect(clause?.section).toBe('7')
      expect(clause?.statement).toMatch(new RegExp(`\\b${row.status.split(' ')[0]}\\b`))
      const code = row.status.split(' ')[1]
      if (code) expect(clause?.statement).toContain(code)
    }
  })
})

describe('clause catalogue: §8 limits table', () => {
  it('lists 19 rows', () => {
    expect(LIMITS_TABLE).toHaveLength(19)
  })

  it.each(LIMITS_TABLE.map((row) => [row.limit, row] as const))('%s has a clause in §8 or pointing to §8', (_limit, row) => {
    for (const id of row.clauses) {
      const clause = clauseById(id)
      expect(clause, id).toBeDefined()
      expect(clause?.section === '8' || (clause?.also ?? []).includes('8'), id).toBe(true)
    }
  })

  it('points to §8 only from clauses named in the limits table', () => {
    const named = new Set(LIMITS_TABLE.flatMap((row) => row.clauses))
    const stray = clauses.filter((c) => c.also?.includes('8') && !named.has(c.id)).map((c) => c.id)
    expect(stray).toEqual([])
  })
})

describe('clause catalogue: ids the brief and suites rely on', () => {
  it.each([
    '2.2.mask-cpf',
    '2.2.mask-cnpj',
    '2.2.status-map-pending',
    '2.2.type-map-withdraw',
    '2.2.final-amount',
    '2.2.pagination-total-pages',
    '2.3.gross-equals-available-plus-blocked',
    '3.2.pay-ativa-concluida',
    '3.3.settle-devolvido',
    '3.4.register-waiting-payment',
    '4.4.size-range',
    '4.10.txid-length',
    '4.11.e2eid-length',
    '4.11.natureza-med-refused',
    '4.12.url-https',
    '5.cert-token-lifetime',
    '6.2.receive-fields',
    '7.buyer-invalid-uuid-400',
    '8.resend-rate',
    '3.1.transitions-not-shown',
    '4.6.required-fields-not-shown',
    '7.refund-code-status-not-shown',
    '1.own-account-transactions',
    '1.balance-shapes-one-balance',
    '4.4.date-range-filter',
    '4.5.date-range-filter',
  ])('%s exists', (id) => {
    expect(clauseById(id)?.id).toBe(id)
  })
})

describe('loader', () => {
  it('reads the catalogue next to the module', () => {
    expect(CLAUSES_PATH.endsWith('/specs/clauses.yaml')).toBe(true)
    expect(parseClauses(readFileSync(CLAUSES_PATH, 'utf8'))).toEqual(clauses)
  })

  it('caches: the same clause objects every time, and callers cannot corrupt the cache', () => {
    const first = loadClauses()
    first.pop()
    const second = loadClauses()
    expect(second).toHaveLength(clauses.length)
    expect(second[0]).toBe(clauses[0])
    expect(Object.isFrozen(second[0])).toBe(true)
  })

  it('finds a clause by id and answers undefined for an unknown id', () => {
    expect(clauseById('4.10.txid-length')).toMatchObject({ section: '4.10', testability: 'black-box', level: 'must' })
    expect(clauseById('4.10.no-such-clause')).toBeUndefined()
  })

  it('groups ids by section in interface order, losing none', () => {
    const bySection = clauseIdsBySection()
    const sections = [...bySection.keys()]
    expect(sections).toEqual([...sections].sort(compareSections))
    expect([...bySection.values()].flat()).toEqual(clauses.map((c) => c.id))
    expect(bySection.get('4.10')).toContain('4.10.txid-length')
  })
})

describe('loader validation names the bad entry', () => {
  const good = `  - id: 4.10.txid-length
    section: "4.10"
    statement: txid is 26 to 35 characters
    testability: black-box
    level: must
`
  const catalogue = (...entries: string[]) => `clauses:\n${entries.join('')}`

  it('accepts a good entry', () => {
    expect(parseClauses(catalogue(good))).toEqual([
      { id: '4.10.txid-length', section: '4.10', statement: 'txid is 26 to 35 characters', testability: 'black-box', level: 'must' },
    ])
  })

  it.each([
    ['an unquoted section (read as the number 4.1)', good.replace('"4.10"', '4.10'), /#1 \(4\.10\.txid-length\).*quoted section/],
    ['an id with capitals', good.replace('txid-length', 'TxidLength'), /#1 \(4\.10\.TxidLength\).*id must match/],
    ['an id outside its section', good.replace('id: 4.10.', 'id: 4.11.'), /#1 \(4\.11\.txid-length\).*start with its section "4\.10\."/],
    ['a not-shown must', good.replace('black-box', 'not-shown'), /#1 \(4\.10\.txid-length\).*not-shown clause must have level info/],
    ['an unknown testability', good.replace('black-box', 'blackbox'), /testability must be one of/],
    ['an unknown level', good.replace('level: must', 'level: should'), /level must be one of/],
    ['an empty statement', good.replace('txid is 26 to 35 characters', '""'), /statement must be a non-empty single line/],
    ['a misspelt field', good.replace('level:', 'levle:'), /unknown field "levle"/],
    ['an also naming its own section', `${good}    also: ["4.10"]\n`, /must not repeat the clause's own section/],
    ['an unquoted also', `${good}    also: [8]\n`, /also entries must be quoted section numbers/],
  ])('rejects %s', (_what, entry, message) => {
    expect(() => parseClauses(catalogue(entry))).toThrow(ClauseCatalogueError)
    expect(() => parseClauses(catalogue(entry))).toThrow(message)
  })

  it('rejects a duplicate id', () => {
    expect(() => parseClauses(catalogue(good, good))).toThrow(/"4\.10\.txid-length" appears more than once/)
  })

  it('rejects a file without a clauses list, and broken YAML', () => {
    expect(() => parseClauses('clause: []')).toThrow(/top-level "clauses:" list/)
    expect(() => parseClauses('clauses: [\n')).toThrow(/not valid YAML/)
  })
})

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i)
}

function duplicates(values: string[]): string[] {
  const seen = new Set<string>()
  return values.filter((v) => (seen.has(v) ? true : (seen.add(v), false)))
}

/** "4" < "4.1" < "4.2" < "4.10" < "5". */
function compareSections(a: string, b: string): number {
  const [aMajor = 0, aMinor = -1] = a.split('.').map(Number)
  const [bMajor = 0, bMinor = -1] = b.split('.').map(Number)
  return aMajor - bMajor || aMinor - bMinor
}

