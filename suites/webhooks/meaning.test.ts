// "First available wins" (interface §4.12): a resend goes to ONE destination. With a body url the
// notification reaches that url and nowhere else; the account's URLs, set at the same time, stay
// silent. A target that posts to the body url and to the account's URL passes every check that
// only waits for the notification where it must arrive.
import { check, type CheckContext } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import { resend, v1For } from '../common/events.ts'
import { VERSIONS, clausesFor, expectResent, paymentToOurKey } from './fixtures.ts'

for (const version of VERSIONS) {
  check(`POST /pix/${version}/webhooks/resend/{id} with a body url: only the body url receives the notification, not the account's URLs`, {
    alone: ALONE.accountUrls,
    clauses: clausesFor(version, ['4.12.destination-body-url']),
    needs: ['control', 'mutating', 'webhooks'],
  }, async (t: CheckContext) => {
    const clause = '4.12.destination-body-url'
    const tx = await paymentToOurKey(t)
    await t.control.setWebhookUrls({ pixWebhookUrl: t.hooks.url('pix'), webhookUrl: t.hooks.url('global') })
    expectResent(t, clause, await resend(t.gateway, tx.gatewayId, { url: t.hooks.url('body') }, { version }))
    await t.awaitEvent(clause, 'the V1 notification at the body url', v1For(tx), { channel: 'body' })
    for (const channel of ['pix', 'global']) {
      await t.expectNoEvent(clause, `the resent notification at the account's ${channel === 'pix' ? 'pixWebhookUrl' : 'webhookUrl'} too`, v1For(tx), { channel })
    }
  })
}
