// The embedded reference target (docs/CONTRACTS.md §7): three plain-HTTP listeners on loopback
// (base API, gateway API, control API), identities made at start, and a dotenv file with every
// PIX_* setting a certification run needs. Secrets are random per start and never logged.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import { createServer, type RequestListener, type Server } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { TLSSocket } from 'node:tls'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { createCa, createLeaf } from '../generators/certificates.ts'
import { Context } from './context.ts'
import { baseRouter } from './http/base.ts'
import { controlRouter } from './http/control.ts'
import { gatewayRouter } from './http/gateway.ts'
import { SimClock } from './lib/clock.ts'
import { TIMED_MACHINES } from './machines.ts'
import { createIdentities, persistentIdentities, type Identities } from './model/identities.ts'
import { sweep } from './model/machine.ts'
import { DEFAULT_CONFIG, World } from './model/world.ts'
import { readingsOf, type Readings } from './readings.ts'

/** The subject of the certificate the reference's notification sender presents. */
export const SENDER_CN = 'PIX Reference Provider webhook sender'

export interface ReferenceOptions {
  port?: number // base port; gateway = port+1, control = port+2; 0 or absent = free ports
  host?: string // default 127.0.0.1
  outDir?: string // where the certificates (PEM) and the env file are written
  envOut?: string // path of the dotenv file to write (PIX_* for a certification run)
  slipRegistrationDelayMs?: number
  quiet?: boolean
  /** One line per request: API, method, path, status, ms and the traceparent received (the local sandbox's log; off in tests). A function receives the lines instead of the console. */
  requestLog?: boolean | ((line: string) => void)
  /**
   * A TLS front as a real deployment has one: the base and gateway APIs speak HTTPS, the base API
   * asks for a client certificate and derives X-SSL-Client-Cert from the handshake (a header the
   * client sends is dropped), as a proxy would. The env then says PIX_CERT_MODE=transport.
   */
  tls?: boolean
  /** A folder that keeps the identities (credentials, keys, certificates) across restarts. */
  stateDir?: string
  /** The other choice where the interface leaves one open (reference/readings.ts, docs/READINGS.md); absent: the reference's own. */
  readings?: Partial<Readings>
}

export interface RunningReference {
  baseUrl: string
  gatewayUrl: string
  controlUrl: string
  env: Record<string, string> // every PIX_* setting a certification run needs
  close(): Promise<void>
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolveListen, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolveListen((server.address() as AddressInfo).port)
    })
  })
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolveClose) => {
    server.close(() => resolveClose())
    server.closeAllConnections()
  })
}

const urlOf = (host: string, port: number, scheme = 'http'): string => `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`

/** The front's server certificate, from a CA of its own (written beside the env file for the kit to trust). */
async function tlsFront(host: string): Promise<{ caPem: string; server: { cert: string; key: string } }> {
  const ca = await createCa('PIX Reference TLS front CA')
  const leaf = await createLeaf(ca, { cn: 'localhost', usage: 'server', hosts: [...new Set(['localhost', '127.0.0.1', host])] })
  return { caPem: ca.certPem, server: { cert: leaf.certPem, key: leaf.keyPem } }
}

/** As a TLS-terminating proxy: the client's header is dropped, the handshake's certificate becomes it. */
function headerFromHandshake(listener: RequestListener): RequestListener {
  return (req, res) => {
    delete req.headers['x-ssl-client-cert']
    const peer = (req.socket as TLSSocket).getPeerCertificate?.()
    if (peer?.raw) req.headers['x-ssl-client-cert'] = encodeURIComponent(pemOf(peer.raw))
    listener(req, res)
  }
}

function pemOf(der: Buffer): string {
  return `-----BEGIN CERTIFICATE-----\n${der.toString('base64').match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`
}

/**
 * The prefix of this instance's certificate files, so that two references writing into one folder
 * never overwrite each other's: the env file's base name (`ci.env` → `ci-`), else the base port,
 * which no other running instance on this host can hold.
 */
function certificatePrefix(envOut: string | undefined, basePort: number): string {
  if (envOut === undefined) return `reference-${basePort}-`
  const name = basename(envOut)
  const stem = name.includes('.', 1) ? name.slice(0, name.lastIndexOf('.')) : name
  return `${stem}-`
}

/**
 * Writes the three client certificates and the CA beside the env file; returns their paths. With a
 * TLS front each client certificate file holds its key too (the kit presents it at the socket).
 */
async function writeCertificates(dir: string, prefix: string, ids: Identities, withKeys = false): Promise<Record<string, string>> {
  await mkdir(dir, { recursive: true })
  const files = {
    ca: join(dir, `${prefix}reference-client-ca.pem`),
    linked: join(dir, `${prefix}reference-cert-account1.pem`),
    unlinked: join(dir, `${prefix}reference-cert-unlinked.pem`),
    otherAccount: join(dir, `${prefix}reference-cert-account2.pem`),
  }
  await writeFile(files.ca, ids.certs.ca.certPem, { mode: 0o600 })
  const pem = (c: { certPem: string; keyPem: string }) => (withKeys ? `${c.certPem}${c.keyPem}` : c.certPem)
  await writeFile(files.linked, pem(ids.certs.linked), { mode: 0o600 })
  await writeFile(files.unlinked, pem(ids.certs.unlinked), { mode: 0o600 })
  await writeFile(files.otherAccount, pem(ids.certs.otherAccount), { mode: 0o600 })
  return files
}

function envOf(urls: { baseUrl: string; gatewayUrl: string; controlUrl: string }, ids: Identities, certFiles: Record<string, string>): Record<string, string> {
  const [one, two, ...balance] = ids.accounts
  const limited = ids.clients.find((c) => c.clientId === 'reference-client-limited')
  if (!one || !two || balance.length === 0 || !limited) throw new Error('reference identities are incomplete')
  // accounts 3 on: PIX_BALANCE_*, PIX_BALANCE_2_*, … (the kit's balance accounts)
  const balanceEnv = Object.fromEntries(balance.flatMap((a, i) => {
    const prefix = i === 0 ? 'PIX_BALANCE' : `PIX_BALANCE_${i + 1}`
    return [[`${prefix}_CLIENT_ID`, a.clientId], [`${prefix}_CLIENT_SECRET`, a.clientSecret], [`${prefix}_API_KEY`, a.apiKey]]
  }))
  return {
    PIX_BASE_URL: urls.baseUrl,
    PIX_GATEWAY_URL: urls.gatewayUrl,
    PIX_CONTROL_URL: urls.controlUrl,
    // the reference is a sandbox: a run against it may change it (every other target defaults to readonly)
    PIX_PROFILE: 'sandbox',
    PIX_CLIENT_ID: one.clientId,
    PIX_CLIENT_SECRET: one.clientSecret,
    PIX_API_KEY: one.apiKey,
    PIX_API_KEY_LIMITED: one.apiKeyLimited,
    PIX_CERT_FILE: certFiles.linked as string,
    PIX_CERT_UNLINKED_FILE: certFiles.unlinked as string,
    PIX_CERT_OTHER_ACCOUNT_FILE: certFiles.otherAccount as string,
    PIX_OTHER_CLIENT_ID: two.clientId,
    PIX_OTHER_CLIENT_SECRET: two.clientSecret,
    PIX_OTHER_API_KEY: two.apiKey,
    ...balanceEnv,
    PIX_LIMITED_CLIENT_ID: limited.clientId,
    PIX_LIMITED_CLIENT_SECRET: limited.clientSecret,
    PIX_BUYER_UUID: one.buyers[0]?.uuid ?? '',
    PIX_PIX_KEY: one.pixKeys[0] ?? '',
  }
}

function dotenv(env: Record<string, string>): string {
  const lines = Object.entries(env).map(([k, v]) => `${k}=${/^[\w./:@+-]*$/.test(v) ? v : JSON.stringify(v)}`)
  return `# Written by the PIX reference target; valid while it runs.\n${lines.join('\n')}\n`
}

/** `base    POST /cob/abc… 201 3 ms` once the answer is sent; the query is left out (it may carry data). */
function logged(api: string, listener: RequestListener, out: (line: string) => void): RequestListener {
  return (req, res) => {
    const started = performance.now()
    res.on('finish', () => {
      const path = (req.url ?? '').split('?')[0]
      const traceparent = req.headers.traceparent
      const trace = typeof traceparent === 'string' && traceparent !== '' ? ` traceparent=${traceparent.slice(0, 128)}` : ''
      out(`${api.padEnd(7)} ${req.method} ${path} ${res.statusCode} ${Math.round(performance.now() - started)} ms${trace}`)
    })
    listener(req, res)
  }
}

/**
 * Every answer's Date header (RFC 9110 §6.6.1: when the origin made it) on the sandbox's own clock,
 * which POST /control/clock/advance moves ahead of real time: what a client without the control
 * API knows of the service's "now".
 */
function dated(clock: SimClock, listener: RequestListener): RequestListener {
  return (req, res) => {
    res.setHeader('date', clock.now().toUTCString())
    listener(req, res)
  }
}

/** Each base and gateway request into the context's request log once answered (GET /control/requests). */
function recorded(api: 'base' | 'gateway', ctx: Context, listener: RequestListener): RequestListener {
  return (req, res) => {
    res.on('finish', () => ctx.requestLog.add({ at: new Date().toISOString(), api, method: req.method ?? 'GET', path: (req.url ?? '').split('?')[0] ?? '', status: res.statusCode }))
    listener(req, res)
  }
}

export async function startReference(opts: ReferenceOptions = {}): Promise<RunningReference> {
  const host = opts.host ?? '127.0.0.1'
  const log = opts.quiet ? (): void => {} : (line: string): void => console.log(`[reference] ${line}`)
  const identities = opts.stateDir ? await persistentIdentities(opts.stateDir) : await createIdentities()
  const config = { ...DEFAULT_CONFIG, webhookRetry: { ...DEFAULT_CONFIG.webhookRetry }, readings: readingsOf(opts.readings) }
  if (opts.slipRegistrationDelayMs !== undefined) config.slipRegistrationDelayMs = opts.slipRegistrationDelayMs
  const world = new World(new SimClock(), identities, config)
  // The notifications' sender identity, issued by the client CA (reference-client-ca.pem): a
  // receiver that demands mutual TLS trusts that file (PIX_WEBHOOK_CLIENT_CA_FILE).
  const sender = await createLeaf(identities.certs.ca, { cn: SENDER_CN, usage: 'client' })
  const ctx = new Context(world, log, sender)

  // Time-driven rows of the state tables: swept before each request, after each clock advance, and
  // when a real-time delay (slip registration) ends.
  ctx.sweep = (): void => sweep(ctx, TIMED_MACHINES)

  const names = ['base', 'gateway', 'control']
  const front = opts.tls ? await tlsFront(host) : undefined
  const servers = [baseRouter(ctx), gatewayRouter(ctx), controlRouter(ctx)].map((router, i) => {
    let listener = dated(world.clock, router.listener(ctx.sweep))
    if (i < 2) listener = recorded(names[i] as 'base' | 'gateway', ctx, listener)
    if (opts.requestLog) listener = logged(names[i] as string, listener, typeof opts.requestLog === 'function' ? opts.requestLog : (line) => console.log(line))
    const server = front && i < 2 ? createHttpsServer({ ...front.server, ...(i === 0 ? { requestCert: true, rejectUnauthorized: false } : {}) }, i === 0 ? headerFromHandshake(listener) : listener) : createServer(listener)
    return server.on('clientError', router.clientErrorListener())
  })
  const ports: number[] = []
  try {
    for (const [i, server] of servers.entries()) {
      const port = opts.port ? opts.port + i : 0
      ports.push(await listen(server, port, host))
    }
  } catch (err) {
    await Promise.all(servers.filter((s) => s.listening).map(closeServer))
    throw err
  }
  const scheme = front ? 'https' : 'http'
  const urls = { baseUrl: urlOf(host, ports[0] as number, scheme), gatewayUrl: urlOf(host, ports[1] as number, scheme), controlUrl: urlOf(host, ports[2] as number) }
  ctx.gatewayUrl = urls.gatewayUrl

  // A folder the reference made for itself (neither outDir nor envOut given) is removed on close.
  const ownTempDir = opts.outDir === undefined && opts.envOut === undefined ? await mkdtemp(join(tmpdir(), 'pix-reference-')) : undefined
  const outDir = resolve(opts.outDir ?? ownTempDir ?? dirname(resolve(opts.envOut as string)))
  const prefix = certificatePrefix(opts.envOut, ports[0] as number)
  const certFiles = await writeCertificates(outDir, prefix, identities, front !== undefined)
  const env = envOf(urls, identities, certFiles)
  if (front) {
    const caFile = join(outDir, `${prefix}reference-tls-ca.pem`)
    await writeFile(caFile, front.caPem, { mode: 0o600 })
    Object.assign(env, { PIX_CERT_MODE: 'transport', PIX_TLS_CA_FILE: caFile })
  }
  if (opts.envOut) await writeFile(resolve(opts.envOut), dotenv(env), { mode: 0o600 })
  log(`base ${urls.baseUrl}, gateway ${urls.gatewayUrl}, control ${urls.controlUrl}`)

  let closed = false
  return {
    ...urls,
    env,
    async close() {
      if (closed) return
      closed = true
      await Promise.all(servers.map(closeServer))
      await ctx.close()
      if (ownTempDir) await rm(ownTempDir, { recursive: true, force: true })
    },
  }
}
