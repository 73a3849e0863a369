// The reference's listings read chronological indexes (model/world.ts): whatever order payments
// arrive in (oldest or newest first, in bulk or one by one, between listings), both listings serve
// newest first with ties by numeric id descending, bound the window, count every match, and the
// pix-key listing stops at 1000; resetting an account empties its indexes.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { startRef, type Ref } from './helpers.ts'

let ref: Ref
let token: string

beforeAll(async () => {
  ref = await startRef()
})
afterAll(async () => {
  await ref?.r.close()
})
beforeEach(async () => {
  await ref.reset()
  token = await ref.token()
})

const auth = () => ({ headers: { authorization: `Bearer ${token}` } })

async function pay(body: Record<string, unknown>): Promise<unknown> {
  const r = await ref.control('/control/incoming-payments', { amount: 1, ...body })
  expect(r.status).toBe(200)
  return r.body
}

async function list(path: string, query: Record<string, string | number>): Promise<{ data: { transactionId: string; createdAt: string }[]; metadata: { total: number; hasNext: boolean } }> {
  const r = await ref.base(`${path}?${new URLSearchParams(Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])))}`, auth())
  expect(r.status).toBe(200)
  return r.body
}

function expectNewestFirst(items: { transactionId: string; createdAt: string }[]): void {
  for (let i = 1; i < items.length; i++) {
    const [a, b] = [items[i - 1]!, items[i]!]
    const order = Date.parse(b.createdAt) - Date.parse(a.createdAt) || Number(b.transactionId) - Number(a.transactionId)
    expect(order, `${a.transactionId} (${a.createdAt}) before ${b.transactionId} (${b.createdAt})`).toBeLessThan(0)
  }
}

it('serves payments that arrived out of order newest first, paged without loss, and counts them all', async () => {
  for (const ageDays of [3, 0, 10, 1]) await pay({ ageDays, count: 5 })
  await list('/api/transactions', { size: 1 })  // a listing between arrivals sorts what came so far
  for (const ageDays of [2, 0, 7]) await pay({ ageDays })
  const pages = [await list('/api/transactions', { size: 10, page: 1 }), await list('/api/transactions', { size: 10, page: 2 }), await list('/api/transactions', { size: 10, page: 3 })]
  const items = pages.flatMap((p) => p.data)
  expect(pages[0]!.metadata.total).toBe(23)
  expect(new Set(items.map((i) => i.transactionId)).size).toBe(23)
  expectNewestFirst(items)
})

it('bounds the window by its dates and applies the filters inside it', async () => {
  const now = Date.parse(((await ref.control('/control/clock')).body as { now: string }).now)
  const day = (ageDays: number) => new Date(now - ageDays * 86_400_000).toISOString().slice(0, 10)
  for (const ageDays of [0, 5, 6, 7, 20]) await pay({ ageDays, count: 2 })
  const window = await list('/api/transactions', { startDate: day(7), endDate: day(5), size: 100 })
  expect(window.metadata.total).toBe(6)
  expectNewestFirst(window.data)
  expect((await list('/api/transactions', { startDate: day(7), endDate: day(5), status: 'PENDING' })).metadata.total).toBe(0)
  expect((await list('/api/transactions', { startDate: day(6), endDate: day(6), type: 'PAYMENT' })).metadata.total).toBe(2)
})

it('caps the pix-key listing at 1000 results, the newest, and lists each key apart', async () => {
  const key = ref.env.PIX_PIX_KEY as string
  await pay({ ageDays: 2, count: 600 })
  await pay({ ageDays: 1, count: 600 })
  const newest = (await pay({ externalId: 'kit-index-newest' })) as { transactionId: string }
  const keyPath = `/api/pix/transactions/pix-key/${encodeURIComponent(key)}`
  const capped = await list(keyPath, { size: 1000 })
  expect(capped.metadata.total).toBe(1000)
  expect(capped.data[0]!.transactionId).toBe(newest.transactionId)
  expectNewestFirst(capped.data)
  expect((await list(keyPath, { size: 1000, page: 2 })).data).toEqual([])
  const other = (((await ref.control(`/control/accounts/${ref.env.PIX_CLIENT_ID}`)).body as { pixKeys: string[] }).pixKeys.find((k) => k !== key)) as string
  expect((await list(`/api/pix/transactions/pix-key/${encodeURIComponent(other)}`, {})).metadata.total).toBe(0)
})

it('forgets an account\'s transactions when the account is reset, and finds externalIds again after it', async () => {
  await pay({ externalId: 'kit-index-reset' })
  expect((await ref.base('/api/pix/transaction/kit-index-reset', auth())).status).toBe(200)
  expect((await ref.control(`/control/accounts/${ref.env.PIX_CLIENT_ID}/reset`, {}, 'POST')).status).toBe(204)
  expect((await list('/api/transactions', {})).metadata.total).toBe(0)
  expect((await ref.base('/api/pix/transaction/kit-index-reset', auth())).status).toBe(404)
  await pay({ externalId: 'kit-index-reset' })
  expect((await list('/api/transactions', { externalId: 'kit-index-reset' })).metadata.total).toBe(1)
})
