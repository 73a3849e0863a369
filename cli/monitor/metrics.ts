// The monitor's Prometheus metrics (prom-client, a registry of its own), served at /metrics.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import type { MetricsListen } from './options.ts'

/** Seconds; from a loopback answer to a slow production one. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

export class MonitorMetrics {
  readonly registry = new Registry()
  private readonly runs = new Counter({ name: 'pix_monitor_runs_total', help: 'Certifications the monitor ran, by kind (scheduled, confirm) and outcome', labelNames: ['kind', 'outcome'], registers: [this.registry] })
  private readonly verdicts = new Gauge({ name: 'pix_monitor_clause_verdicts', help: 'Clauses of the last scheduled run with a verdict, by status and severity', labelNames: ['status', 'severity'], registers: [this.registry] })
  private readonly verified = new Gauge({ name: 'pix_monitor_verified_ratio', help: 'Verified testable must clauses of the last scheduled run, over those in its scope (0 to 1)', registers: [this.registry] })
  private readonly lastRun = new Gauge({ name: 'pix_monitor_last_run_timestamp_seconds', help: 'When the last scheduled run finished (Unix time)', registers: [this.registry] })
  private readonly alerts = new Counter({ name: 'pix_monitor_alerts_total', help: 'Alerts raised, by kind', labelNames: ['kind'], registers: [this.registry] })
  private readonly latency = new Histogram({ name: 'pix_monitor_operation_latency_seconds', help: 'Latency of the target answering each operation, from the exchanges the checks recorded', labelNames: ['operation'], buckets: LATENCY_BUCKETS, registers: [this.registry] })
  private lastPassingAt: number | undefined

  constructor(lastPassingAt?: number, now: () => number = Date.now) {
    this.lastPassingAt = lastPassingAt
    const self = this
    new Gauge({
      name: 'pix_monitor_seconds_since_last_passing_run',
      help: 'Seconds since the last scheduled run that passed (absent until one has)',
      registers: [this.registry],
      collect() {
        if (self.lastPassingAt === undefined) this.reset()
        else this.set((now() - self.lastPassingAt) / 1000)
      },
    })
    collectDefaultMetrics({ register: this.registry, prefix: 'pix_monitor_process_' })
  }

  runEnded(kind: string, outcome: string): void {
    this.runs.inc({ kind, outcome })
  }

  scheduledRun(r: { finishedAt: number; passed: boolean; verified: number; testable: number; counts: { status: string; severity: string; n: number }[] }): void {
    this.lastRun.set(r.finishedAt / 1000)
    if (r.passed) this.lastPassingAt = r.finishedAt
    this.verified.set(r.testable > 0 ? r.verified / r.testable : 0)
    this.verdicts.reset()
    for (const c of r.counts) this.verdicts.inc({ status: c.status, severity: c.severity }, c.n)
  }

  latencies(rows: readonly { operation: string; ms: number }[]): void {
    for (const r of rows) this.latency.observe({ operation: r.operation }, r.ms / 1000)
  }

  alerted(kind: string): void {
    this.alerts.inc({ kind })
  }
}

export interface MetricsServer {
  url: string
  close(): Promise<void>
}

export async function serveMetrics(metrics: MonitorMetrics, listen: MetricsListen): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: the metrics are at /metrics\n')
      return
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      (e: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`${e.message}\n`),
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(listen.port, listen.host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host
  return {
    url: `http://${host}:${port}/metrics`,
    close: () => new Promise((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }),
  }
}
