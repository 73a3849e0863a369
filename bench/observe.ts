// `npx tsx bench/observe.ts [--requests N]`: what the observe proxy adds to an exchange on
// loopback. The same requests go straight to the target and through `observe --listen` (which
// forwards, records and judges each), interleaved in paired rounds; the figure is the median
// latency through the proxy minus the median straight, for a bare JSON server (the proxy alone)
// and for the embedded reference's GET /api/balance and GET /api/transactions (judging included:
// a listing is the costliest answer to judge). Target: < 1 ms added at the median. Also the time
// judging takes per exchange, spent after the answer has left. Never part of `npm test`.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Agent, request } from 'undici'
import { Judge } from '../cli/observe/judge.ts'
import { ObserveProxy } from '../cli/observe/proxy.ts'
import { startReference } from '../reference/index.ts'

const argv = process.argv.slice(2)
const requests = Number(argv[argv.indexOf('--requests') + 1]) || 4000
const ROUND = 50
const TARGET_MS = 1

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]!
}
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!

async function timed(agent: Agent, url: string, headers: Record<string, string>): Promise<number> {
  const t0 = performance.now()
  const r = await request(url, { headers, dispatcher: agent })
  await r.body.arrayBuffer()
  return performance.now() - t0
}

async function pair(name: string, direct: string, proxied: string, headers: Record<string, string>): Promise<void> {
  const agent = new Agent({ connections: 1, keepAliveTimeout: 10_000 })
  for (let i = 0; i < 200; i++) await timed(agent, i % 2 ? direct : proxied, headers) // warm-up
  const straight: number[] = []
  const through: number[] = []
  for (let done = 0; done < requests; done += 2 * ROUND) {
    for (let i = 0; i < ROUND; i++) straight.push(await timed(agent, direct, headers))
    for (let i = 0; i < ROUND; i++) through.push(await timed(agent, proxied, headers))
  }
  await agent.close()
  const added = median(through) - median(straight)
  console.log(`  ${name.padEnd(30)} straight ${median(straight).toFixed(3)} ms (p95 ${p95(straight).toFixed(3)})   through observe ${median(through).toFixed(3)} ms (p95 ${p95(through).toFixed(3)})   added ${added.toFixed(3)} ms   target < ${TARGET_MS} ms ${added < TARGET_MS ? 'ok' : 'MISSED'}`)
}

async function main(): Promise<void> {
  console.log(`bench observe: node ${process.version}, ${requests} requests per figure, sequential, keep-alive, loopback`)
  const body = JSON.stringify({ grossBalance: 100.5, blockedBalance: 0, netBalance: 100.5, consultedAt: new Date().toISOString() })
  const bare = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body))
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r))
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`
  const reference = await startReference({ quiet: true })
  const token = ((await (await fetch(`${reference.baseUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientId: reference.env.PIX_CLIENT_ID, clientSecret: reference.env.PIX_CLIENT_SECRET }) })).json()) as { access_token: string }).access_token
  await fetch(`${reference.controlUrl}/control/incoming-payments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ amount: 10, count: 20 }) })

  const judges: Judge[] = []
  const front = async (upstream: string) => {
    const judge = new Judge()
    judges.push(judge)
    return ObserveProxy.start({ host: '127.0.0.1', ports: [0] }, { baseUrl: upstream, gatewayUrl: upstream }, judge)
  }
  const bareProxy = await front(bareUrl)
  const refProxy = await front(reference.baseUrl)
  const auth = { authorization: `Bearer ${token}` }
  await pair('bare JSON server', `${bareUrl}/api/balance`, `${bareProxy.baseUrl}/api/balance`, auth)
  await pair('reference GET /api/balance', `${reference.baseUrl}/api/balance`, `${refProxy.baseUrl}/api/balance`, auth)
  await pair('reference GET /api/transactions', `${reference.baseUrl}/api/transactions?size=20`, `${refProxy.baseUrl}/api/transactions?size=20`, auth)
  await Promise.all([bareProxy.close(), refProxy.close()])

  // judging alone, per exchange, on what the reference session recorded (off the answer's path)
  const recorded = refProxy.recorded
  const judge = new Judge()
  const t0 = performance.now()
  for (const ex of recorded) judge.add(ex)
  const perExchange = (performance.now() - t0) / Math.max(1, recorded.length)
  console.log(`  judging                        ${perExchange.toFixed(3)} ms per exchange (${recorded.length} exchanges of the reference runs), after the answer has left`)
  bare.close()
  await reference.close()
}

await main()
