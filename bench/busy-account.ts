// A busy account: `total` received payments spread evenly over the last 31 days (ages 0 to 30
// days, to the account's first PIX key), seeded through the control API's incoming-payment route
// with `count` (harness/control.ts falls back to single calls where a target ignores it). Used by
// the bench (certification time at 100,000 records) and the busy-account robustness test.
//   npx tsx bench/busy-account.ts --env FILE [--total N]   seeds the target of a dotenv file
import { loadConfig, loadDotenv } from '../harness/config.ts'
import { ControlClient } from '../harness/control.ts'
import { HttpClient } from '../harness/http.ts'

/** The days a busy account's payments spread over: ages 0 … 30 (the account listing's default window). */
export const BUSY_DAYS = 31

/** Seeds `total` payments over the last 31 days of `account` (default: the primary); resolves to the time it took, in ms. */
export async function seedBusyAccount(controlUrl: string, account: string, total: number): Promise<number> {
  const started = performance.now()
  const control = new ControlClient(new HttpClient({ timeoutMs: 120_000 }), controlUrl, account)
  const perDay = Math.floor(total / BUSY_DAYS)
  const extra = total - perDay * BUSY_DAYS
  for (let ageDays = 0; ageDays < BUSY_DAYS; ageDays++) {
    const n = perDay + (ageDays < extra ? 1 : 0)
    if (n > 0) await control.incomingPayments(n, { amount: 1, ageDays })
  }
  return performance.now() - started
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = (flag: string) => {
    const i = process.argv.indexOf(flag)
    return i === -1 ? undefined : process.argv[i + 1]
  }
  const envFile = at('--env')
  if (!envFile) throw new Error('usage: busy-account.ts --env FILE [--total N]')
  const config = loadConfig({ ...process.env, ...loadDotenv(envFile) })
  if (!config.controlUrl) throw new Error(`${envFile} sets no PIX_CONTROL_URL`)
  const total = Number(at('--total') ?? 100_000)
  const ms = await seedBusyAccount(config.controlUrl, config.clientId, total)
  process.stdout.write(`seeded ${total} received payments over the last ${BUSY_DAYS} days in ${(ms / 1000).toFixed(1)} s\n`)
}
