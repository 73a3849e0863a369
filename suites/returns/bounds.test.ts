// Return and refund bounds (interface §4.11, §4.14, §2.5, §8): the e2eid at 31, 32 and 33
// characters, the return id at 0, 1, 2, 34, 35 and 36, descricao at 139, 140 and 141, natureza
// MED_* refused in requests, valor required; the gateway refund value at its 0.01 minimum. Cases
// come from the schemas of specs/openapi.yaml (boundaryCases) and are re-judged by ajv or the
// codec before they are sent. Received payments to return come from the control API, so every
// accepted case has a real original; ids are fresh for every attempt.
import { check, type CheckContext } from '../../harness/check.ts'
import { show } from '../../harness/assertions.ts'
import { boundaryCases } from '../../generators/schema-arb.ts'
import { parameterSchema, requestBodySchema, validator } from '../../generators/openapi.ts'
import { E2EID_PATH_RE, newUuid, newTxid } from '../../generators/ids.ts'
import { NEAR_MISSES } from '../../generators/near-miss.ts'
import { optionalAbsences } from '../../generators/combinations.ts'
import { putReturn, paidGatewayId, receivedE2eId, refund as refundOf, type Json } from './fixtures.ts'
import { inWaves } from '../common/waves.ts'
import { type Exchange } from '../../harness/exchange.ts'

const DEVOLUCAO_REQUEST = requestBodySchema('putDevolucao') as object
const NEEDS = ['control', 'mutating'] as const
/** What a bound case returns from: R$ 100.00, room for many small returns. */
const RECEIVED_CENTS = 10_000

/** Text of exactly `length` characters (code points, as the interface counts) from `word`. */
const text = (length: number, word = 'Devolucao parcial do pedido '): string => Array.from(word.repeat(length)).slice(0, length).join('')

/** ASCII, then characters of two UTF-8 bytes, then of two UTF-16 units: the bound is the same number of characters. */
const DESCRICAO_WORDS = ['Devolucao parcial do pedido ', 'Devolução ', '😀']

check('return e2eid: 32 alphanumerics are accepted; 31, 33 or a stray character are refused with 400 or 404 and create no return', {
  clauses: ['4.11.e2eid-length'],
  needs: [...NEEDS],
}, async (t) => {
  const e2eid = await receivedE2eId(t, RECEIVED_CENTS)
  const judge = validator(parameterSchema('putDevolucao', 'e2eid'))
  const schemaCases = boundaryCases(parameterSchema('putDevolucao', 'e2eid')).filter((c) => typeof c.value === 'string' && !c.valid).map((c) => c.value as string)
  const nearMisses = [e2eid.slice(0, 31), `${e2eid}0`, `${e2eid.slice(0, 20)}-${e2eid.slice(21)}`, ...schemaCases, ...NEAR_MISSES.e2eid.cases.map((c) => c.value)]
  const clause = '4.11.e2eid-length'
  for (const wrong of nearMisses) {
    if (judge(wrong) === true || E2EID_PATH_RE.test(wrong)) throw new Error(`kit bug: the near miss ${show(wrong)} is a 32-alphanumeric e2eid`)
  }
  // Each near miss names its own return (its own e2eid and id): the attempts side by side, then the
  // returns they may have stored, judged in the order one after another would judge them.
  const tried = await inWaves(nearMisses, async (wrong) => {
    const id = returnIdOfLength(10)
    return { wrong, id, ex: await putReturn(t, wrong, id, { valor: '0.01' }) }
  })
  const stored = await inWaves(tried, ({ wrong, id }) => storedReturn(t, wrong, id).then((value) => ({ value }), (error: unknown) => ({ error })))
  tried.forEach(({ wrong, ex }, i) => {
    t.expectStatus(clause, ex, [400, 404])
    const read = stored[i]!
    if ('error' in read) throw read.error
    t.expectEqual(clause, `a refused e2eid (${show(wrong)}) creates no return (the return stored)`, read.value, undefined)
  })
  const id = returnIdOfLength(10)
  expectCreated(t, clause, await putReturn(t, e2eid, id, { valor: '0.01' }))
})

check('return id: 1, 2, 34 and 35 characters are accepted; 36 is refused with 400; an empty id is refused', {
  clauses: ['4.11.id-length', '2.5.id-equals-path'],
  needs: [...NEEDS],
}, async (t) => {
  const e2eid = await receivedE2eId(t, RECEIVED_CENTS)
  const judge = validator(parameterSchema('putDevolucao', 'id'))
  const lengths = boundaryCases(parameterSchema('putDevolucao', 'id'))
    .filter((c) => typeof c.value === 'string')
    .map((c) => ({ length: Array.from(c.value as string).length, valid: c.valid }))
  const clause = '4.11.id-length'
  for (const { length, valid } of lengths) {
    const id = returnIdOfLength(length)
    if ((judge(id) === true) !== valid) throw new Error(`kit bug: the bound case (a return id of ${length}) is not ${valid ? 'valid' : 'invalid'}`)
    const ex = await putReturn(t, e2eid, id, { valor: '0.01' })
    // An empty id is a path without the id segment: any refusal.
    if (!valid && length === 0) t.expectRefused(clause, ex)
    else if (!valid) t.expectStatus(clause, ex, 400)
    else {
      const body = expectCreated(t, clause, ex)
      t.expectEqual('2.5.id-equals-path', 'the return id equals the path id', body.id, id, ex)
    }
  }
})

check('return descricao: 139 and 140 characters are accepted and echoed, 141 is refused with 400, in ASCII and in multi-byte characters', {
  clauses: ['4.11.descricao-max', '2.5.descricao'],
  needs: [...NEEDS],
}, async (t) => {
  const e2eid = await receivedE2eId(t, RECEIVED_CENTS)
  const judge = validator(DEVOLUCAO_REQUEST)
  const cases = boundaryCases(DEVOLUCAO_REQUEST).filter((c) => c.path === '/descricao' && c.keyword === 'maxLength')
  if (cases.length === 0) throw new Error('kit bug: specs/openapi.yaml gives no maxLength case at /descricao')
  const clause = '4.11.descricao-max'
  for (const [c, word] of cases.flatMap((c) => DESCRICAO_WORDS.map((w) => [c, w] as const))) {
    const length = Array.from((c.value as { descricao: string }).descricao).length
    const body = { valor: '0.01', descricao: text(length, word) }
    if ((judge(body) === true) !== c.valid) throw new Error(`kit bug: the bound case (descricao of ${length}) is not ${c.valid ? 'valid' : 'invalid'}`)
    const ex = await putReturn(t, e2eid, returnIdOfLength(12), body)
    if (!c.valid) t.expectStatus(clause, ex, 400)
    else {
      const created = expectCreated(t, clause, ex)
      t.expectEqual('2.5.descricao', 'the return echoes descricao', created.descricao, body.descricao, ex)
    }
  }
})

check('return natureza MED_OPERACIONAL or MED_FRAUDE in a request is refused with 400', {
  clauses: ['4.11.natureza-med-refused'],
  needs: [...NEEDS],
}, async (t) => {
  const e2eid = await receivedE2eId(t, RECEIVED_CENTS)
  const judge = validator(DEVOLUCAO_REQUEST)
  for (const natureza of ['MED_OPERACIONAL', 'MED_FRAUDE']) {
    const body = { valor: '0.01', natureza }
    if (judge(body) === true) throw new Error(`kit bug: natureza ${natureza} is a valid request value in specs/openapi.yaml`)
    t.expectStatus('4.11.natureza-med-refused', await putReturn(t, e2eid, returnIdOfLength(12), body), 400)
  }
})

check('return without valor is refused with 400', {
  clauses: ['4.11.valor-required'],
  needs: [...NEEDS],
}, async (t) => {
  const e2eid = await receivedE2eId(t, RECEIVED_CENTS)
  for (const body of [{}, { descricao: 'sem valor' }, { valor: null }]) {
    if (validator(DEVOLUCAO_REQUEST)(body) === true) throw new Error(`kit bug: the body ${show(body)} is valid in specs/openapi.yaml`)
    t.expectStatus('4.11.valor-required', await putReturn(t, e2eid, returnIdOfLength(12), body), 400)
  }
})

// ---- gateway refund (§4.14) ----------------------------------------------------------------------

check('gateway refund value: 0.01 and 0.02 are accepted; 0, 0.001 and just under 0.01 are refused with a 4xx', {
  clauses: ['4.14.value-min'],
  needs: [...NEEDS],
}, async (t) => {
  const gatewayId = await paidGatewayId(t, 1_000)
  const schema = requestBodySchema('refundPayment') as object
  const judge = validator(schema)
  const belowFromSchema = boundaryCases(schema).filter((c) => c.keyword === 'minimum' && !c.valid).map((c) => (c.value as { value: number }).value)
  const refund = (value: number) => refundOf(t, gatewayId, { value, description: `kit bound ${newUuid().slice(0, 8)}` })
  const clause = '4.14.value-min'
  for (const value of [0, 0.001, ...belowFromSchema]) {
    if (judge({ value }) === true) throw new Error(`kit bug: the refund value ${value} is valid in specs/openapi.yaml`)
    t.expectRefused(clause, await refund(value))
  }
  for (const value of [0.01, 0.02]) {
    const ex = await refund(value)
    t.expectStatus(clause, ex, [200, 201])
    t.expectSchema(clause, ex, 'refundPayment')
  }
})

check('return optional members (natureza, descricao): present and absent, one at a time and together, the return is created (201)', {
  clauses: ['4.11.status-201'],
  needs: [...NEEDS],
}, async (t) => {
  const e2eid = await receivedE2eId(t, RECEIVED_CENTS)
  const isValid = (body: unknown): boolean => validator(DEVOLUCAO_REQUEST)(body) === true
  const full = { valor: '0.01', natureza: 'ORIGINAL', descricao: 'Devolucao com todos os campos' }
  for (const c of [{ label: 'every member present', value: full, valid: true }, ...optionalAbsences(full, isValid)]) {
    if (!c.valid) throw new Error(`kit bug: the return ${c.label} is not valid by the putDevolucao request schema`)
    const ex = await putReturn(t, e2eid, returnIdOfLength(12), c.value)
    if (ex.response.status !== 201 && !ex.response.error) t.fail('4.11.status-201', `accepted: a return ${c.label}`, 'HTTP 201', `HTTP ${ex.response.status}`, ex)
    expectCreated(t, '4.11.status-201', ex)
  }
})

/** A fresh alphanumeric return id of exactly `length` characters. */
function returnIdOfLength(length: number): string {
  return `${newTxid()}${newTxid()}`.slice(0, length)
}

/** 201 and the return object, or a failure of `clause`. */
function expectCreated(t: CheckContext, clause: string, ex: Exchange): Json {
  t.expectStatus(clause, ex, 201)
  return t.json(clause, ex)
}

/** The control view of a return: undefined when the target holds no such return (404). */
async function storedReturn(t: CheckContext, e2eid: string, id: string): Promise<Json | undefined> {
  const stored = await t.control.attempt(() => t.control.getReturn(e2eid, id))
  if (stored.accepted) return stored.value
  if (stored.status === 404) return undefined
  throw stored.error
}
