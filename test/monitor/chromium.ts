// Headless Chromium from the Debian packages (`.ci/run` installs it): the DOM of a page once the
// browser has parsed, laid out and scripted it.
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

export const CHROMIUM = process.env.PIX_CHROMIUM ?? '/usr/bin/chromium'

/** Absent outside CI: the browser tests skip. In CI (CI=true) they run, and fail without it. */
export const chromiumMissing = !existsSync(CHROMIUM) && process.env.CI !== 'true'

export function dumpDom(file: string, timeoutMs = 60_000): Promise<string> {
  return runChromium(['--dump-dom', pathToFileURL(file).href], timeoutMs)
}

export interface Screen {
  width: number
  height: number
}

/** The first screen of a page at a window size, as a PNG: what a person sees before scrolling. */
export function screenshot(file: string, png: string, screen: Screen, timeoutMs = 60_000): Promise<void> {
  return runChromium([`--window-size=${screen.width},${screen.height}`, '--hide-scrollbars', `--screenshot=${png}`, pathToFileURL(file).href], timeoutMs).then(() => undefined)
}

/** The DOM of a page laid out at a window size (its scripts see that viewport). */
export function dumpDomAt(file: string, screen: Screen, timeoutMs = 60_000): Promise<string> {
  return runChromium([`--window-size=${screen.width},${screen.height}`, '--hide-scrollbars', '--dump-dom', pathToFileURL(file).href], timeoutMs)
}

function runChromium(extra: string[], timeoutMs: number): Promise<string> {
  const profile = mkdtempSync(join(tmpdir(), 'pix-chromium-'))
  const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', `--user-data-dir=${profile}`, '--virtual-time-budget=2000', ...extra]
  return new Promise((resolve, reject) => {
    execFile(CHROMIUM, args, { timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024 }, (err, stdout, stderr) => {
      rmSync(profile, { recursive: true, force: true })
      if (err) reject(new Error(`${CHROMIUM} failed: ${err.message}\n${stderr.slice(-2000)}`))
      else resolve(stdout)
    })
  })
}
