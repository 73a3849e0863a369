// vitest keeps the errors of every attempt of a retried check (--retries): a retry that failed the
// same way is one error, said once ("failed again on retry"); errors that differ stay apart.
import { describe, expect, test } from 'vitest'
import type { SerializedError } from 'vitest/node'
import { failureOf } from '../../../cli/reporting/reporter.ts'

const error = (message: string): SerializedError => ({ name: 'ClauseFailure', message }) as SerializedError
const REVISAO = '3.2.create-ativa — a new charge has status ATIVA and revisao 0\nrevisao: expected 0, got 1'

describe('the errors of a failed check', () => {
  test.each([
    ['one attempt, one error', [REVISAO], REVISAO, []],
    ['the retry failed the same way', [REVISAO, REVISAO], `${REVISAO}\n\n(failed again on retry)`, []],
    ['two retries failed the same way', [REVISAO, REVISAO, REVISAO], `${REVISAO}\n\n(failed the same way on 2 retries)`, []],
    [
      'the same way but for what a retry draws anew (ids, times)',
      [
        '4.3.found — GET /api/pix/transaction/3f2c9a1e-0d4b-4c1e-9a7b-2b1f0c9d8e7a answered 404 at 2026-11-29T05:00:01.123Z',
        '4.3.found — GET /api/pix/transaction/7a1b2c3d-4e5f-4a6b-8c9d-0e1f2a3b4c5d answered 404 at 2026-11-29T05:00:03.456Z',
      ],
      '4.3.found — GET /api/pix/transaction/3f2c9a1e-0d4b-4c1e-9a7b-2b1f0c9d8e7a answered 404 at 2026-11-29T05:00:01.123Z\n\n(failed again on retry)',
      [],
    ],
    [
      'the same reason, each attempt with its own request and answer',
      [`${REVISAO}\nrequest: PUT http://t/cob/61W1JFlcbng8KFzDaEIRU2GIg2m5d7c7\nresponse: 201 {"loc":{"id":1}}`, `${REVISAO}\nrequest: PUT http://t/cob/Zq8x0PlmA2b3C4d5E6f7G8h9J0k1L2m3\nresponse: 201 {"loc":{"id":2}}`],
      `${REVISAO}\nrequest: PUT http://t/cob/61W1JFlcbng8KFzDaEIRU2GIg2m5d7c7\nresponse: 201 {"loc":{"id":1}}\n\n(failed again on retry)`,
      [],
    ],
    ['the retry failed another way: two errors', [REVISAO, 'revisao: expected 0, got 2'], `${REVISAO}\n\n(+1 more error)`, ['revisao: expected 0, got 2']],
    ['a status differs: two errors', ['status: expected 201, got 500', 'status: expected 201, got 503'], 'status: expected 201, got 500\n\n(+1 more error)', ['status: expected 201, got 503']],
    [
      'two errors, each repeated by the retry',
      ['a: expected 1, got 2', 'b: expected 3, got 4', 'a: expected 1, got 2', 'b: expected 3, got 4'],
      'a: expected 1, got 2\n\n(failed again on retry; +1 more error)',
      ['b: expected 3, got 4'],
    ],
  ])('%s', (_name, messages, message, moreErrors) => {
    expect(failureOf(messages.map(error))).toEqual({ message, moreErrors })
  })
})
