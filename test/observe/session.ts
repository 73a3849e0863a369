// One observed session for the tests: the embedded reference (behind the self-check proxy with a
// fault's hooks, when given one), the observe proxy in front of it, the client making its calls
// through observe, then the verdicts. The HAR of the same session is kept to judge it offline.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { FaultProxy } from '../selfcheck/proxy.ts'
import type { ProxyHooks } from '../selfcheck/fault.ts'
import type { RunningReference } from '../../reference/index.ts'
import { Judge } from '../../cli/observe/judge.ts'
import { ObserveProxy } from '../../cli/observe/proxy.ts'
import { buildObserveResults, type ObserveResults } from '../../cli/observe/report.ts'
import { accountsOf } from '../../cli/observe/main.ts'
import { loadConfig } from '../../harness/config.ts'
import { runClient } from './client.ts'

export const REPO_ROOT = new URL('../..', import.meta.url).pathname

export interface Session {
  results: ObserveResults
  /** The session's exchanges as observe recorded them (redacted), for --har. */
  recorded: ObserveProxy['recorded']
  failed: string[]
}

export function resultsOf(judge: Judge, source: string, target: { baseUrl: string; gatewayUrl: string }): ObserveResults {
  const tally = judge.finish()
  const now = new Date().toISOString()
  return buildObserveResults(tally, {
    runId: 'test', startedAt: now, finishedAt: now, command: 'test', baseUrl: target.baseUrl, gatewayUrl: target.gatewayUrl,
    source, judged: judge.judged, unmatched: judge.unmatched, errors: judge.errors,
  }, REPO_ROOT)
}

/** The client's session through observe, in front of `upstream` (the reference or a fault proxy). */
/** The client's control calls go to the upstream's control API: a fault proxy learns the payments from them as it does from the kit's. */
export async function observedSession(reference: RunningReference, upstream: { baseUrl: string; gatewayUrl: string; controlUrl: string }, opts: { relay?: boolean } = {}): Promise<Session & { delivered: number }> {
  const judge = new Judge([], accountsOfEnv(reference.env))
  // the application's own receiver, behind observe's relay
  let delivered = 0
  const receiver = opts.relay ? createServer((req, res) => req.resume().on('end', () => { delivered++; res.writeHead(200).end() })) : undefined
  if (receiver) await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
  const relay = receiver ? new URL(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/pix`) : undefined
  const proxy = await ObserveProxy.start({ host: '127.0.0.1', ports: relay ? [0, 0, 0] : [0, 0] }, upstream, judge, [], relay)
  try {
    await runClient({ baseUrl: proxy.baseUrl, gatewayUrl: proxy.gatewayUrl, controlUrl: upstream.controlUrl, env: reference.env, ...(proxy.relayUrl ? { webhookUrl: proxy.relayUrl } : {}) })
    if (receiver) await new Promise((r) => setTimeout(r, 500)) // the provider's last deliveries
  } finally {
    await proxy.close()
    receiver?.close()
  }
  const results = resultsOf(judge, 'proxy', upstream)
  return { delivered, results, recorded: proxy.recorded, failed: results.checks.filter((c) => c.status === 'failed').map((c) => c.clauses[0]!) }
}

export function accountsOfEnv(env: Record<string, string>): { clientId: string; apiKey: string }[] {
  return accountsOf(loadConfig({ ...env, PIX_PROFILE: 'readonly' }))
}

/** A self-check proxy in front of the reference whose hooks can be switched per fault. */
export async function faultyFront(reference: RunningReference): Promise<{ proxy: FaultProxy; use(hooks: ProxyHooks[]): void; close(): Promise<void> }> {
  const proxy = await FaultProxy.start(reference)
  return { proxy, use: (hooks) => proxy.use(...hooks), close: () => proxy.close() }
}
