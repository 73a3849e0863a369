// not committed: certify a foreign target and keep its results for reading
import { rmSync, writeFileSync } from "node:fs"
import { runCli, writeEnvFile, reportsIn } from '../hostile/cli-child.ts'
import * as T from './targets.ts'
const [name, ...args] = process.argv.slice(2)
const start: Record<string, () => Promise<T.ForeignTarget>> = {
  charges: T.startChargesOnly, problem: T.startProblemJson, partial: () => T.startDriverWithout(Object.values(T.CONTROL_ROUTES)),
  all: () => T.startDriverWithout('all'), balance: T.startBalanceMissing, plain: T.startPlainReference,
}
const t = await start[name!]!()
const env = { ...t.env }
const html = name === 'plain' && args[0] === '--html' ? await T.startNotThisApi() : undefined
if (html) { env.PIX_BASE_URL = html.url; args.shift() }
for (const a of [...args]) if (a.startsWith('PIX_')) { const [k, v] = a.split('='); env[k!] = v!; args.splice(args.indexOf(a), 1) }
const dir = `/tmp/foreign/d-${name}`
rmSync(dir, { recursive: true, force: true })
writeEnvFile(`${dir}.env`, env)
const run = await runCli(['--env', `${dir}.env`, '--seed', '1', '--report-dir', dir, ...args], { timeLimitMs: 300_000 })
writeFileSync(`${dir}.out`, run.output)
const r = reportsIn(dir).results as any
console.log(`exit ${run.exitCode} in ${run.durationMs} ms`)
if (r) {
  console.log(r.verdict, r.summary)
  writeFileSync(`${dir}.json`, JSON.stringify(r))
}
await t.close(); await html?.close()
process.exit(0)
