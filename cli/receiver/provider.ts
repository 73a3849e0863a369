// The provider behind the notifications: the embedded reference, or a sandbox with a control API
// given by --env. The kit makes real payments there, and the provider's own notifications of them
// land in a capture server of the kit's (the accounts' webhook URLs point at it while the run
// lasts); those are what the receiver is sent. The receiver's app gets the credentials of the
// primary account (--env-out) to check a notification through the provider's API.
import { writeFileSync } from 'node:fs'
import { ConfigError, loadConfig, loadDotenv, type TargetConfig } from '../../harness/config.ts'
import { ControlClient, ControlError, type AccountView, type LoggedRequest } from '../../harness/control.ts'
import { clearTokenCache, createClients, type Clients } from '../../harness/http.ts'
import { WebhookCapture } from '../../harness/webhook-capture.ts'
import { captureOptions, webhooksUnavailable } from '../../harness/webhooks.ts'
import { startReference, type RunningReference } from '../../reference/index.ts'
import { ArgsError } from '../flags.ts'

/** The capture channel of each account's notifications. */
export const CHANNEL = { primary: 'receiver-primary', other: 'receiver-other' } as const

export interface Provider {
  /** `the embedded reference` or the --env file. */
  name: string
  config: TargetConfig
  clients: Clients
  control: ControlClient
  capture: WebhookCapture
  /** The second account (PIX_OTHER_*), whose payments are "another account's". */
  otherAccount?: string
  /** The provider's request log after `mark`; undefined when it keeps none (GET /control/requests absent). */
  requestsAfter(mark: number): Promise<LoggedRequest[] | undefined>
  /** The request log's current mark (0 when it keeps none). */
  requestMark(): Promise<number>
  /** Secrets the reports must not show. */
  secrets: { name: string; value: string }[]
  close(): Promise<void>
}

/** What the integrator's app reads to check a notification with the provider: the primary account's. */
export function appCredentials(config: TargetConfig): Record<string, string> {
  return {
    PIX_BASE_URL: config.baseUrl,
    PIX_GATEWAY_URL: config.gatewayUrl,
    PIX_CLIENT_ID: config.clientId,
    PIX_CLIENT_SECRET: config.clientSecret,
    PIX_API_KEY: config.apiKey,
    ...(config.tlsCaFile ? { PIX_TLS_CA_FILE: config.tlsCaFile } : {}),
  }
}

export function writeCredentials(file: string, config: TargetConfig): void {
  const lines = Object.entries(appCredentials(config)).map(([k, v]) => `${k}=${v}`)
  try {
    writeFileSync(file, `# The provider's API for your webhook receiver to check notifications with (pix-conformance receiver); valid while the run lasts.\n${lines.join('\n')}\n`, { mode: 0o600 })
  } catch (e) {
    throw new ArgsError('--env-out', `cannot write ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`)
  }
}

/** How long the kit waits for the embedded reference's answers (a sandbox's is its PIX_TIMEOUT_MS). */
const EMBEDDED_TIMEOUT_MS = 10_000

export async function startProvider(envFile: string | undefined): Promise<Provider> {
  const reference = envFile ? undefined : await startReference({ quiet: true })
  try {
    const config = reference ? embeddedConfig(reference) : sandboxConfig(envFile as string)
    return await connect(config, reference, envFile ? `the sandbox of ${envFile}` : 'the embedded reference')
  } catch (e) {
    await reference?.close()
    throw e
  }
}

function embeddedConfig(reference: RunningReference): TargetConfig {
  return loadConfig({ ...reference.env, PIX_EMBEDDED: '1', PIX_TIMEOUT_MS: String(EMBEDDED_TIMEOUT_MS) })
}

function sandboxConfig(envFile: string): TargetConfig {
  let config: TargetConfig
  try {
    config = loadConfig({ ...loadDotenv(envFile), PIX_PROFILE: 'sandbox' })
  } catch (e) {
    if (e instanceof ConfigError) throw new ArgsError('--env', e.message)
    throw e
  }
  if (!config.controlUrl) throw new ArgsError('--env', 'PIX_CONTROL_URL is not set: the kit makes its payments through the sandbox control API (specs/control.yaml)')
  const unreachable = webhooksUnavailable(config)
  if (unreachable) throw new ArgsError('--env', `${unreachable}; the provider's notifications come to the kit first`)
  return config
}

async function connect(config: TargetConfig, reference: RunningReference | undefined, name: string): Promise<Provider> {
  const clients = createClients(config)
  const control = new ControlClient(clients.http, config.controlUrl as string, config.clientId)
  // the embedded reference delivers to loopback over plain HTTP: no certificate to make and trust
  const capture = await WebhookCapture.start(reference ? { https: false } : captureOptions(config))
  const accounts = [config.clientId, ...(config.otherClientId ? [config.otherClientId] : [])]
  const found: AccountView[] = []
  try {
    if (capture.caPem) await control.trustCa(capture.caPem)
    for (const [i, account] of accounts.entries()) {
      found.push(await control.account(account))
      const url = capture.url(i === 0 ? CHANNEL.primary : CHANNEL.other)
      await control.setWebhookUrls({ webhookUrl: url, pixWebhookUrl: url }, account)
    }
  } catch (e) {
    await capture.close()
    await reference?.close()
    if (e instanceof ControlError) throw new ArgsError('--env', `the provider's control API could not be used: ${e.message}`)
    throw e
  }
  let keepsLog: boolean | undefined
  const requestsAfter = async (mark: number): Promise<LoggedRequest[] | undefined> => {
    if (keepsLog === false) return undefined
    try {
      const { requests } = await control.requests(mark)
      keepsLog = true
      return requests
    } catch {
      keepsLog = false
      return undefined
    }
  }
  return {
    name,
    config,
    clients,
    control,
    capture,
    ...(config.otherClientId ? { otherAccount: config.otherClientId } : {}),
    requestsAfter,
    requestMark: async () => {
      if (keepsLog === false) return 0
      try {
        return (await control.requests(Number.MAX_SAFE_INTEGER)).last
      } catch {
        keepsLog = false
        return 0
      }
    },
    secrets: secretsOf(config),
    async close() {
      if (!reference) {
        // a sandbox is left with the notification URLs it had
        for (const [i, view] of found.entries()) {
          await control.setWebhookUrls({ webhookUrl: view.webhookUrl, pixWebhookUrl: view.pixWebhookUrl }, accounts[i]).catch(() => undefined)
        }
      }
      await capture.close()
      clearTokenCache()
      await reference?.close()
    },
  }
}

function secretsOf(config: TargetConfig): { name: string; value: string }[] {
  const named: [string, string | undefined][] = [
    ['PIX_CLIENT_SECRET', config.clientSecret], ['PIX_API_KEY', config.apiKey],
    ['PIX_OTHER_CLIENT_SECRET', config.otherClientSecret], ['PIX_OTHER_API_KEY', config.otherApiKey],
  ]
  return named.filter((n): n is [string, string] => Boolean(n[1])).map(([name, value]) => ({ name, value }))
}
