// GET /control/requests: the base and gateway requests the reference served, in order, after a
// mark; paths without their query, no header and no body; control requests are not in it.
import { afterAll, beforeAll, expect, expectTypeOf, it } from 'vitest'
import type { LoggedRequest as ReadByTheHarness } from '../../../harness/control.ts'
import type { LoggedRequest as Served } from '../../../reference/lib/request-log.ts'
import { startRef, type Ref } from './helpers.ts'

let ref: Ref
beforeAll(async () => {
  ref = await startRef()
})
afterAll(() => ref.close())

it('lists base and gateway requests after a mark, their paths without the query, and never a control request', async () => {
  const { last: mark } = (await ref.control('/control/requests')).body as { last: number }
  await ref.authed('GET', '/api/transactions?endToEndId=E123&size=5')
  await ref.gateway('/v1/account/balance')
  await ref.control('/control/clock')
  const { requests, last } = (await ref.control(`/control/requests?after=${mark}`)).body as { requests: { seq: number; api: string; method: string; path: string; status: number }[]; last: number }
  expect(requests.map(({ api, method, path, status }) => `${api} ${method} ${path} ${status}`)).toEqual([
    'base POST /oauth/token 200',
    'base GET /api/transactions 200',
    'gateway GET /v1/account/balance 200',
  ])
  expect(requests.map((r) => r.seq)).toEqual([mark + 1, mark + 2, mark + 3])
  expect(last).toBe(mark + 3)
  expect(JSON.stringify(requests)).not.toMatch(/E123|authorization|x-api-key/i)
  expect(((await ref.control(`/control/requests?after=${last}`)).body as { requests: unknown[] }).requests).toEqual([])
  // a reader asks for the newest seq alone with the largest safe integer (cli/receiver/provider.ts requestMark)
  expect((await ref.control(`/control/requests?after=${Number.MAX_SAFE_INTEGER}`)).body).toEqual({ requests: [], last })
})

it('serves the entries the harness reads: one shape on both sides of the control API (checked by tsc)', () => {
  expectTypeOf<Served>().toEqualTypeOf<ReadByTheHarness>()
})
