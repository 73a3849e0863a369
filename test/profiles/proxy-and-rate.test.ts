// The networks certifications run in: a run through an HTTP proxy (HTTP_PROXY, as a corporate
// network sets it; CONNECT tunnels and absolute-URI requests, by a small node:http proxy here)
// reaches the target only through it and passes; NO_PROXY bypasses it. --max-rps holds the run's
// rate, measured in the target's own request log; --max-in-flight bounds what it has in flight.
import { createServer, request as httpRequest } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startReference, type RunningReference } from '../../reference/index.ts'
import { reportsIn, writeEnvFile } from '../hostile/cli-child.ts'
import { runCli } from '../unit/cli/fixtures.ts'

const FILE = 'auth/tokens.test.ts'

let workDir: string
let reference: RunningReference
let envFile: string
/** Each request the reference answered: when (ms, this process's clock) and its log line. */
const log: { at: number; line: string }[] = []

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'pix-proxy-rate-'))
  reference = await startReference({ quiet: true, outDir: join(workDir, 'ref'), requestLog: (line) => log.push({ at: performance.now(), line }) })
  envFile = join(workDir, 'target.env')
  writeEnvFile(envFile, reference.env)
}, 60_000)

afterAll(async () => {
  await reference?.close()
  rmSync(workDir, { recursive: true, force: true })
})

/** The most requests the reference was answering at once: each log line ends `<status> <ms> ms`, written when the answer finished. */
function mostAtOnce(lines: { at: number; line: string }[]): number {
  const edges = lines.flatMap(({ at, line }) => {
    const ms = Number(/ (\d+) ms(?: |$)/.exec(line)?.[1] ?? 0)
    // rounded to the millisecond: an answer that started as the last one ended is not beside it
    return [{ t: at - ms + 1, d: 1 }, { t: at, d: -1 }]
  }).sort((a, b) => a.t - b.t || a.d - b.d)
  let now = 0
  let most = 0
  for (const e of edges) most = Math.max(most, (now += e.d))
  return most
}

const NO_PROXY_ENV = { HTTP_PROXY: '', HTTPS_PROXY: '', http_proxy: '', https_proxy: '', NO_PROXY: '', no_proxy: '' }

describe('through an HTTP proxy', () => {
  test('HTTP_PROXY: every request of the run goes through the proxy, and the run passes', async () => {
    const proxy = await startProxy()
    try {
      log.length = 0
      const reportDir = join(workDir, 'proxied')
      const run = await runCli(['--env', envFile, '--file', FILE, '--report-dir', reportDir], { ...NO_PROXY_ENV, HTTP_PROXY: proxy.url }, 120_000)
      expect(run.code, run.stdout.slice(-3000) + run.stderr).toBe(0)
      expect(reportsIn(reportDir).results?.verdict.result).toBe('PASSED')
      const apis = log.filter((l) => !l.line.startsWith('control'))
      expect(apis.length).toBeGreaterThan(5)
      // every base/gateway request reached the reference through the proxy (tunnelled or forwarded)
      expect(proxy.requests(), apis.map((l) => l.line).join('\n')).toBeGreaterThanOrEqual(apis.length)
    } finally {
      await proxy.close()
    }
  }, 180_000)

  test('NO_PROXY naming the target: the proxy sees nothing', async () => {
    const proxy = await startProxy()
    try {
      const reportDir = join(workDir, 'bypassed')
      const run = await runCli(['--env', envFile, '--file', FILE, '--report-dir', reportDir], { ...NO_PROXY_ENV, HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1,localhost' }, 120_000)
      expect(run.code, run.stdout.slice(-3000) + run.stderr).toBe(0)
      expect(proxy.requests()).toBe(0)
    } finally {
      await proxy.close()
    }
  }, 180_000)
})

describe('--max-rps and --max-in-flight', () => {
  test('--max-rps 5: the target saw no more than 5 requests a second on average, and no 3 s with more than 15 (two more for event-loop stalls)', async () => {
    log.length = 0
    const run = await runCli(['--env', envFile, '--file', FILE, '--max-rps', '5', '--workers', '1', '--report-dir', join(workDir, 'rps')], NO_PROXY_ENV, 120_000)
    expect(run.code, run.stdout.slice(-3000) + run.stderr).toBe(0)
    expect(run.stdout).toContain('at most 5 requests/s')
    // when each request reached the reference: its answer's finish, less the time it took
    const times = log.filter((l) => !l.line.startsWith('control')).map((l) => l.at - Number(/ (\d+) ms(?: |$)/.exec(l.line)?.[1] ?? 0)).sort((a, b) => a - b)
    expect(times.length).toBeGreaterThan(10)
    const rate = (times.length - 1) / ((times.at(-1)! - times[0]!) / 1000)
    expect(rate).toBeLessThanOrEqual(5.25)
    // sent 200 ms apart: 15 in any 3 s. The reference runs in this test's process, whose event loop
    // a loaded machine stalls now and then: requests that arrived during a stall are handled, and
    // logged, together, so a window may hold two more than were sent in it
    expect(mostInWindow(times, 3_000)).toBeLessThanOrEqual(17)
  }, 180_000)

  test('--max-in-flight 1: never two requests at the target at once', async () => {
    log.length = 0
    const run = await runCli(['--env', envFile, '--file', FILE, '--max-in-flight', '1', '--report-dir', join(workDir, 'in-flight')], NO_PROXY_ENV, 120_000)
    expect(run.code, run.stdout.slice(-3000) + run.stderr).toBe(0)
    expect(run.stdout).toMatch(/scheduling: 1 worker \(no more than --max-in-flight 1\)/)
    expect(log.length).toBeGreaterThan(10)
    expect(mostAtOnce(log.filter((l) => !l.line.startsWith('control')))).toBe(1)
  }, 180_000)
})

function mostInWindow(times: number[], ms: number): number {
  let most = 0
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= ms) j++
    most = Math.max(most, i - j + 1)
  }
  return most
}

/** A forward proxy: CONNECT tunnels (any scheme) and absolute-URI HTTP requests, counted. */
async function startProxy(): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let count = 0
  const sockets = new Set<Socket>()
  const server = createServer((req, res) => {
    count++
    const target = new URL(req.url ?? '')
    const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: `${target.pathname}${target.search}`, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers)
      up.pipe(res)
    })
    upstream.on('error', () => res.writeHead(502).end())
    req.pipe(upstream)
  })
  server.on('connect', (req, client: Socket, head: Buffer) => {
    const [host, port] = (req.url ?? '').split(':')
    const upstream = connect(Number(port), host!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    // each request through a tunnel is counted by the bytes that start an HTTP request line
    client.on('data', (chunk: Buffer) => (count += (chunk.toString('latin1').match(/^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) \/\S* HTTP\/1\.1\r$/gm) ?? []).length))
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.on('error', () => s.destroy())
      s.on('close', () => sockets.delete(s))
    }
  })
  server.on('connection', (s: Socket) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => count,
    close: () => new Promise((r) => {
      for (const s of sockets) s.destroy()
      server.close(() => r())
    }),
  }
}
