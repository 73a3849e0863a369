// The delivery audit (interface §6): the capture server plays a hostile receiver (500, 503, a reset
// connection, no answer, a slow answer) and the target's retries are measured. The interface fixes
// none of it ("Retry policy of undelivered notifications: not shown"; a receiver answers 200 once
// it has processed a notification, which says nothing of what the sender does next), so every
// check here records an observation (meta.observed) and fails nothing, except the vendor's own
// declaration when one is given (PIX_DELIVERY_POLICY_FILE, 6.declared-delivery-policy).
// Each notification is a §4.12 resend to a channel of the check's own: nothing else posts there.
import { readFileSync } from 'node:fs'
import { show } from '../../harness/assertions.ts'
import { check, type CheckContext } from '../../harness/check.ts'
import type { DeliveryStep } from '../../harness/webhook-capture.ts'
import { eventIfAny, resend, v1For } from '../common/events.ts'
import { compareWithDeclared, parseDeclaredPolicy, type ObservedDelivery, describeDelivery, repeated, watchAttempts } from './delivery-policy.ts'
import { paymentToOurKey } from './fixtures.ts'
import { type Captured } from '../../harness/webhook-capture.ts'

const POLICY = '6.3.retry-policy-not-shown'
const DECLARED = '6.declared-delivery-policy'
/** A silent receiver drops the connection after this, if the sender has not given up first. */
const SILENCE_MS = 15_000
const SLOW_MS = 3_000
const NEEDS = ['control', 'mutating', 'webhooks'] as const
const TIMEOUT = 90_000

check('an undelivered notification (the receiver answers 500 every time): the retries, observed', {
  clauses: [POLICY],
  needs: [...NEEDS],
  timeout: TIMEOUT,
  // mostly waiting for the sender's retries, on channels of its own: side by side with the others
}, async (t) => {
  t.observe(POLICY, 'undelivered', await undeliveredPolicy(t))
})

check('a notification answered 500 then 200: whether the 200 ends the retries, observed', {
  clauses: [POLICY],
  needs: [...NEEDS],
  timeout: TIMEOUT,
  // mostly waiting for the sender's retries, on channels of its own: side by side with the others
}, async (t) => {
  const o = await afterOneFailure(t)
  t.observe(POLICY, 'afterOneFailure', { ...o, retried: o.attempts > 1, endsOn200: endedOn200(o) ?? null })
})

check('how each failure is treated (503, a reset connection, no answer, a slow 200), observed', {
  clauses: [POLICY],
  needs: [...NEEDS],
  timeout: TIMEOUT,
  // mostly waiting for the sender's retries, on channels of its own: side by side with the others
}, async (t) => {
  const kinds: Record<string, DeliveryStep> = {
    unavailable: { status: 503 },
    reset: { reset: true },
    silent: { silenceMs: SILENCE_MS },
    slow: { status: 200, delayMs: SLOW_MS },
  }
  // Side by side: each channel answers its one failure, then 200; a kind the kit cannot provoke leaves the others observed.
  const seen = await Promise.all(Object.entries(kinds).map(([name, step]) => t.case(name, async () => [name, await observed(t, name, [step])] as const)))
  for (const [name, o] of seen.filter((s) => s !== undefined)) {
    const first = t.hooks.events(name)[0]
    t.observe(POLICY, `on-${name}`, {
      answers: o.answers,
      retried: o.attempts > 1,
      attempts: o.attempts,
      intervalsMs: o.intervalsMs,
      samePayload: o.samePayload,
      ...(name === 'silent' ? { senderGaveUpAfterMs: first?.senderClosedAfterMs ?? null } : {}),
    })
  }
})

check('the delivery policy the vendor declares (PIX_DELIVERY_POLICY_FILE) is the one observed', {
  clauses: [DECLARED],
  needs: [...NEEDS],
  timeout: TIMEOUT * 2,
}, async (t) => {
  const file = t.config.deliveryPolicyFile
  if (!file) return t.skip('no declared delivery policy (PIX_DELIVERY_POLICY_FILE)')
  const declared = await t.given(`the declared delivery policy (${file})`, () => parseDeclaredPolicy(readFileSync(file, 'utf8')))
  const policy = await undeliveredPolicy(t)
  const { mismatches, undecided } = compareWithDeclared(declared, policy)
  let recovery: ObservedDelivery | undefined
  if (declared.endsOn200 !== undefined) {
    recovery = await afterOneFailure(t)
    const ended = endedOn200(recovery)
    if (ended === undefined) undecided.push('endsOn200: the sender never retried after a 500, so no 200 was reached')
    else if (ended !== declared.endsOn200) mismatches.push(`endsOn200: declared ${declared.endsOn200}, observed ${ended} (answers ${recovery.answers.join(', ')})`)
  }
  t.observe(DECLARED, 'comparison', { declared, observed: { attempts: policy.attempts, intervalsMs: policy.intervalsMs, stopped: policy.stopped }, mismatches, undecided })
  t.expectThat(DECLARED, 'the declared delivery policy', mismatches.length === 0, show(declared), mismatches.join('; '))
  if (undecided.length > 0) t.inconclusive(`the observation window could not settle the declaration: ${undecided.join('; ')}`)
})

check('to a receiver that demands a client certificate (PIX_WEBHOOK_CLIENT_CA_FILE), the sender presents one naming it', {
  clauses: ['6.sender-client-certificate'],
  needs: [...NEEDS],
}, async (t) => {
  if (!t.config.webhookClientCaFile) return t.skip('the capture server does not demand a client certificate (PIX_WEBHOOK_CLIENT_CA_FILE)')
  const clause = '6.sender-client-certificate'
  // the main listener's only: the extra ones (untrusted-receivers.test.ts) refuse handshakes by design
  const mainRefusals = () => t.hooks.capture.refusedHandshakes().filter((r) => r.listener === undefined)
  const refusedBefore = mainRefusals().length
  const read = await notificationTo(t, 'mtls', [])
  const arrived = await eventIfAny(t, (c) => read().includes(c), { channel: 'mtls', deadlineMs: 5_000 })
  if (!arrived) {
    const refused = mainRefusals().slice(refusedBefore)
    const why = refused.length > 0 ? `${refused.length} TLS handshake(s) refused (${refused[0]!.reason})` : 'nothing reached the capture server'
    return t.fail(clause, 'the notification over mutual TLS', 'the notification, sent with a client certificate of the configured CA', why)
  }
  const certificate = arrived.clientCertificate
  if (!certificate) return t.fail(clause, "the sender's client certificate", 'a certificate', 'none recorded')
  t.expectThat(clause, "the sender's certificate names the sender", /\b(CN|O)=\S/.test(certificate.subject), 'a subject with CN or O', show(certificate.subject))
  t.observe(clause, 'certificate', { subject: certificate.subject, issuer: certificate.issuer })
})

/** More failures than any sender is likely to try within the observation window. */
const ALWAYS = 200

/**
 * One notification to the check's channel `name`, which answers as `steps` say: a payment the
 * account received, resent (§4.12) to that channel. Its attempts, as they arrive.
 */
async function notificationTo(t: CheckContext, name: string, steps: DeliveryStep[]): Promise<() => Captured[]> {
  const tx = await paymentToOurKey(t, 1_234)
  t.hooks.capture.script(t.hooks.channel(name), steps)
  await t.given(`a resend to a scripted receiver (POST /pix/v1/webhooks/resend/{id})`, async () => {
    t.expectStatus('4.12.url-https', await resend(t.gateway, tx.gatewayId, { url: t.hooks.url(name) }), 200)
  })
  const mine = v1For(tx)
  return () => t.hooks.events(name).filter(mine)
}

/**
 * The attempts of one notification, until the sender stops. Its first attempt must come: when it
 * does not, the audit cannot tell how the sender retries (whether it delivers is other clauses').
 */
async function observed(t: CheckContext, name: string, steps: DeliveryStep[]): Promise<ObservedDelivery> {
  const read = await notificationTo(t, name, steps)
  const watched = await watchAttempts(read)
  if (watched.attempts.length === 0) {
    t.inconclusive(`the resend was answered 200 but no notification reached the capture server within the observation window (${watched.observedForMs} ms)`)
  }
  return describeDelivery(watched)
}

// One measurement of the always-failing receiver per worker: the declaration check reuses it.
let undelivered: Promise<ObservedDelivery> | undefined

function undeliveredPolicy(t: CheckContext): Promise<ObservedDelivery> {
  undelivered ??= observed(t, 'failing', repeated({ status: 500 }, ALWAYS))
  undelivered.catch(() => (undelivered = undefined))
  return undelivered
}

let endsOn200: Promise<ObservedDelivery> | undefined

function afterOneFailure(t: CheckContext): Promise<ObservedDelivery> {
  endsOn200 ??= observed(t, 'recovering', [{ status: 500 }])
  endsOn200.catch(() => (endsOn200 = undefined))
  return endsOn200
}

/** Whether the retries ended at the first 200; undefined when no 200 was reached. */
function endedOn200(o: ObservedDelivery): boolean | undefined {
  const first200 = o.answers.indexOf('200')
  if (first200 < 0) return undefined
  return o.stopped && first200 === o.attempts - 1
}
