// Negative evidence needs a live route: every operation can be proven live by a probe of its own,
// whatever order the suite files run in (vitest orders them by duration, not by name).
import { describe, expect, test } from 'vitest'
import { operations } from '../../../generators/openapi.ts'
import { controlRouteTemplate, hasProbe, operationOf } from '../../../harness/routes.ts'
import type { Exchange } from '../../../harness/exchange.ts'

const config = { baseUrl: 'http://base.test', gatewayUrl: 'http://gw.test' }
const ex = (method: string, url: string): Exchange => ({ request: { method, url, headers: {} }, response: { status: 404, headers: {}, body: '', durationMs: 1 } })

describe('route liveness', () => {
  test('every operation of specs/openapi.yaml has a positive probe', () => {
    expect(operations().map((o) => o.operationId).filter((id) => !hasProbe(id))).toEqual([])
  })

  test('an exchange is matched to its operation by server, method and path; a missing last id is the same route', () => {
    expect(operationOf(ex('GET', 'http://base.test/api/pix/transaction/abc?x=1'), config)).toBe('getTransaction')
    expect(operationOf(ex('POST', 'http://gw.test/pix/v1/webhooks/resend/'), config)).toBe('resendWebhookV1')
    expect(operationOf(ex('GET', 'http://gw.test/api/pix/transaction/abc'), config)).toBeUndefined()
    expect(operationOf(ex('DELETE', 'http://base.test/cob/abc'), config)).toBeUndefined()
  })

  test('control routes are named by their template', () => {
    expect(controlRouteTemplate('POST /control/cob/AbC123xyz/pay')).toBe('POST /control/cob/{}/pay')
    expect(controlRouteTemplate('POST /control/accounts/reference-client-1/webhook-urls')).toBe('POST /control/accounts/{}/webhook-urls')
  })
})
