// Gives every clause of specs/clauses.yaml a `severity:` line: money (moves or misstates money or
// balances), security (authentication, authorisation, another account's data, secrets), data
// (wrong or missing fields, masking), protocol (statuses, error bodies, formats).
//
// Deterministic and idempotent: the override table first, then the rules in order, the first
// that matches wins; an existing severity line is replaced. Re-run after editing the catalogue:
//   npx tsx scripts/assign-severity.ts            (rewrites specs/clauses.yaml)
//   npx tsx scripts/assign-severity.ts --check    (exit 1 when a clause's line differs)
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Severity } from '../generators/clauses.ts'

/** Clauses whose id and section say too little: decided one by one. */
export const OVERRIDES: Readonly<Record<string, Severity>> = {
  '1.own-account-transactions': 'security',
  '1.balance-shapes-one-balance': 'money',
  '2.1.counterpart-document-unmasked': 'data',
  '2.2.final-amount': 'money',
  '2.3.gateway-id': 'data',
  '2.3.public-consulted-at': 'data',
  '2.3.gateway-consulted-at': 'data',
  '2.3.bcb-event-date': 'data',
  '2.3.bcb-data-array': 'data',
  '2.3.consulted-at-is-event-date': 'data',
  '2.5.valor-format': 'money',
  '2.6.amount': 'money',
  '3.2.pay-ativa-concluida': 'money',
  '3.2.final-states': 'money',
  '3.3.settle-devolvido': 'money',
  '3.3.fail-nao-realizado': 'money',
  '3.3.final-states': 'money',
  '3.4.pay-paid': 'money',
  '4.oauth-token-no-auth': 'protocol',
  '4.2.client-secret-length': 'protocol',
  '4.2.wrong-secret-refused': 'security',
  '4.2.scope-of-the-client': 'security',
  '4.7.value-two-decimals': 'money',
  '4.7.value-matches-qr': 'money',
  '4.7.external-id-unique': 'money',
  '4.7.qr-prefix': 'protocol',
  '4.16.must-be-registered': 'protocol',
  '4.11.partial-returns-up-to-original': 'money',
  '4.11.within-89-days-accepted': 'money',
  '4.12.url-http-not-delivered': 'security',
  '4.12.untrusted-receiver-certificate': 'security',
  '4.12.ip-allow-list': 'security',
  '4.12.internal-variant': 'security',
  '4.14.description-optional': 'protocol',
  '4.14.success-transaction-id': 'data',
  '5.scope-mapping-not-shown': 'protocol',
  '5.example-scopes': 'protocol',
  '6.1.value-number': 'money',
  '6.2.receive-txid-of-charge': 'money',
  '6.sender-client-certificate': 'security',
  '7.return-value-exceeds-refundable-400': 'money',
  '7.return-after-89-days-422': 'money',
}

interface Rule {
  severity: Severity
  why: string
  matches: (id: string, section: string) => boolean
}

const idHas = (re: RegExp) => (id: string) => re.test(id)
const inSection = (...sections: string[]) => (_id: string, section: string) => sections.includes(section)

/** In order; the first rule that matches decides. */
export const RULES: readonly Rule[] = [
  { severity: 'security', why: 'authentication and authorisation (§5)', matches: inSection('5') },
  {
    severity: 'security',
    why: 'credentials, keys, tokens, scopes, another account',
    matches: idHas(/(api-key|bad-key|unauthorized|no-permission|permission-denied|bearer-|cert-token|other-account|own-account|scope-denied|client-(id|secret)-required)/),
  },
  { severity: 'money', why: 'balances and their movements (§2.3, §3.6)', matches: inSection('2.3', '3.6') },
  { severity: 'money', why: 'gateway refunds (§4.14)', matches: inSection('4.14') },
  { severity: 'protocol', why: 'conventions, errors, limits, versioning (§0, §7, §8, §9)', matches: inSection('0', '7', '8', '9') },
  { severity: 'money', why: 'amounts refunded or balances', matches: idHas(/(balance|refundable|refund-value|sum-not-exceed|enough-balance)/) },
  { severity: 'protocol', why: 'statuses, bounds and refusals of a request', matches: idHas(/(status-20\d|-(400|401|403|404|409|422|429|500)$|page-(min|default)|size-(range|default)|-max$|-min$|-required$|length$|interval|-accepted$|-refused$|txid-length|e2eid|not-shown$|short-path|repeat-safe|response-success|transaction-id-forms|v2-identical|body-optional|http-post-json|receiver-answers-200|declared-delivery)/) },
  { severity: 'data', why: 'fields of resources and notifications, states, filters, masking (§1-§4, §6)', matches: () => true },
]

export function severityOf(id: string, section: string): Severity {
  const override = OVERRIDES[id]
  if (override) return override
  return RULES.find((r) => r.matches(id, section))!.severity
}

const ID_LINE = /^(\s*)- id:\s*(\S+)\s*$/
const SECTION_LINE = /^\s+section:\s*"?([^"\s]+)"?\s*$/
const SEVERITY_LINE = /^\s+severity:/
const LEVEL_LINE = /^\s+level:/

/** The catalogue text with one `severity:` line per clause, after its `level:` line. */
export function assignSeverities(text: string): string {
  const lines = text.split('\n')
  const out: string[] = []
  for (let i = 0; i < lines.length; ) {
    const start = ID_LINE.exec(lines[i]!)
    if (!start) {
      out.push(lines[i++]!)
      continue
    }
    const block = [lines[i++]!]
    const keyIndent = `${start[1]}  `
    while (i < lines.length && lines[i]!.startsWith(keyIndent) && !ID_LINE.test(lines[i]!)) block.push(lines[i++]!)
    const id = start[2]!
    const section = block.map((l) => SECTION_LINE.exec(l)?.[1]).find((s) => s !== undefined) ?? id.split('.')[0]!
    const kept = block.filter((l) => !SEVERITY_LINE.test(l))
    const at = kept.findIndex((l) => LEVEL_LINE.test(l))
    kept.splice(at >= 0 ? at + 1 : kept.length, 0, `${keyIndent}severity: ${severityOf(id, section)}`)
    out.push(...kept)
  }
  return out.join('\n')
}

const invokedDirectly = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]
if (invokedDirectly) {
  const path = fileURLToPath(new URL('../specs/clauses.yaml', import.meta.url))
  const before = readFileSync(path, 'utf8')
  const after = assignSeverities(before)
  if (process.argv.includes('--check')) {
    if (before !== after) {
      process.stderr.write('specs/clauses.yaml: severities differ from scripts/assign-severity.ts (run it)\n')
      process.exit(1)
    }
  } else {
    writeFileSync(path, after)
    const counts: Record<string, number> = {}
    for (const m of after.matchAll(/^\s+severity: (\S+)$/gm)) counts[m[1]!] = (counts[m[1]!] ?? 0) + 1
    process.stdout.write(`specs/clauses.yaml: ${Object.entries(counts).map(([s, n]) => `${n} ${s}`).join(', ')}\n`)
  }
}
