// Where the pacer (harness/pacing.ts) keeps its logs of the kit's rate-limited requests: in memory
// (tests), in files this process caches and flushes (FileStore), or in files read and written
// under a lock on every use, for workers that pace one gateway at the same time (SharedFileStore).
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { threadId } from 'node:worker_threads'

/** Where the logs live between suite files (and between runs: the target's window does not care). */
export interface PacerStore {
  load(key: string): number[]
  save(key: string, times: number[]): void
  clear(prefix: string): void
  keys(prefix: string): string[]
  /** Runs `fn` (a synchronous read-modify-write of `key`) with no other process inside it for that key. */
  exclusive?<T>(key: string, fn: () => T): T
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
