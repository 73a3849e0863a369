// Faults of protocol strictness (issue 40 item 5): answers and notifications that a lenient JSON
// decoder reads without complaint but that are not JSON as the conventions and RFC 8259 write it.
import { defineFault, jsonObjectOf, matches, type ProxyRequest, type ProxyResponse, type WebhookDelivery } from '../../fault.ts'

const JSON_FILE = ['conventions/json.test.ts']
const BOM = Buffer.from([0xef, 0xbb, 0xbf])

const isBalance = (req: ProxyRequest) => matches(req, 'GET', '/api/balance', 'base')

/** The object's text with its first member written twice (same value): `{"a":1,"a":1,…}`. */
function firstMemberTwice(o: Record<string, unknown>): Buffer | undefined {
  const [first] = Object.entries(o)
  if (!first) return undefined
  return Buffer.from(`{${JSON.stringify(first[0])}:${JSON.stringify(first[1])},${JSON.stringify(o).slice(1)}`)
}

const withBody = <M extends ProxyResponse | WebhookDelivery>(m: M, body: Buffer | undefined): M | undefined => (body ? { ...m, body } : undefined)

export default [
  defineFault({
    id: 'proto-answer-member-twice', area: 'conventions', files: JSON_FILE, clauses: ['0.json-bodies'],
    description: 'the public balance answer writes its first member twice ({"balance":…,"balance":…}): JSON.parse keeps the last, a strict decoder refuses',
    escapes: 'not a fault: RFC 8259 §4 says member names SHOULD be unique, so a body with one written twice is still JSON; the conventions checks observe it (memberNamesTwice), they do not fail it',
    onResponse(req, res) {
      const o = isBalance(req) ? jsonObjectOf(res) : undefined
      return o ? withBody(res, firstMemberTwice(o)) : undefined
    },
  }),
  defineFault({
    id: 'proto-answer-byte-order-mark', area: 'conventions', files: JSON_FILE, clauses: ['0.json-bodies'],
    description: 'the public balance answer starts with a UTF-8 byte order mark (RFC 8259 §8.1: MUST NOT)',
    onResponse(req, res) {
      return isBalance(req) && res.body.length > 0 ? { ...res, body: Buffer.concat([BOM, res.body]) } : undefined
    },
  }),
  defineFault({
    id: 'proto-slip-answer-member-twice', area: 'conventions', files: JSON_FILE, clauses: ['0.json-bodies'],
    description: 'the bank slip creation answer writes its first member twice (same value)',
    escapes: 'not a fault: RFC 8259 §4 says member names SHOULD be unique, so a body with one written twice is still JSON; the conventions checks observe it (memberNamesTwice), they do not fail it',
    onResponse(req, res) {
      const o = matches(req, 'POST', '/bank-slip/v1/payment', 'gateway') ? jsonObjectOf(res) : undefined
      return o ? withBody(res, firstMemberTwice(o)) : undefined
    },
  }),
  defineFault({
    id: 'proto-return-answer-trailing-newline-garbage', area: 'conventions', files: JSON_FILE, clauses: ['0.json-bodies'],
    description: 'the return answer is followed by a second JSON value (a log line written to the response): {"…"}\n{"log":"ok"}',
    onResponse(req, res) {
      return matches(req, 'PUT', /^\/pix\/[^/]+\/devolucao\/[^/]+$/, 'base') && res.body.length > 0 ? { ...res, body: Buffer.concat([res.body, Buffer.from('\n{"log":"ok"}')]) } : undefined
    },
  }),
  defineFault({
    id: 'proto-notification-text-json', area: 'conventions', files: JSON_FILE, clauses: ['6.http-post-json'],
    description: 'notifications are labelled Content-Type text/json (a lenient /json/ test accepts it)',
    onWebhook(d) {
      return { ...d, headers: { ...d.headers, 'content-type': 'text/json' } }
    },
  }),
  defineFault({
    id: 'proto-notification-byte-order-mark', area: 'conventions', files: JSON_FILE, clauses: ['6.http-post-json'],
    description: 'notification bodies start with a UTF-8 byte order mark',
    onWebhook(d) {
      return d.body.length > 0 ? { ...d, body: Buffer.concat([BOM, d.body]) } : undefined
    },
  }),
  defineFault({
    id: 'proto-notification-member-twice', area: 'conventions', files: JSON_FILE, clauses: ['6.http-post-json'],
    description: 'notification bodies write their first member twice (same value)',
    escapes: 'not a fault: RFC 8259 §4 says member names SHOULD be unique, so a body with one written twice is still JSON; the conventions checks observe it (memberNamesTwice), they do not fail it',
    onWebhook(d) {
      const o = jsonObjectOf(d)
      return o ? withBody(d, firstMemberTwice(o)) : undefined
    },
  }),
]
