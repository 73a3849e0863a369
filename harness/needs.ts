// What a check may ask of the target (CheckOptions.needs), and the config they are judged against:
// the worker's settings, process.env overlaid by what a globalSetup provides. A need the target
// cannot meet skips the check with the reason, before it sends anything.
import { inject, type TestContext } from 'vitest'
import { loadConfig, secretValues, type TargetConfig } from './config.ts'
import { sharedRedactor } from './redact.ts'
import { webhooksUnavailable } from './webhooks.ts'

import type { Need } from './need-names.ts'
export { NEEDS, type Need } from './need-names.ts'

declare module 'vitest' {
  interface ProvidedContext {
    /** PIX_* settings provided by a globalSetup (e.g. the embedded reference); they win over process.env. */
    pixEnv?: Record<string, string>
  }
}

let config: TargetConfig | undefined

/** The config of this worker: process.env, overlaid by the `pixEnv` a globalSetup provides. */
export function workerConfig(): TargetConfig {
  if (!config) {
    const provided = providedEnv()
    config = loadConfig(provided ? { ...process.env, ...provided } : process.env)
    for (const s of secretValues(config)) sharedRedactor.add(s.name, s.value)
  }
  return config
}

function providedEnv(): Record<string, string> | undefined {
  try {
    return inject('pixEnv')
  } catch {
    return undefined
  }
}

/** The reason the first unmet need cannot be met, or undefined when all are met. */
export function unmetNeed(c: TargetConfig, needs: Need[]): string | undefined {
  for (const need of needs) {
    const reason = needReason(c, need)
    if (reason) return reason
  }
  return undefined
}

function needReason(c: TargetConfig, need: Need): string | undefined {
  const unusable = c.unavailable[need]
  if (unusable) return unusable
  switch (need) {
    case 'control':
      if (c.profile === 'readonly') return READONLY_CONTROL
      return c.controlUrl ? undefined : NO_CONTROL
    case 'mutating':
      return c.profile === 'readonly' ? 'readonly profile: this check changes the target' : undefined
    case 'webhooks':
      // the capture server's CA is given to the target through the control API
      if (c.profile === 'readonly' && !c.webhookPublicUrl) return READONLY_CONTROL
      return webhooksUnavailable(c)
    case 'otherAccount':
      return (c.otherClientId && c.otherClientSecret) || c.otherApiKey
        ? undefined
        : 'no second account (PIX_OTHER_CLIENT_ID/PIX_OTHER_CLIENT_SECRET or PIX_OTHER_API_KEY)'
    case 'limitedKey':
      return c.apiKeyLimited || (c.limitedClientId && c.limitedClientSecret)
        ? undefined
        : 'no limited credentials (PIX_API_KEY_LIMITED or PIX_LIMITED_CLIENT_ID/SECRET)'
    case 'certs':
      return c.certFile ? undefined : 'no client certificate (PIX_CERT_FILE)'
    case 'otherAccountCert':
      return c.certOtherAccountFile ? undefined : "no other account's certificate (PIX_CERT_OTHER_ACCOUNT_FILE)"
    case 'unlinkedCert':
      return c.certUnlinkedFile ? undefined : 'no unlinked certificate (PIX_CERT_UNLINKED_FILE)'
    case 'reset':
      return c.allowReset ? undefined : RESET_NOT_ALLOWED
  }
}

const RESET_NOT_ALLOWED = "this check resets the sandbox (POST /control/reset), which a run does only when told: give --reset (PIX_RESET=1)"
export const NO_CONTROL = 'no control URL (PIX_CONTROL_URL): the target cannot be driven'
/**
 * Production has no control API, and driving a sandbox's (its clock, payments, trusted CAs) changes
 * its state: a readonly run uses none of it, so a check that needs it is left out by the profile.
 */
export const READONLY_CONTROL = 'readonly profile: the control API changes the state of the target it drives'

/** Skips the check with `reason`, recorded in meta.skipReason. */
export function skipCheck(ctx: TestContext, reason: string): never {
  ctx.task.meta.skipReason = reason
  return ctx.skip(reason)
}
