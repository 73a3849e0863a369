// The kit's own pacing of the two rate-limited operations (interface §4.12, §4.13, §8): webhook
// resend, 60 requests per minute per account, and gateway balance, 60 per minute per API key.
// The kit must never trip these limits by accident, or an unrelated check would fail with a 429
// that the kit itself provoked. So every request to one of them goes through the pacer first: it
// keeps, per (API key, operation), a sliding log of the kit's own requests, and delays a request
// that would be the 61st within 60 seconds until the oldest one leaves the window.
//
// The log outlives a suite file and a run (a file may get a fresh module graph, a shard or a rerun
// is another process, and the target's window does not care), so the log is kept in a small file
// under the OS temp folder, named by a hash of the gateway URL, the operation and
// the API key (the key itself is never written). A certification runs suite files in several
// workers at once (harness/schedule.ts), so there the logs are read and written under a lock, never
// cached (SharedFileStore): the pace stays exact across workers and concurrent checks.
//
// Rate-limit checks that exhaust a window on purpose send their burst `unpaced` (recorded, never
// delayed) and then either roll the target's window with the control clock and `forget()` the
// log, or leave the log full so the next request waits.
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { threadId } from 'node:worker_threads'

export interface RateLimitedOperation {
  /** OpenAPI operation id (CONTRACTS §1); resend's v1 and v2 paths share one window. */
  operation: 'resendWebhook' | 'getGatewayBalance'
  method: string
  path: RegExp
  limit: number
  windowMs: number
  /** What the interface counts per. The kit knows an account only by its API key, so both are keyed by key. */
  scope: 'account' | 'apiKey'
}

export const RATE_LIMITED: readonly RateLimitedOperation[] = [
  { operation: 'resendWebhook', method: 'POST', path: /^\/pix\/v[12]\/webhooks\/resend\/[^/]*\/?$/, limit: 60, windowMs: 60_000, scope: 'account' },
  { operation: 'getGatewayBalance', method: 'GET', path: /^\/v1\/account\/balance\/?$/, limit: 60, windowMs: 60_000, scope: 'apiKey' },
]

/**
 * Added to every computed wait: the target timestamps a request when it receives it, a little
 * after the kit sent it, so a request sent the instant the oldest leaves could still be refused.
 */
export const PACING_MARGIN_MS = 250

/** Where the logs live between suite files (and between runs: the target's window does not care). */
export interface PacerStore {
  load(key: string): number[]
  save(key: string, times: number[]): void
  clear(prefix: string): void
  keys(prefix: string): string[]
  /** Runs `fn` (a synchronous read-modify-write of `key`) with no other process inside it for that key. */
  exclusive?<T>(key: string, fn: () => T): T
}

export interface PaceRequest {
  method: string
  url: string
  headers: Record<string, string>
}

export interface PacerOptions {
  gatewayUrl: string
  store?: PacerStore
  now?: () => number
  sleep?: (ms: number) => Promise<void>
  /** Where a wait is announced (progress); default stderr. Never given a key. */
  log?: (line: string) => void
}

export interface Slot {
  operation: RateLimitedOperation
  /** Store key: hash of gateway URL, operation and API key. */
  key: string
}

export class Pacer {
  private readonly store: PacerStore
  private readonly now: () => number
  private readonly sleep: (ms: number) => Promise<void>
  private readonly log: (line: string) => void
  private readonly gatewayUrl: URL

  constructor(opts: PacerOptions) {
    this.gatewayUrl = new URL(opts.gatewayUrl)
    this.store = opts.store ?? new FileStore()
    this.now = opts.now ?? Date.now
    this.sleep = opts.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)))
    this.log = opts.log ?? ((line) => process.stderr.write(`${line}\n`))
  }

  /** The rate-limited operation and log a request falls under, or undefined when it is not limited. */
  slotOf(req: PaceRequest): Slot | undefined {
    const apiKey = headerValue(req.headers, 'x-api-key')
    if (apiKey === undefined) return undefined
    const path = this.gatewayPath(req.url)
    if (path === undefined) return undefined
    const operation = RATE_LIMITED.find((op) => op.method === req.method.toUpperCase() && op.path.test(path))
    return operation ? { operation, key: this.storeKey(operation, apiKey) } : undefined
  }

  /**
   * Call right before sending. Waits while the kit already sent `limit` requests of this slot in
   * the window (unless `unpaced`), then records this one. Returns the time waited in ms.
   */
  async beforeSend(req: PaceRequest, opts: { unpaced?: boolean } = {}): Promise<number> {
    const slot = this.slotOf(req)
    if (!slot) return 0
    let waited = 0
    const exclusive = <T>(fn: () => T): T => (this.store.exclusive ? this.store.exclusive(slot.key, fn) : fn())
    for (;;) {
      // wait-or-record in one step: two workers never both take the last place in the window
      const wait = exclusive(() => {
        const w = opts.unpaced ? 0 : this.waitFor(slot)
        if (w <= 0) this.record(slot)
        return w
      })
      if (wait <= 0) return waited
      this.log(`pacing: waiting ${(wait / 1000).toFixed(1)} s before ${slot.operation.operation}: the kit sent ${slot.operation.limit} in the last ${slot.operation.windowMs / 1000} s`)
      await this.sleep(wait)
      waited += wait
    }
  }

  /** How many requests of the slot the kit sent within the window ending now. */
  sentInWindow(slot: Slot): number {
    return this.live(slot).length
  }

  /** When the window holds none of the kit's requests of the slot any more (epoch ms; now when already empty). */
  windowClearAt(slot: Slot): number {
    const log = this.live(slot)
    const last = log[log.length - 1]
    return last === undefined ? this.now() : last + slot.operation.windowMs + PACING_MARGIN_MS
  }

  /** Waits until the window holds none of the kit's requests of the slot; returns the time waited. */
  async waitForClearWindow(slot: Slot): Promise<number> {
    const wait = this.windowClearAt(slot) - this.now()
    if (wait <= 0) return 0
    this.log(`pacing: waiting ${(wait / 1000).toFixed(1)} s for a ${slot.operation.operation} window free of the kit's own requests`)
    await this.sleep(wait)
    return wait
  }

  /** The target's windows rolled (its clock moved a whole window forward, or it was reset): forget every log of this gateway. */
  forget(): void {
    this.store.clear(this.gatewayPrefix())
  }

  /** One API key's windows emptied (its account was reset): forget the kit's requests made with it. */
  forgetKey(apiKey: string): void {
    for (const op of RATE_LIMITED) this.store.save(this.storeKey(op, apiKey), [])
  }

  /**
   * The target's simulated clock moved `seconds` forward (control clock): its windows see the
   * kit's past requests that much older, and so does the pacer.
   */
  clockAdvanced(seconds: number): void {
    if (!(seconds > 0)) return
    const ms = seconds * 1000
    const cutoff = this.now() - Math.max(...RATE_LIMITED.map((op) => op.windowMs))
    for (const key of this.store.keys(this.gatewayPrefix())) {
      this.store.save(key, this.store.load(key).map((t) => t - ms).filter((t) => t > cutoff))
    }
  }

  /** ms until one more request fits in the window; 0 when it fits now. */
  private waitFor(slot: Slot): number {
    const log = this.live(slot)
    const { limit, windowMs } = slot.operation
    if (log.length < limit) return 0
    const oldestThatMustLeave = log[log.length - limit] as number
    return Math.max(0, oldestThatMustLeave + windowMs + PACING_MARGIN_MS - this.now())
  }

  private record(slot: Slot): void {
    const log = this.live(slot)
    log.push(this.now())
    this.store.save(slot.key, log)
  }

  private live(slot: Slot): number[] {
    const cutoff = this.now() - slot.operation.windowMs
    return this.store.load(slot.key).filter((t) => t > cutoff)
  }

  private gatewayPath(url: string): string | undefined {
    let u: URL
    try {
      u = new URL(url)
    } catch {
      return undefined
    }
    if (u.origin !== this.gatewayUrl.origin) return undefined
    const prefix = this.gatewayUrl.pathname.replace(/\/+$/, '')
    if (!u.pathname.startsWith(prefix)) return undefined
    return u.pathname.slice(prefix.length) || '/'
  }

  private gatewayPrefix(): string {
    return sha256(this.gatewayUrl.href).slice(0, 16)
  }

  private storeKey(op: RateLimitedOperation, apiKey: string): string {
    return `${this.gatewayPrefix()}-${op.operation}-${sha256(`${op.operation}\n${apiKey}`).slice(0, 24)}`
  }
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v
  return undefined
}

function sha256(s: string): string {
  return createHash('sha256').update(s).digest('hex')
}

/** Logs in memory only: for tests, and for a pacer whose life is one process. */
export class MemoryStore implements PacerStore {
  private readonly logs = new Map<string, number[]>()
  load(key: string): number[] {
    return [...(this.logs.get(key) ?? [])]
  }
  save(key: string, times: number[]): void {
    this.logs.set(key, [...times])
  }
  clear(prefix: string): void {
    for (const key of this.keys(prefix)) this.logs.delete(key)
  }
  keys(prefix: string): string[] {
    return [...this.logs.keys()].filter((key) => key.startsWith(prefix))
  }
}

/**
 * One JSON array of timestamps per log, in `<tmp>/pix-kit-pacing/` (PIX_PACING_DIR overrides).
 *
 * Every rate-limited request and every control clock move saves a log. Profiles of a certification
 * put 2–3 s of the worker's CPU in writing (and renaming) a file on each save, so the store keeps
 * the logs of this process in memory and writes changed ones to disk at most every
 * FLUSH_DELAY_MS, after a rate-limit burst (suites/rate-limits/window.ts), when a suite file ends
 * (harness/check.ts) and when the process exits normally (vitest ends its workers with SIGTERM, so
 * the end of the last file is the last flush there). The files are for the next process (a rerun,
 * a shard, the next suite file under `isolate`); this process never reads a file again once it
 * holds the log, so processes sharing one gateway must run one after another, shards included.
 */
export class FileStore implements PacerStore {
  constructor(readonly dir: string = process.env.PIX_PACING_DIR ?? join(tmpdir(), 'pix-kit-pacing')) {}

  load(key: string): number[] {
    const file = this.file(key)
    let times = remembered.get(file)
    if (times === undefined) {
      times = readTimes(file)
      remembered.set(file, times)
    }
    return [...times]
  }

  save(key: string, times: number[]): void {
    const file = this.file(key)
    remembered.set(file, [...times])
    unwritten.set(file, this.dir)
    scheduleFlush()
    for (const [prefix, keys] of this.listings()) if (key.startsWith(prefix)) keys.add(key)
  }

  clear(prefix: string): void {
    for (const key of this.keys(prefix)) {
      rmSync(this.file(key), { force: true })
      remembered.delete(this.file(key))
      unwritten.delete(this.file(key))
      for (const keys of this.listings().values()) keys.delete(key)
    }
  }

  keys(prefix: string): string[] {
    const listings = this.listings()
    let keys = listings.get(prefix)
    if (keys === undefined) {
      keys = new Set(this.readListing(prefix))
      listings.set(prefix, keys)
    }
    return [...keys]
  }

  /** The keys this process knows of, by the prefixes it listed the folder for; save() and clear() keep them current. */
  private listings(): Map<string, Set<string>> {
    let byPrefix = listingsByDir.get(this.dir)
    if (!byPrefix) {
      byPrefix = new Map()
      listingsByDir.set(this.dir, byPrefix)
    }
    return byPrefix
  }

  /** The folder's logs of a prefix, and those saved but not written yet. */
  private readListing(prefix: string): string[] {
    let names: string[] = []
    try {
      names = readdirSync(this.dir)
    } catch {
      // no folder yet
    }
    for (const [file, dir] of unwritten) if (dir === this.dir) names.push(basename(file))
    return [...new Set(names)].filter((n) => n.startsWith(prefix) && n.endsWith('.json')).map((n) => n.slice(0, -'.json'.length))
  }

  private file(key: string): string {
    return join(this.dir, `${key}.json`)
  }
}

/**
 * The logs on disk, read on every load and written on every save, a key's read-modify-write under
 * a lock (a directory beside its log: mkdir is atomic). For workers that pace the same gateway at
 * the same time (PIX_PACING_SHARED=1, set by the CLI).
 */
export class SharedFileStore implements PacerStore {
  constructor(readonly dir: string = process.env.PIX_PACING_DIR ?? join(tmpdir(), 'pix-kit-pacing')) {}

  load(key: string): number[] {
    return readTimes(this.file(key))
  }

  save(key: string, times: number[]): void {
    writeWhole(this.file(key), this.dir, JSON.stringify(times))
  }

  clear(prefix: string): void {
    for (const key of this.keys(prefix)) rmSync(this.file(key), { force: true })
  }

  keys(prefix: string): string[] {
    let names: string[] = []
    try {
      names = readdirSync(this.dir)
    } catch {
      // no folder yet
    }
    return names.filter((n) => n.startsWith(prefix) && n.endsWith('.json')).map((n) => n.slice(0, -'.json'.length))
  }

  exclusive<T>(key: string, fn: () => T): T {
    const lock = `${this.file(key)}.lock`
    mkdirSync(this.dir, { recursive: true })
    for (;;) {
      try {
        mkdirSync(lock)
        break
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
        // a lock older than a second was left by a killed process (the work inside takes microseconds)
        if (lockAgeMs(lock) > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true })
        Atomics.wait(napping, 0, 0, 1)
      }
    }
    try {
      return fn()
    } finally {
      rmSync(lock, { recursive: true, force: true })
    }
  }

  private file(key: string): string {
    return join(this.dir, `${key}.json`)
  }
}

const STALE_LOCK_MS = 1_000
const napping = new Int32Array(new SharedArrayBuffer(4))

function writeWhole(file: string, dir: string, json: string): void {
  const tmp = `${file}.${process.pid}.${threadId}.tmp`
  try {
    writeFileSync(tmp, json)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
    mkdirSync(dir, { recursive: true })  // the first save, or the folder was removed
    writeFileSync(tmp, json)
  }
  renameSync(tmp, file)
}

/** How long ago the lock was taken; 0 when it is gone already. */
function lockAgeMs(lock: string): number {
  try {
    return Date.now() - statSync(lock).mtimeMs
  } catch {
    return 0
  }
}

/** What this process read or wrote, by file. */
const remembered = new Map<string, number[]>()
/** Saved logs not on disk yet, by file. */
const unwritten = new Map<string, string>()  // file → its folder
let flushTimer: NodeJS.Timeout | undefined
let flushOnExit = false
const FLUSH_DELAY_MS = 200

function scheduleFlush(): void {
  if (!flushOnExit) {
    process.once('exit', flushQuietly)
    flushOnExit = true
  }
  flushTimer ??= setTimeout(flushQuietly, FLUSH_DELAY_MS).unref()
}

/** From a timer or at exit there is no check to fail: a log that cannot be written is reported once. */
function flushQuietly(): void {
  try {
    flushPacingLogs()
  } catch (e) {
    process.stderr.write(`pacing: the rate-limit log could not be written (${(e as Error).message}); a later run may wait less than it should\n`)
  }
}

/** Writes every log saved since the last flush (each whole, through a temporary file: never half a log). */
export function flushPacingLogs(): void {
  clearTimeout(flushTimer)
  flushTimer = undefined
  const files = [...unwritten]
  unwritten.clear()
  for (const [file, dir] of files) writeWhole(file, dir, JSON.stringify(remembered.get(file) ?? []))
}
const listingsByDir = new Map<string, Map<string, Set<string>>>()

function readTimes(file: string): number[] {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown
    return Array.isArray(parsed) ? parsed.filter((t): t is number => typeof t === 'number') : []
  } catch {
    return []
  }
}

/** One pacer per gateway URL per process. */
const pacers = new Map<string, Pacer>()

export function pacerFor(gatewayUrl: string): Pacer {
  let p = pacers.get(gatewayUrl)
  if (!p) {
    p = new Pacer({ gatewayUrl, store: process.env.PIX_PACING_SHARED === '1' ? new SharedFileStore() : new FileStore() })
    pacers.set(gatewayUrl, p)
  }
  return p
}
