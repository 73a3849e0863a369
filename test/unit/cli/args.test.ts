import { join, resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { flagEnv, mergeEnv, parseArgs, pixOnly, selectionEnv, usageText } from '../../../cli/args.ts'
import { answerWithoutRunning } from '../../../cli/main.ts'
import { pickCommand, subcommands } from '../../../cli/subcommand.ts'
import { ArgsError, FLAGS } from '../../../cli/flags.ts'
import { listText } from '../../../cli/certify/list.ts'
import { kitVersion, specHash } from '../../../cli/reporting/run-info.ts'
import { checkTags } from '../../../cli/certify/tag-names.ts'
import { REPO_ROOT } from './fixtures.ts'

const table = await subcommands()
const USAGE = usageText(table)
/** What the dispatcher makes of `argv` before anything runs (throws ArgsError: exit 2). */
const parseCommand = (argv: readonly string[]): unknown => {
  const { command, rest } = pickCommand(argv, table)
  return command.parse(rest)
}

describe('parseArgs', () => {
  test('no flags: defaults', () => {
    expect(parseArgs([])).toEqual({
      areas: [], files: [], tags: [], excludeTags: [], slow: false, help: false, version: false, strictDepth: false, yesMutate: false, reset: false, list: false, bail: false, failOnFlaky: false,
    })
  })

  test('every flag, with separate and inline values', () => {
    const args = parseArgs([
      '--env', 'target.env', '--profile=readonly', '--area', 'auth', '--area=charges,returns', '--seed', '7',
      '--num-runs', '25', '--timeout=5000', '--report-dir', '/tmp/r', '--shard', '2/3', '--slow',
      '--file', 'auth/tokens.test.ts,suites/auth/bearer.test.ts', '--depth', 'deep', '--strict-depth', '--require-verified', '80%',
    ])
    expect(args).toEqual({
      envFile: 'target.env', profile: 'readonly', areas: ['auth', 'charges', 'returns'], files: ['auth/tokens.test.ts', 'auth/bearer.test.ts'], seed: 7, numRuns: 25,
      timeoutMs: 5000, reportDir: '/tmp/r', shard: { index: 2, count: 3 }, slow: true, help: false, depth: 'deep', strictDepth: true, requireVerified: 80,
      yesMutate: false, reset: false, list: false, bail: false, failOnFlaky: false, tags: [], excludeTags: [], version: false,
    })
  })

  test('--list, --check, --bail, --reset, --yes-mutate', () => {
    expect(parseArgs(['--list', '--check', 'charges/errors::x', '--bail', '--reset', '--yes-mutate'])).toMatchObject({ list: true, check: 'charges/errors::x', bail: true, reset: true, yesMutate: true })
  })

  test('repeated areas are kept once, in order', () => {
    expect(parseArgs(['--area', 'auth,balance', '--area', 'auth']).areas).toEqual(['auth', 'balance'])
  })

  test('--merge takes every following folder up to the next flag', () => {
    const args = parseArgs(['--merge', 'a', 'b', 'c', '--report-dir', 'out'])
    expect(args.merge).toEqual(['a', 'b', 'c'])
    expect(args.reportDir).toBe('out')
  })

  test('--help and -h', () => {
    expect(parseArgs(['--help']).help).toBe(true)
    expect(parseArgs(['-h']).help).toBe(true)
  })

  const bad: [string[], string, RegExp][] = [
    [['--profile', 'prod'], '--profile', /sandbox or readonly/],
    [['--seed', '-1'], '--seed', /not a whole number/],
    [['--seed', '2147483648'], '--seed', /between 0 and 2147483647/],
    [['--seed'], '--seed', /needs a value/],
    [['--seed', '--slow'], '--seed', /needs a value/],
    [['--num-runs', '0'], '--num-runs', /between 1/],
    [['--timeout', '1.5'], '--timeout', /not a whole number/],
    [['--shard', '3/2'], '--shard', /I\/N/],
    [['--shard', '0/2'], '--shard', /I\/N/],
    [['--shard', 'half'], '--shard', /I\/N/],
    [['--area', 'Auth'], '--area', /not an area name/],
    [['--area', ','], '--area', /needs an area name/],
    [['--merge'], '--merge', /at least one/],
    [['--file', 'tokens.test.ts'], '--file', /not a suite file/],
    [['--file', 'auth/../../etc/x.test.ts'], '--file', /not a suite file/],
    [['--bogus'], '--bogus', /unknown flag/],
    [['--slow=yes'], '--slow', /takes no value/],
    [['stray'], 'stray', /unexpected argument/],
  ]
  test.each(bad)('%j is refused, naming %s', (argv, setting, message) => {
    let caught: unknown
    try {
      parseArgs(argv)
    } catch (e) {
      caught = e
    }
    expect(caught).toBeInstanceOf(ArgsError)
    expect((caught as ArgsError).setting).toBe(setting)
    expect((caught as ArgsError).message).toMatch(message)
    expect((caught as ArgsError).message.startsWith(`${setting}: `)).toBe(true)
  })
})

describe('precedence: flags > dotenv file > process environment', () => {
  const processEnv = { PIX_BASE_URL: 'http://process', PIX_PROFILE: 'sandbox', PIX_SEED: '1', PIX_API_KEY: 'from-process', PATH: '/bin' }
  const dotenv = { PIX_BASE_URL: 'http://file', PIX_SEED: '2' }
  const flags = flagEnv(parseArgs(['--seed', '3', '--profile', 'readonly']))

  test('flags become PIX_* settings', () => {
    expect(flags).toEqual({ PIX_SEED: '3', PIX_PROFILE: 'readonly' })
    expect(flagEnv(parseArgs(['--num-runs', '9', '--timeout', '100', '--slow']))).toEqual({
      PIX_NUM_RUNS: '9', PIX_TIMEOUT_MS: '100', PIX_SLOW: '1',
    })
  })

  test('each setting comes from the strongest source that has it', () => {
    const env = mergeEnv(processEnv, dotenv, flags)
    expect(env.PIX_SEED).toBe('3')                // flag over file and process
    expect(env.PIX_PROFILE).toBe('readonly')      // flag over process
    expect(env.PIX_BASE_URL).toBe('http://file')  // file over process
    expect(env.PIX_API_KEY).toBe('from-process')  // only the process has it
  })

  test('workers get only the PIX_* settings', () => {
    expect(pixOnly(mergeEnv(processEnv, dotenv, flags))).not.toHaveProperty('PATH')
  })

  test('the selection flags reach the workers as settings of their own, and are not user settings', () => {
    const args = parseArgs(['--tag', 'money,auth', '--exclude-tag', 'slow', '--suites', '/x/checks', '--clauses', '/x/clauses.yaml'])
    expect(selectionEnv(args)).toEqual({ PIX_TAGS: 'money,auth', PIX_EXCLUDE_TAGS: 'slow', PIX_EXTENSION_SUITES: resolve('/x/checks'), PIX_EXTENSION_CLAUSES: resolve('/x/clauses.yaml') })
    expect(flagEnv(args)).toEqual({})
    expect(selectionEnv(parseArgs([]))).toEqual({})
  })
})

describe('answerWithoutRunning: what the launcher answers before it loads the rest of the kit', () => {
  test('--help of the command and of each subcommand, exit 0', async () => {
    expect(await answerWithoutRunning(['--help'])).toEqual({ exitCode: 0, stdout: USAGE })
    for (const name of ['init', 'check-driver', 'diff', 'verify']) expect((await answerWithoutRunning([name, '--help']))?.stdout, name).toMatch(new RegExp(`^Usage: pix-conformance ${name}`))
  })

  test('a bad argument, exit 2, naming it', async () => {
    expect(await answerWithoutRunning(['--workers', 'many'])).toEqual({ exitCode: 2, stderr: 'conformance: --workers: "many" is not a whole number' })
  })

  test('a run, and the products that read their own flags, go on', async () => {
    expect(await answerWithoutRunning(['--env', 'target.env'])).toBeUndefined()
    for (const name of ['receiver', 'repro', 'observe', 'monitor', 'history']) expect(await answerWithoutRunning([name, '--help']), name).toBeUndefined()
  })

  test('--help states every flag, its setting and the defaults', () => {
    for (const row of FLAGS) expect(USAGE).toContain(`  ${row.flag}`)
    for (const row of FLAGS) if ('env' in row && row.env) expect(USAGE).toContain(`[${row.env}]`)
  })
})

describe('the subcommands: each usage text names exactly the flags its parser takes', () => {
  const flagsIn = (text: string): string[] => [...new Set([...text.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)].map((m) => m[1]!))].sort()

  for (const command of table.filter((c) => c.name !== 'certify' && c.flags)) {
    test(command.name, () => {
      const usage = command.answer!(command.parse(['--help']), table)!
      const parsed = command.flags!.map((r) => r.flag.slice(2)).filter((f) => f !== 'help').sort()
      expect(flagsIn(usage).filter((f) => f !== 'help')).toEqual(parsed)
    })
  }
})

describe('a word the kit does not know is named with the nearest it does (exit 2 before anything runs)', () => {
  const refusal = (run: () => unknown): string => {
    try {
      run()
    } catch (e) {
      expect(e).toBeInstanceOf(ArgsError)
      return (e as Error).message
    }
    throw new Error('not refused')
  }

  test.each([
    [['--profle', 'sandbox'], /^--profle: unknown flag; did you mean --profile\? \(see --help\)$/],
    [['--requre-coverage', '90'], /did you mean --require-coverage\?/],
    [['--verison'], /did you mean --version\?/],
    [['--zzzzzzzzzzzz'], /^--zzzzzzzzzzzz: unknown flag \(see --help\)$/],
  ])('the flag %j', (argv, says) => {
    expect(refusal(() => parseCommand(argv))).toMatch(says)
  })

  test.each([
    ['moniter', 'monitor'],
    ['histroy', 'history'],
    ['check-drivr', 'check-driver'],
    ['verfy', 'verify'],
    ['certfy', 'certify'],
  ])('the command %s: did you mean %s', (word, meant) => {
    expect(refusal(() => parseCommand([word, '--env', 'x.env']))).toMatch(new RegExp(`^${word}: unknown command; did you mean ${meant}\\?`))
  })

  test('a subcommand\'s flag', () => {
    expect(refusal(() => parseCommand(['init', '--forse']))).toMatch(/^--forse: unknown flag of init; did you mean --force\?/)
  })

  test('as the bin answers them: exit 2, one line on stderr', async () => {
    expect(await answerWithoutRunning(['moniter'])).toEqual({ exitCode: 2, stderr: expect.stringMatching(/^conformance: moniter: unknown command; did you mean monitor\?/) })
    expect(await answerWithoutRunning(['--profle'])).toEqual({ exitCode: 2, stderr: expect.stringMatching(/did you mean --profile\?/) })
  })

  test.each([
    ['--tag', 'nosuchtag', /^--tag: no check carries the tag "nosuchtag" \(the tags: auth, .*security.*mutating/],
    ['--tag', 'secrity', /^--tag: no check carries the tag "secrity"; did you mean security\?/],
    ['--exclude-tag', 'mutatng', /^--exclude-tag: no check carries the tag "mutatng"; did you mean mutating\?/],
    ['--tag', 'transaction', /did you mean transactions\?/],
  ] as const)('%s %s', (flag, tag, says) => {
    expect(refusal(() => checkTags([{ flag, values: [tag] }], join(REPO_ROOT, 'suites')))).toMatch(says)
  })

  test('every tag a kit check carries is accepted: areas, severities, needs', () => {
    expect(() => checkTags([{ flag: '--tag', values: ['auth', 'money', 'security', 'webhooks', 'mutating', 'control'] }], join(REPO_ROOT, 'suites'))).not.toThrow()
  })
})

test('--version prints the kit\'s version and the spec hash results.json carries, and runs nothing', async () => {
  const answer = await answerWithoutRunning(['--version'])
  expect(answer?.exitCode).toBe(0)
  expect(answer?.stdout).toBe(`pix-conformance-kit ${kitVersion(REPO_ROOT)}\nspecs ${specHash(REPO_ROOT)} (sha256 of specs/openapi.yaml + specs/clauses.yaml: results.json "specHash")`)
  expect(kitVersion(REPO_ROOT)).toMatch(/^\d+\.\d+\.\d+/)
})

test('--list shows each check\'s tags and severity', () => {
  const text = listText([{ id: 'auth/tokens::token_type is Bearer', clauses: ['4.2.token-type-bearer'], needs: [], tags: ['auth', 'data'] }, { id: 'cash/x::y', clauses: ['a', 'b'], needs: ['mutating'], tags: ['cash', 'protocol', 'money', 'mutating'] }])
  expect(text).toBe([
    'auth/tokens::token_type is Bearer', '    clauses:  4.2.token-type-bearer', '    tags:     auth, data', '    severity: data',
    'cash/x::y', '    clauses:  a, b', '    needs:    mutating', '    tags:     cash, protocol, money, mutating', '    severity: money',
    '', '2 checks',
  ].join('\n'))
})
