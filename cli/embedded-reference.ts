// The embedded reference, certified when no config names a target, runs in a child process of the
// CLI (bin/embedded-reference.js): its world, its servers and its TLS live apart from the CLI's
// vitest main side and reporter, so neither process of a certification carries both (the CLI's
// peak fell by about 70 MB), and it starts on the other core while the CLI imports vitest.
// The child prints its settings as one JSON line on stdout; it closes (and removes its certificate
// folder) when its stdin ends, which the parent's close() does and the parent's death does too, or
// on SIGINT/SIGTERM.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SMALL_HEAP_ENV, SMALL_HEAP_FLAGS } from './process-settings.ts'

const CHILD_BIN = fileURLToPath(new URL('../bin/embedded-reference.js', import.meta.url))
/** How long the child may take to print its settings. */
const START_LIMIT_MS = 60_000
/** How long close() waits for the child to end before it kills it. */
const CLOSE_LIMIT_MS = 10_000
const SETTINGS_LINE = 'pix-embedded-reference '

export interface EmbeddedReference {
  env: Record<string, string>
  close(): Promise<void>
}

/** Starts the reference in a child process on free loopback ports; its certificate files live in a temporary folder removed on close. */
export async function startEmbeddedReference(): Promise<{ ok: true; reference: EmbeddedReference } | { ok: false; reason: string }> {
  const outDir = mkdtempSync(join(tmpdir(), 'pix-embedded-'))
  const child = spawn(process.execPath, [...SMALL_HEAP_FLAGS, CHILD_BIN, outDir], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...SMALL_HEAP_ENV, ...process.env },
  })
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < 4000) stderr += chunk.toString()
  })
  const removeDir = () => rmSync(outDir, { recursive: true, force: true })
  const settings = await new Promise<Record<string, string> | string>((done) => {
    let out = ''
    const timer = setTimeout(() => done(`no answer within ${START_LIMIT_MS / 1000} s`), START_LIMIT_MS)
    const onData = (chunk: Buffer) => {
      out += chunk.toString()
      const end = out.indexOf('\n')
      if (end < 0) return
      clearTimeout(timer)
      child.stdout.off('data', onData)
      child.stdout.resume()
      const line = out.slice(0, end)
      try {
        done(line.startsWith(SETTINGS_LINE) ? (JSON.parse(line.slice(SETTINGS_LINE.length)) as Record<string, string>) : `it printed "${line.slice(0, 200)}"`)
      } catch (e) {
        done((e as Error).message)
      }
    }
    child.stdout.on('data', onData)
    child.once('error', (e) => {
      clearTimeout(timer)
      done(e.message)
    })
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      done(`it exited (${signal ?? code})${stderr.trim() ? `: ${stderr.trim()}` : ''}`)
    })
  })
  if (typeof settings === 'string') {
    child.kill('SIGKILL')
    removeDir()
    return { ok: false, reason: settings }
  }
  child.stdin.on('error', () => {})  // a child already gone: close() still waits for its exit
  let closing: Promise<void> | undefined
  const close = () =>
    (closing ??= (async () => {
      child.stdin.end()
      const killer = setTimeout(() => child.kill('SIGKILL'), CLOSE_LIMIT_MS)
      await exited
      clearTimeout(killer)
      removeDir()
    })())
  return { ok: true, reference: { env: settings, close } }
}

/** The child's side (bin/embedded-reference.js): `<outDir>` is the certificate folder the parent made. */
export async function serveEmbeddedReference(outDir: string): Promise<void> {
  const { startReference } = await import('../reference/index.ts')
  const running = await startReference({ quiet: true, outDir })
  let stopping = false
  const stop = (): void => {
    if (stopping) return
    stopping = true
    running.close().then(
      () => {
        rmSync(outDir, { recursive: true, force: true })
        process.exit(0)
      },
      () => {
        rmSync(outDir, { recursive: true, force: true })
        process.exit(1)
      },
    )
  }
  process.stdin.on('end', stop)
  process.stdin.on('error', stop)
  process.stdin.resume()
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  process.stdout.write(`${SETTINGS_LINE}${JSON.stringify(running.env)}\n`)
}
