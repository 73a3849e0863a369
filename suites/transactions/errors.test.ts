// Listing errors (interface §7 "List transactions" 400 rows): invalid parameters (non-integer page
// or size, an unknown status or type, a malformed date) and a date interval above 31 days answer
// 400 with the §7 error body. Cases come from the parameter schemas of specs/openapi.yaml and the
// date generators, each re-judged before it is sent. (The 404 row of the single view is checked by
// view.test.ts.)
import { ERROR_BODY_CLAUSES as ERROR_BODY } from '../../harness/assertions.ts'
import { check } from '../../harness/check.ts'
import { arbOverlongDateWindow, daysBetween, today, addDays, type DateWindow } from '../../generators/dates.ts'
import { boundaryCases } from '../../generators/schema-arb.ts'
import { parameterSchema, validator } from '../../generators/openapi.ts'
import { inWaves } from '../common/waves.ts'

const LISTING = '/api/transactions'
const MAX_INTERVAL_DAYS = 31

check('account listing with an invalid parameter (non-integer page or size, unknown status or type, malformed date) answers 400 with the error body', {
  clauses: ['7.list-invalid-params-400', ...ERROR_BODY],
}, async (t) => {
  const cases = ['page', 'size', 'status', 'type', 'startDate', 'endDate'].flatMap((name) => invalidValues(name).map((value) => ({ name, value })))
  for (const name of ['page', 'size', 'status', 'type', 'startDate']) {
    if (!cases.some((c) => c.name === name)) throw new Error(`kit bug: no invalid case for the listing parameter ${name}`)
  }
  // reads, each its own: side by side, judged in order
  const answers = await inWaves(cases, ({ name, value }) => {
    const query = { [name]: typeof value === 'string' || typeof value === 'number' ? value : JSON.stringify(value) }
    // A valid endDate keeps a lone startDate from being refused for its interval instead of its form.
    if (name === 'startDate') query.endDate = today()
    if (name === 'endDate') query.startDate = addDays(today(), -1)
    return t.base.get(LISTING, { query })
  })
  for (const ex of answers) t.expectErrorBody('7.list-invalid-params-400', ex, 400)
})

check('account listing with startDate and endDate more than 31 days apart answers 400 with the error body', {
  clauses: ['7.list-interval-over-31-days-400', ...ERROR_BODY],
}, async (t) => {
  const endDate = today()
  // n+1 of the bound, ending today and in the past.
  const examples: [DateWindow][] = [[{ startDate: addDays(endDate, -(MAX_INTERVAL_DAYS + 1)), endDate }], [{ startDate: addDays(endDate, -100), endDate: addDays(endDate, -100 + MAX_INTERVAL_DAYS + 1) }]]
  await t.property<[DateWindow]>([arbOverlongDateWindow(MAX_INTERVAL_DAYS)], async (window) => {
    if (daysBetween(window.startDate, window.endDate) <= MAX_INTERVAL_DAYS) throw new Error(`kit bug: the generated window ${JSON.stringify(window)} is not over ${MAX_INTERVAL_DAYS} days`)
    t.expectErrorBody('7.list-interval-over-31-days-400', await t.base.get(LISTING, { query: { ...window } }), 400)
  }, { examples, cost: 1 })
})

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
