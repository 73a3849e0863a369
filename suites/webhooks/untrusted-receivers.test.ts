// Receivers a sender should not trust (issue "Webhooks as providers really deliver them", item 2):
// an HTTPS receiver whose certificate is issued by a CA the target was never told to trust, one
// whose certificate has expired, and a plain http URL registered as the account's pixWebhookUrl.
// The interface fixes none of these: §4.12 asks HTTPS of the resend body url ("must be a valid URL
// using HTTPS"; the plain http case of that url is a must, in resend.test.ts) but says nothing of
// how the sender checks the receiver's certificate, and §4.18 gives pixWebhookUrl as "string, URL".
// So each check records what the target did (meta.observed) and fails nothing.
import { show } from '../../harness/assertions.ts'
import { EVENT_DEADLINE_MS, check, type CheckContext } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import type { Listener } from '../../harness/webhook-capture.ts'
import { resend, eventIfAny, v1For } from '../common/events.ts'
import { paymentToOurKey, type Received } from './fixtures.ts'
import { type Captured } from '../../harness/webhook-capture.ts'

const CERTIFICATE = '4.12.untrusted-receiver-certificate'
const REGISTRATION = '4.18.plain-http-url'
const NEEDS = ['control', 'mutating', 'webhooks'] as const
const REMOTE = 'the target does not reach this machine directly (PIX_WEBHOOK_PUBLIC_URL): the capture can offer it no second receiver'

const UNTRUSTWORTHY: { kind: Exclude<Listener, 'plain-http'>; key: string; what: string }[] = [
  { kind: 'untrusted-ca', key: 'untrustedCa', what: 'is issued by a CA the target was not told to trust' },
  { kind: 'expired', key: 'expiredCertificate', what: 'has expired (issued by the trusted capture CA)' },
]

for (const { kind, key, what } of UNTRUSTWORTHY) {
  check(`resend to an HTTPS receiver whose certificate ${what}: delivered or refused, observed`, {
    clauses: [CERTIFICATE],
    needs: [...NEEDS],
    // its own channels and its own listener: side by side with the others
  }, async (t) => {
    const url = await t.hooks.urlVia(kind, kind)
    if (!url) return t.skip(kind === 'expired' ? `${REMOTE}, or it serves a certificate of the user's (no capture CA to sign an expired one)` : REMOTE)
    const tx = await paymentToOurKey(t, 1_725)
    // Silence at the untrustworthy receiver means a refusal only if the same notification reaches a trusted one.
    await t.given('the same notification resent to the trusted capture receiver', async () => {
      const ex = await resend(t.gateway, tx.gatewayId, { url: t.hooks.url('trusted') })
      t.expectStatus('4.12.url-https', ex, 200)
      if (!(await arrival(t, tx, 'trusted'))) t.inconclusive(`the notification resent to the trusted receiver did not arrive within ${EVENT_DEADLINE_MS} ms`)
    })
    const refusedBefore = refusedOn(t, kind).length
    const ex = await resend(t.gateway, tx.gatewayId, { url })
    const arrived = await arrival(t, tx, kind)
    const refused = refusedOn(t, kind).slice(refusedBefore)
    t.observe(CERTIFICATE, key, {
      resendStatus: ex.response.status || show(ex.response.error),
      delivered: arrived !== undefined,
      handshakesRefused: refused.length,
      ...(refused[0] ? { refusal: refused[0].reason } : {}),
      waitedMs: EVENT_DEADLINE_MS,
    })
  })
}

// Changes the account's pixWebhookUrl (restored after the check): it runs alone.
check('POST /v1/account/webhook with a plain http pixWebhookUrl: accepted or refused, and whether notifications go there, observed', {
  alone: ALONE.accountUrls,
  clauses: [REGISTRATION],
  needs: [...NEEDS],
}, async (t) => {
  const url = await t.hooks.urlVia('plain-http', 'account')
  if (!url) return t.skip(REMOTE)
  const ex = await t.hooks.pointAccountAt(url)
  const status = ex.response.status
  const accepted = status >= 200 && status < 300
  let delivered: boolean | null = null
  if (accepted) {
    const tx = await paymentToOurKey(t, 1_850)
    delivered = (await arrival(t, tx, 'account')) !== undefined
  }
  t.observe(REGISTRATION, 'plainHttpPixWebhookUrl', {
    registrationStatus: status || show(ex.response.error),
    accepted,
    deliveredOverPlainHttp: delivered,
    ...(delivered === false ? { waitedMs: EVENT_DEADLINE_MS } : {}),
  })
})

/** The first notification naming `tx` on channel `name` within the event deadline, or undefined. */
function arrival(t: CheckContext, tx: Received, name: string): Promise<Captured | undefined> {
  const names = (c: Captured) => v1For(tx)(c) || [tx.e2eId, tx.gatewayId, tx.transactionId].some((id) => c.raw.includes(id))
  return eventIfAny(t, names, { channel: name })
}

/** The TLS handshakes the capture's extra listener `kind` refused. */
function refusedOn(t: CheckContext, kind: Listener) {
  return t.hooks.capture.refusedHandshakes().filter((r) => r.listener === kind)
}
