// Exit 2 for a bad config or an unreachable target, with one line naming the setting or the URL,
// and fast: a run against an unreachable target ends within 10 seconds.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runCli } from './fixtures.ts'

const GOOD = {
  PIX_GATEWAY_URL: 'http://127.0.0.1:1',
  PIX_CLIENT_ID: 'client-1',
  PIX_CLIENT_SECRET: 'exit-code-test-secret-value',
  PIX_API_KEY: 'exit-code-test-api-key',
}
const dir = mkdtempSync(join(tmpdir(), 'exit-codes-'))
const sockets = new Set<Socket>()
let silent: Server
let silentUrl = ''

beforeAll(async () => {
  // accepts connections and never answers: a target that hangs
  silent = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
  const address = silent.address()
  silentUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
})

afterAll(async () => {
  for (const s of sockets) s.destroy()
  await new Promise((resolve) => silent.close(resolve))
  rmSync(dir, { recursive: true, force: true })
})

function envFile(name: string, body: string): string {
  const path = join(dir, name)
  writeFileSync(path, body)
  return path
}

function expectOneLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.trim().split('\n')
  expect(lines).toHaveLength(1)
  expect(lines[0]).toMatch(pattern)
}

describe.concurrent('exit 2: bad config', () => {
  test('a missing required setting is named', async () => {
    const run = await runCli([], { PIX_BASE_URL: 'http://127.0.0.1:1', PIX_GATEWAY_URL: 'http://127.0.0.1:1', PIX_CLIENT_ID: 'c', PIX_CLIENT_SECRET: 'secret-secret' })
    expect(run.code).toBe(2)
    expectOneLine(run.stderr, /^conformance: PIX_API_KEY: is required but not set$/)
  })

  test('a bad value in the process environment is named', async () => {
    const run = await runCli([], { ...GOOD, PIX_BASE_URL: 'http://127.0.0.1:1', PIX_PROFILE: 'production' })
    expect(run.code).toBe(2)
    expectOneLine(run.stderr, /PIX_PROFILE: "production" must be sandbox or readonly/)
  })

  test('a bad flag is named', async () => {
    const run = await runCli(['--seed', 'abc'])
    expect(run.code).toBe(2)
    expectOneLine(run.stderr, /^conformance: --seed: "abc" is not a whole number$/)
  })

  test('a missing --env file is named', async () => {
    const run = await runCli(['--env', join(dir, 'absent.env')])
    expect(run.code).toBe(2)
    expectOneLine(run.stderr, /^conformance: --env: file .*absent\.env does not exist$/)
  })

  test('an --env that is a directory is named, not an internal error', async () => {
    const run = await runCli(['--env', dir])
    expect(run.code).toBe(2)
    expectOneLine(run.stderr, new RegExp(`^conformance: --env: ${dir} is a directory, not a file$`))
  })

  test('a PIX_CERT_FILE that is a directory is named, not an internal error', async () => {
    const run = await runCli([], { ...GOOD, PIX_BASE_URL: 'http://127.0.0.1:1', PIX_CERT_FILE: dir })
    expect(run.code).toBe(2)
    expectOneLine(run.stderr, new RegExp(`^conformance: PIX_CERT_FILE: ${dir} is a directory, not a file$`))
  })

  test('a PIX_TIMEOUT_MS that AbortSignal.timeout cannot hold is named', async () => {
    const run = await runCli([], { ...GOOD, PIX_BASE_URL: 'http://127.0.0.1:1', PIX_TIMEOUT_MS: '3000000000' })
    expect(run.code).toBe(2)
    expectOneLine(run.stderr, /^conformance: PIX_TIMEOUT_MS: 3000000000 must be between 1 and 3600000$/)
  })

  test('an unknown area is named, with the known ones', async () => {
    const run = await runCli(['--area', 'no-such-area'], { ...GOOD, PIX_BASE_URL: 'http://127.0.0.1:1' })
    expect(run.code).toBe(2)
    expectOneLine(run.stderr, /^conformance: --area: unknown area "no-such-area" \(known: .*\)$/)
  })

  test('a --file that does not exist is named', async () => {
    const run = await runCli(['--file', 'auth/no-such.test.ts'], { ...GOOD, PIX_BASE_URL: 'http://127.0.0.1:1' })
    expect(run.code).toBe(2)
    expectOneLine(run.stderr, /^conformance: --file: no suite file suites\/auth\/no-such\.test\.ts; the closest: auth\/[\w-]+\.test\.ts/)
  })

  test('no secret of the config is printed', async () => {
    const run = await runCli([], { ...GOOD, PIX_BASE_URL: 'http://127.0.0.1:1' })
    expect(run.stdout + run.stderr).not.toContain(GOOD.PIX_CLIENT_SECRET)
    expect(run.stdout + run.stderr).not.toContain(GOOD.PIX_API_KEY)
  })
})

// Before these were caught, such runs certified the embedded reference and passed: --file keeps
// that wrong path short, --report-dir keeps it out of reports/.
describe.concurrent('exit 2: settings of a target without PIX_BASE_URL, never the embedded reference', () => {
  const narrow = () => ['--area', 'balance', '--file', 'balance/shapes.test.ts', '--report-dir', mkdtempSync(join(dir, 'reports-'))]

  test('an --env file with a gateway and credentials but no PIX_BASE_URL', async () => {
    const file = envFile('no-base.env', Object.entries(GOOD).map(([k, v]) => `${k}=${v}`).join('\n'))
    const run = await runCli(['--env', file, ...narrow()])
    expect(run.code).toBe(2)
    expectOneLine(run.stderr, /^conformance: PIX_BASE_URL: is required but not set \(the --env file .*no-base\.env does not set it\)/)
    expect(run.stdout).not.toContain('Certifying')
  })

  test('an --env file without any target setting', async () => {
    const file = envFile('seed-only.env', 'PIX_SEED=5\n')
    const run = await runCli(['--env', file, ...narrow()])
    expect(run.code).toBe(2)
    expectOneLine(run.stderr, /^conformance: PIX_BASE_URL: is required but not set/)
  })

  test('a credential in the process environment, named (never its value)', async () => {
    const run = await runCli(narrow(), { PIX_CLIENT_ID: 'client-1', PIX_API_KEY: GOOD.PIX_API_KEY, PIX_SEED: '5' })
    expect(run.code).toBe(2)
    expectOneLine(run.stderr, /^conformance: PIX_BASE_URL: is required but not set \(PIX_CLIENT_ID, PIX_API_KEY are set, so a target is meant\)/)
    expect(run.stderr).not.toContain(GOOD.PIX_API_KEY)
  })
})

describe.concurrent('exit 2: an unusable --report-dir, before anything runs', () => {
  test('a regular file', async () => {
    const file = join(dir, 'not-a-folder')
    writeFileSync(file, 'x')
    // no target config: before the check this ran the embedded reference first (--file keeps it short)
    const run = await runCli(['--area', 'balance', '--file', 'balance/shapes.test.ts', '--report-dir', file])
    expect(run.code).toBe(2)
    expectOneLine(run.stderr, new RegExp(`^conformance: --report-dir: cannot write reports under ${file} \\(it is not a folder\\)$`))
    expect(run.stdout).toBe('')
  })

  test('a run that ends before its report leaves no empty run folder behind', async () => {
    const reports = join(dir, 'reports-unreachable')
    mkdirSync(reports)
    const run = await runCli(['--report-dir', reports], { ...GOOD, PIX_BASE_URL: 'http://127.0.0.1:1' })
    expect(run.code).toBe(2)
    expect(readdirSync(reports)).toEqual([])
  })
})

describe('short secrets', () => {
  test('are warned of on stderr by name, without the value; the run goes on', async () => {
    const run = await runCli([], { ...GOOD, PIX_BASE_URL: 'http://127.0.0.1:1', PIX_API_KEY: 'k7Q' })
    expect(run.code).toBe(2)  // the unreachable target, reached after the warning
    const lines = run.stderr.trim().split('\n')
    expect(lines[0]).toBe('warning: PIX_API_KEY is shorter than 4 characters: it will not be redacted from messages, logs and reports (only the headers and body fields that carry it are); use a longer value')
    expect(lines[1]).toMatch(/target unreachable/)
    expect(run.stdout + run.stderr).not.toContain('k7Q')
  })
})

describe('exit 2: unreachable target, within 10 seconds', () => {
  test('connection refused', async () => {
    const run = await runCli([], { ...GOOD, PIX_BASE_URL: 'http://127.0.0.1:1' })
    expect(run.code).toBe(2)
    expectOneLine(run.stderr, /^conformance: PIX_BASE_URL: target unreachable: http:\/\/127\.0\.0\.1:1 \(connection refused\)$/)
    expect(run.ms).toBeLessThan(10_000)
  })

  test('a target that accepts the connection but never answers', async () => {
    const run = await runCli([], { ...GOOD, PIX_BASE_URL: silentUrl, PIX_GATEWAY_URL: silentUrl })
    expect(run.code).toBe(2)
    expectOneLine(run.stderr, new RegExp(`target unreachable: ${silentUrl} \\(no answer within 3 s\\)`))
    expect(run.ms).toBeLessThan(10_000)
  })
})

describe.concurrent('precedence through the command line', () => {
  test('the --env file wins over the process environment', async () => {
    const file = envFile('file-wins.env', 'PIX_BASE_URL=http://127.0.0.1:1\n')
    const run = await runCli(['--env', file], { ...GOOD, PIX_BASE_URL: 'http://127.0.0.1:2' })
    expectOneLine(run.stderr, /target unreachable: http:\/\/127\.0\.0\.1:1 /)
  })

  test('a flag wins over the --env file', async () => {
    const file = envFile('flag-wins.env', `PIX_BASE_URL=http://127.0.0.1:1\nPIX_PROFILE=bogus\nPIX_SEED=nope\n`)
    const run = await runCli(['--env', file, '--profile', 'readonly', '--seed', '5'], GOOD)
    // the file's bad values are overridden, so the run gets as far as the preflight
    expectOneLine(run.stderr, /target unreachable: http:\/\/127\.0\.0\.1:1 /)
    expect(run.code).toBe(2)
  })
})
