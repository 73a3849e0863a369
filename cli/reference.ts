// `npm run reference -- [--port N] [--env-out FILE] [--out-dir DIR]` (or `npx tsx cli/reference.ts`):
// starts the reference target alone, prints its three addresses and where it wrote the env file
// and the certificates, and stops cleanly on SIGINT/SIGTERM. Secrets go to the env file only.
import { rmSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { startReference, type ReferenceOptions } from '../reference/index.ts'
import { READING_NAMES, READING_VALUES, parseReading } from '../reference/readings.ts'
import { EXIT_UNUSABLE } from './exit-codes.ts'

const READINGS_USAGE = READING_NAMES.map((n) => `    ${n}=${READING_VALUES[n].map(String).join('|')}`).join('\n')
const USAGE = 'usage: pix-reference [--port N] [--env-out FILE] [--out-dir DIR] [--host HOST] [--quiet] [--tls] [--state DIR] [--reading NAME=VALUE]...   (in the repository: npm run reference -- [flags])\n  --out-dir DIR  write the certificates there and keep them (default: a temporary folder, removed when it stops)\n  --quiet  no request log (one line per request: API, method, path, status, ms)\n  --tls    a TLS front: HTTPS base and gateway; the base API derives X-SSL-Client-Cert from the client certificate of the handshake (PIX_CERT_MODE=transport)\n  --state DIR  keep the credentials, keys and certificates in DIR across restarts (the data itself starts afresh)\n  --reading NAME=VALUE  where the interface leaves a choice open, make another than the reference\'s own (docs/READINGS.md; the first value is the default):\n' + READINGS_USAGE

export function parseReferenceArgs(argv: string[]): ReferenceOptions {
  const opts: ReferenceOptions = {}
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    const [flag, inline] = arg.includes('=') ? (arg.split(/=(.*)/s, 2) as [string, string]) : [arg, undefined]
    const value = (): string => {
      const v = inline ?? argv[++i]
      if (v === undefined || v === '') throw new Error(`${flag} needs a value\n${USAGE}`)
      return v
    }
    switch (flag) {
      case '--port': {
        const port = Number(value())
        if (!Number.isInteger(port) || port < 0 || port > 65533) throw new Error(`--port must be an integer from 0 to 65533\n${USAGE}`)
        opts.port = port
        break
      }
      case '--env-out':
        opts.envOut = resolve(value())
        break
      case '--out-dir':
        opts.outDir = resolve(value())
        break
      case '--host':
        opts.host = value()
        break
      case '--quiet':
        opts.quiet = true
        break
      case '--tls':
        opts.tls = true
        break
      case '--state':
        opts.stateDir = resolve(value())
        break
      case '--reading':
        try {
          opts.readings = { ...opts.readings, ...parseReading(value()) }
        } catch (err) {
          throw new Error(`${(err as Error).message}\n${USAGE}`)
        }
        break
      case '--help':
      case '-h':
        throw new Error(USAGE)
      default:
        throw new Error(`unknown option ${arg}\n${USAGE}`)
    }
  }
  return opts
}

export async function main(): Promise<void> {
  let opts: ReferenceOptions
  try {
    opts = parseReferenceArgs(process.argv.slice(2))
  } catch (err) {
    console.error((err as Error).message)
    process.exitCode = EXIT_UNUSABLE
    return
  }
  // the env file is written here, saying why it asks for the sandbox profile, and removed on stop;
  // the certificates go to a temporary folder of the reference's own (removed when it closes), not
  // beside the env file, unless --out-dir names a folder to keep them in
  const { envOut, ...startOpts } = opts
  const running = await startReference({ ...startOpts, requestLog: opts.quiet !== true, quiet: true })
  if (envOut) writeFileSync(envOut, envFileText(running.env), { mode: 0o600 })
  console.log(`PIX reference target running
  base API     ${running.baseUrl}
  gateway API  ${running.gatewayUrl}
  control API  ${running.controlUrl}
  certificates ${dirname(running.env.PIX_CERT_FILE ?? '')}
  env file     ${opts.envOut ?? '(none: pass --env-out FILE to write one)'}
Press Ctrl+C to stop.`)
  let stopping = false
  const stop = (signal: string): void => {
    if (stopping) return
    stopping = true
    console.log(`\n${signal}: stopping the reference target`)
    if (envOut) rmSync(envOut, { force: true })
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
}

/** The reference's settings as a dotenv file; PIX_PROFILE=sandbox is stated with its reason, never silently. */
export function envFileText(env: Record<string, string>): string {
  const lines = Object.entries(env).map(([k, v]) => {
    const line = `${k}=${/^[\w./:@+-]*$/.test(v) ? v : JSON.stringify(v)}`
    return k === 'PIX_PROFILE' ? `# every check may run against this local sandbox; without this line the profile is readonly, as for any target you configure\n${line}` : line
  })
  return `# Written by the PIX reference target; valid while it runs (removed when it stops).\n${lines.join('\n')}\n`
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  main().catch((err: unknown) => {
    console.error(`reference target failed to start: ${(err as Error).message}`)
    process.exit(2)
  })
}
