// Listing errors (interface §7 "List transactions" 400 rows): invalid parameters (non-integer page
// or size, an unknown status or type, a malformed date) and a date interval above 31 days answer
// 400 with the §7 error body. Cases come from the parameter schemas of specs/openapi.yaml and the
// date generators, each re-judged before it is sent. (The 404 row of the single view is checked by
// view.test.ts.)
import { check } from '../../harness/check.ts'
import { boundaryCases } from '../../generators/schema-arb.ts'
import { parameterSchema, validator } from '../../generators/openapi.ts'
import { arbOverlongDateWindow, daysBetween, today, addDays } from '../../generators/dates.ts'

const ERROR_BODY = ['7.error-body-shape', '7.error-status-code-matches', '7.error-reason-phrase']
const LISTING = '/api/transactions'

/** Values a parameter's schema refuses: wrong types, enum near misses, malformed formats. */
function invalidValues(name: string): unknown[] {
  const schema = parameterSchema('listTransactions', name)
  const judge = validator(schema)
  const fromSchema = boundaryCases(schema).filter((c) => !c.valid && ['type', 'enum'].includes(c.keyword)).map((c) => c.value)
  return [...fromSchema, ...(name.endsWith('Date') ? malformedDatesNearToday() : [])].filter((v) => judge(v) !== true && judge(String(v)) !== true)
}

/** Not YYYY-MM-DD dates, all near today so that no reading of them makes the interval the reason. */
function malformedDatesNearToday(): string[] {
  const d = today()
  const [year, month, day] = [d.slice(0, 4), d.slice(5, 7), d.slice(8, 10)]
  return [`${year}-${month}-32`, `${year}-${month}-00`, `${day}/${month}/${year}`, 'yesterday']
}

check('account listing with an invalid parameter (non-integer page or size, unknown status or type, malformed date) answers 400 with the error body', {
  clauses: ['7.list-invalid-params-400', ...ERROR_BODY],
}, async (t) => {
  const cases = ['page', 'size', 'status', 'type', 'startDate', 'endDate'].flatMap((name) => invalidValues(name).map((value) => ({ name, value })))
  for (const name of ['page', 'size', 'status', 'type', 'startDate']) {
    if (!cases.some((c) => c.name === name)) t.fail('every parameter has an invalid case', `a case for ${name}`, 'none')
  }
  for (const { name, value } of cases) {
    const query = { [name]: typeof value === 'string' || typeof value === 'number' ? value : JSON.stringify(value) }
    // A valid endDate keeps a lone startDate from being refused for its interval instead of its form.
    if (name === 'startDate') query.endDate = today()
    if (name === 'endDate') query.startDate = addDays(today(), -1)
    t.expectErrorBody(await t.base.get(LISTING, { query }), 400)
  }
})

check('account listing with startDate and endDate more than 31 days apart answers 400 with the error body', {
  clauses: ['7.list-interval-over-31-days-400', ...ERROR_BODY],
}, async (t) => {
  await t.property([arbOverlongDateWindow(31)], async (window) => {
    if (daysBetween(window.startDate, window.endDate) <= 31) t.fail('the generated window is over 31 days (re-check)', '> 31 days', JSON.stringify(window))
    t.expectErrorBody(await t.base.get(LISTING, { query: { ...window } }), 400)
  }, { numRuns: Math.min(t.config.numRuns, 10) })
})
