// What a listing proves about one record (interface §2.2, §4.4, §4.5). A record found in a listing
// is listed, under whichever of its names the item carries; a record absent from a listing is
// absent only when the listing was complete: read to its last page, not cut by the pix-key
// listing's cap of 1000 results (§4.5) nor by the pages the kit reads. A busy account makes the
// broad listings long, so a judgement narrows the query (a window of days around the record, an
// id filter) until the listing is complete; when none is, the judgement is left undecided and the
// check ends inconclusive, naming what cut the listing. Not a suite file: it declares no check.
import { show } from '../../harness/assertions.ts'
import type { CheckContext } from '../../harness/check.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { addDays, isoDate } from '../../generators/dates.ts'
import { centsOf, readAmount } from '../../generators/amounts.ts'
import { ACCOUNT_LISTING, listPage, pixKeyListing, type Json, type Page } from './seed.ts'
import { type Made } from '../common/records.ts'

export type Query = Record<string, string | number | undefined>

/** §4.5: "At most 1000 results in total are returned." */
export const PIX_KEY_CAP = 1000
/** Pages one reading of a listing may take; a listing longer than this is narrowed, or left undecided. */
export const PAGE_BUDGET = 100
/** A listing longer than this many pages is first narrowed, when a narrower query exists. */
const SHORT_LISTING_PAGES = 3

export interface Listing {
  path: string
  query: Query
  /** Every item of the pages read. */
  items: Json[]
  /** The last page read: the evidence a verdict shows. */
  ex: Exchange
  /** Why the items may not be every record the query matches; undefined when the listing is complete. */
  cut: string | undefined
}

const pageSizeOf = (path: string) => (path === ACCOUNT_LISTING ? 100 : PIX_KEY_CAP)
const isPixKeyListing = (path: string) => path !== ACCOUNT_LISTING

/** A window of days around `day` (YYYY-MM-DD): it holds what was created that day in any time zone the target reads dates in. */
export function daysAround(day: string): { startDate: string; endDate: string } {
  return { startDate: addDays(day, -1), endDate: addDays(day, 1) }
}

/** The day (UTC) of a createdAt; undefined when it is not a date-time. */
export function dayOf(createdAt: unknown): string | undefined {
  if (typeof createdAt !== 'string' || Number.isNaN(Date.parse(createdAt))) return undefined
  return isoDate(new Date(createdAt))
}

// ---------------------------------------------------------------------------------------------
// The names of a record

/** Which of a record's names a list item carries, for the observation. */
type NameKind = 'the id its creation answered' | 'the id of its single view' | 'its gateway id' | 'its end-to-end id' | 'its externalId' | `an id only the listing shows (found by ${string})`

/** The name under which `item` lists `m`, or undefined when the item is another record. */
export function nameListed(item: Json, m: Made): NameKind | undefined {
  const id = item.transactionId
  if (typeof id === 'string' && id !== '') {
    if (id === m.id) return 'the id its creation answered'
    if (m.viewId !== undefined && id === m.viewId) return m.linkedBy ? `an id only the listing shows (found by ${m.linkedBy})` : 'the id of its single view'
    if (m.gatewayId !== undefined && id.toLowerCase() === m.gatewayId.toLowerCase()) return 'its gateway id'
  }
  if (m.e2eId !== undefined && item.endToEndId === m.e2eId) return 'its end-to-end id'
  if (m.externalId !== undefined && item.externalId === m.externalId) return 'its externalId'
  return undefined
}

// ---------------------------------------------------------------------------------------------
// Reading a listing

/**
 * One check's readings of listings: pages already read are read once, and the judgements it could
 * not decide (absence from an incomplete listing) end the check inconclusive once its body has run
 * (`withListings`), so a failure later in the check is still seen.
 */
export class Lister {
  private readonly pages = new Map<string, Promise<Page>>()
  private readonly undecided: string[] = []

  constructor(readonly t: CheckContext) {}

  /** One page; a listing that does not answer 200 with `{data, metadata}` fails `clause`. */
  page(clause: string, path: string, query: Query): Promise<Page> {
    const key = `${path}?${JSON.stringify(Object.entries(query).filter(([, v]) => v !== undefined).sort())}`
    let read = this.pages.get(key)
    if (!read) {
      read = listPage(this.t, clause, path, query)
      this.pages.set(key, read)
      read.catch(() => this.pages.delete(key))
    }
    return read
  }

  /**
   * The listing of `query`, read to its end when it takes at most `budget` pages (from the first
   * page's metadata.total), else only its first page; `cut` says why it may be incomplete.
   */
  async read(clause: string, path: string, query: Query, budget = PAGE_BUDGET): Promise<Listing> {
    const size = pageSizeOf(path)
    const first = await this.page(clause, path, { ...query, page: 1, size })
    const total = typeof first.metadata.total === 'number' && Number.isInteger(first.metadata.total) ? first.metadata.total : undefined
    const pages = [first]
    const tooLong = total !== undefined && Math.ceil(total / size) > budget
    for (let page = 2; !tooLong && page <= budget && hasMore(pages[pages.length - 1] as Page); page++) {
      pages.push(await this.page(clause, path, { ...query, page, size }))
    }
    const items = pages.flatMap((p) => p.data)
    const last = pages[pages.length - 1] as Page
    let cut: string | undefined
    if (isPixKeyListing(path) && (items.length >= PIX_KEY_CAP || (total ?? 0) >= PIX_KEY_CAP)) {
      cut = `the pix-key listing answers at most ${PIX_KEY_CAP} results (§4.5) and ${show(query)} reached them (metadata.total ${show(first.metadata.total)})`
    } else if (hasMore(last)) {
      cut = `${total ?? 'more'} records match ${show(query)}: more than the ${budget} pages of ${size} the kit reads of one listing`
    }
    return { path, query, items, ex: last.ex, cut }
  }

  /**
   * The listing of `query` narrowed by the first of `narrowings` (each added to `query`, the
   * narrowest last) that makes it complete; a short listing is read whole before narrowing, a
   * long one only when no narrower query is complete. Incomplete when every one is cut.
   */
  async narrowest(clause: string, path: string, query: Query, narrowings: Query[] = []): Promise<Listing> {
    const queries = [query, ...narrowings.map((n) => ({ ...query, ...n }))]
    const shortOnes: Listing[] = []
    for (const [i, q] of queries.entries()) {
      const l = await this.read(clause, path, q, i === queries.length - 1 ? PAGE_BUDGET : SHORT_LISTING_PAGES)
      if (!l.cut) return l
      shortOnes.push(l)
    }
    for (const l of shortOnes.slice(0, -1)) {
      if (l.cut?.includes('pages of')) {
        const whole = await this.read(clause, l.path, l.query, PAGE_BUDGET)
        if (!whole.cut) return whole
      }
    }
    return shortOnes[shortOnes.length - 1] as Listing
  }

  // -------------------------------------------------------------------------------------------
  // Judgements

  /** `m` is among the items (observed: under which of its names); else fails `clause`, or is undecided on an incomplete listing. */
  expectListed(clause: string, l: Listing, m: Made, rule: string): void {
    if (m.unlinked) return this.observeUnlinked(clause, m)
    const name = this.nameIn(clause, l, m)
    if (name) return
    const expected = `transaction ${m.id} listed for ${show(l.query)}`
    if (l.cut) return this.undecide(`${rule}: ${expected}, absent from the ${l.items.length} items read, but the listing is incomplete: ${l.cut}`)
    const unnamed = l.items.filter((i) => isOfAmount(i, m))
    // An item of its amount may be the record under an id the kit was never given: not linked, not judged.
    if (unnamed.length > 0 && !m.absent) return this.observeUnlinked(clause, { ...m, unlinked: `no item of ${show(l.query)} names it by ${idsText(m)}, and ${unnamed.length} of its amount name other ids` })
    this.t.fail(clause, rule, expected, `absent among ${l.items.length} items (the whole listing): none names it by ${idsText(m)}, none has its amount ${m.amount}${m.absent ? `; ${m.absent}` : ''}`, l.ex)
  }

  /** `m` is not among the items; found fails `clause`; absent from an incomplete listing is undecided. */
  expectNotListed(clause: string, l: Listing, m: Made, rule: string): void {
    if (m.unlinked) return this.observeUnlinked(clause, m)
    const name = this.nameIn(clause, l, m)
    if (name) this.t.fail(clause, rule, `transaction ${m.id} not listed for ${show(l.query)}`, `listed (under ${name})`, l.ex)
    if (l.cut) this.undecide(`${rule}: transaction ${m.id} absent from the ${l.items.length} items read, but the listing is incomplete: ${l.cut}`)
  }

  /** Every item read satisfies `ok` (complete or not); the failure names the first that does not. */
  expectEvery(clause: string, l: Listing, ok: (i: Json) => boolean, rule: string, expected: string): void {
    const bad = l.items.find((i) => !ok(i))
    if (bad) this.t.fail(clause, rule, expected, `item ${show(bad)}`, l.ex)
  }

  /**
   * The item listing `m`, looked for in each listing of `tries` (the narrowest first) until found.
   * Not found fails `clause` when the broadest (the last) was complete; else the check is
   * inconclusive (an item is needed to go on).
   */
  async find(clause: string, path: string, m: Made, tries: Query[]): Promise<{ item: Json; ex: Exchange; listing: Listing }> {
    if (m.unlinked) {
      this.observeUnlinked(clause, m)
      return this.t.inconclusive(`no surface links the ${m.kind ?? 'transaction'} made to a list item: ${m.unlinked}`)
    }
    let last: Listing | undefined
    for (const q of tries) {
      last = await this.read(clause, path, q)
      const item = last.items.find((i) => nameListed(i, m) !== undefined)
      if (item) {
        this.observeName(clause, m, nameListed(item, m) as NameKind)
        return { item, ex: last.ex, listing: last }
      }
    }
    const rule = 'the transaction is listed'
    const expected = `an item naming transaction ${m.id} in ${path}`
    if (!last || last.cut) this.t.inconclusive(`${rule}: ${expected} was not found, and the broadest listing read is incomplete: ${last?.cut ?? 'none was read'}`)
    const unnamed = last.items.filter((i) => isOfAmount(i, m))
    if (unnamed.length > 0 && !m.absent) {
      const why = `no item of ${path} names it by ${idsText(m)}, and ${unnamed.length} of its amount name other ids`
      this.observeUnlinked(clause, { ...m, unlinked: why })
      return this.t.inconclusive(`no surface links the ${m.kind ?? 'transaction'} made to a list item: ${why}`)
    }
    return this.t.fail(clause, rule, expected, `none names it by ${idsText(m)} and none has its amount ${m.amount} (queries ${tries.map((q) => show(q)).join(', ')}; the broadest, the whole listing, has ${last.items.length} items)${m.absent ? `; ${m.absent}` : ''}`, last.ex)
  }

  /** Ends the check inconclusive when a judgement could not be decided. */
  settle(): void {
    if (this.undecided.length > 0) this.t.inconclusive(this.undecided.join('; '))
  }

  private undecide(reason: string): void {
    this.undecided.push(reason)
  }

  private nameIn(clause: string, l: Listing, m: Made): NameKind | undefined {
    for (const item of l.items) {
      const name = nameListed(item, m)
      if (name) {
        this.observeName(clause, m, name)
        return name
      }
    }
    return undefined
  }

  /** A record no surface links to: which surface showed which of its ids (an observation, not a verdict). */
  private observeUnlinked(clause: string, m: Made): void {
    this.t.observe(clause, `a listed ${m.kind ?? 'transaction'} is named by`, `none of the ids the kit holds (${idsText(m)}): ${m.unlinked}`)
  }

  /** Which id names a record in a list item: §2.2 does not say that transactionId is the id its creation answered. */
  private observeName(clause: string, m: Made, name: NameKind): void {
    this.t.observe(clause, `a listed ${m.kind ?? 'transaction'} is named by`, name)
  }
}

/** The ids the kit holds for `m`, for messages. */
function idsText(m: Made): string {
  const ids = [m.id, m.viewId, m.gatewayId, m.e2eId, m.externalId].filter((v): v is string => typeof v === 'string')
  return [...new Set(ids)].join(', ')
}

/** The item's originalAmount is the record's amount (to the cent). */
function isOfAmount(i: Json, m: Made): boolean {
  const c = readAmount(i.originalAmount)
  try {
    return c !== undefined && c === centsOf(m.amount)
  } catch {
    return false
  }
}

/** More pages after `p`: hasNext, on a page that held items. */
function hasMore(p: Page): boolean {
  return p.metadata.hasNext === true && p.data.length > 0
}

/** A check body that reads listings: its undecided judgements end it inconclusive once it has run. */
export function withListings(fn: (t: CheckContext, lists: Lister) => Promise<void>): (t: CheckContext) => Promise<void> {
  return async (t) => {
    const lists = new Lister(t)
    await fn(t, lists)
    lists.settle()
  }
}

// ---------------------------------------------------------------------------------------------
// The quietest PIX key

/**
 * The account's PIX keys, the one whose listing (its default window) holds the fewest records
 * first, so a check that lists by key reads a complete listing where one key of a busy account is
 * past the cap. Keys whose listing does not answer come last (the listing checks judge them).
 */
export async function pixKeysQuietestFirst(t: CheckContext): Promise<string[]> {
  const keys = [...new Set([...(t.config.pixKey ? [t.config.pixKey] : []), ...(await t.control.account()).pixKeys])]
  if (keys.length < 2) return keys
  const totals = await Promise.all(keys.map(async (key) => {
    const ex = await t.base.get(pixKeyListing(key), { query: { size: 1 } })
    const total = (ex.response.json as { metadata?: { total?: unknown } } | undefined)?.metadata?.total
    return ex.response.status === 200 && typeof total === 'number' ? total : Number.POSITIVE_INFINITY
  }))
  return keys.map((key, i) => ({ key, total: totals[i] as number })).sort((a, b) => a.total - b.total).map((k) => k.key)
}

/** The first of `pixKeysQuietestFirst`. */
export async function quietestPixKey(t: CheckContext): Promise<string> {
  return (await pixKeysQuietestFirst(t))[0] ?? t.skip('no PIX key of the account (PIX_PIX_KEY) and the control driver lists none')
}

// ---------------------------------------------------------------------------------------------
// The list item of a viewed transaction

/**
 * The list item of the transaction whose §2.1 view is `view`: looked for through the narrowest
 * queries first (its externalId, then its end-to-end id, on the account listing; the days around
 * its createdAt on the pix-key listing), then the listing without filters. Not listed in a complete
 * listing fails `clause`; not found while the broadest listing is incomplete is inconclusive.
 */
export async function listedItem(t: CheckContext, clause: string, path: string, view: Json): Promise<{ item: Json; ex: Exchange }> {
  const m: Made = {
    id: String(view.id),
    ...(typeof view.externalId === 'string' ? { externalId: view.externalId } : {}),
    ...(typeof view.e2eId === 'string' ? { e2eId: view.e2eId } : {}),
    ...(typeof view.type === 'string' ? { kind: view.type } : {}),
    amount: String(view.originalAmount),
  }
  const tries: Query[] = []
  if (path === ACCOUNT_LISTING && m.externalId !== undefined) tries.push({ externalId: m.externalId })
  if (path === ACCOUNT_LISTING && m.e2eId !== undefined) tries.push({ endToEndId: m.e2eId })
  const day = dayOf(view.createdAt)
  if (path !== ACCOUNT_LISTING && day) tries.push(daysAround(day))
  tries.push({})
  const { item, ex } = await new Lister(t).find(clause, path, m, tries)
  return { item, ex }
}
