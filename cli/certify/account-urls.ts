// Leave the target as found: the account's notification URLs (which webhook checks point at the
// capture server) are read before the run and put back after it, also when it fails or is
// interrupted. Each check already puts them back when it ends; this is the run's safety net.
import type { TargetConfig } from '../../harness/config.ts'
import { ControlClient, type AccountView } from '../../harness/control.ts'
import { HttpClient } from '../../harness/http.ts'

export interface AccountUrlsGuard {
  restore(): Promise<void>
}

/** The main account's URLs and, when set, the balance accounts'. */
export async function guardAccountUrls(config: TargetConfig): Promise<AccountUrlsGuard> {
  const guards = await Promise.all([config.clientId, ...config.balanceAccounts.map((a) => a.clientId)].map((account) => guardUrlsOf(config, account)))
  return { restore: async () => void (await Promise.all(guards.map((g) => g.restore()))) }
}

/** Reads the URLs through the control API; without one (or readonly) there is nothing the run changes. */
async function guardUrlsOf(config: TargetConfig, account: string): Promise<AccountUrlsGuard> {
  if (!config.controlUrl || config.profile === 'readonly') return { restore: async () => {} }
  const control = new ControlClient(new HttpClient({ timeoutMs: config.timeoutMs }), config.controlUrl, account)
  let before: AccountView | undefined
  try {
    before = await control.account()
  } catch {
    return { restore: async () => {} }  // the driver does not provide the account view: nothing to put back
  }
  let restored = false
  return {
    async restore() {
      if (restored || !before) return
      restored = true
      await control.setWebhookUrls({ webhookUrl: before.webhookUrl, pixWebhookUrl: before.pixWebhookUrl }).catch(() => {})
    },
  }
}
