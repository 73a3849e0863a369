// The kit's control driver (harness/control.ts) against specs/control.yaml: every call it makes is a
// documented route with a request body the document allows, and it calls every route a vendor must
// provide. No target: a fake HttpClient records the requests and answers what the route documents.
import { describe, expect, it } from 'vitest'
import { ControlClient } from '../../../harness/control.ts'
import { answerValidator, CONTROL_SPEC_ID, controlOperations, loadControlSpec } from '../../../harness/driver-check.ts'
import type { Exchange } from '../../../harness/exchange.ts'
import type { HttpClient, SendRequest } from '../../../harness/http.ts'
import { openApiAjv } from '../../../generators/openapi.ts'
import { formatPointer } from '../../../generators/json-pointer.ts'

type Json = Record<string, any>

const CONTROL = 'http://control.test'

function recordingClient(): { http: HttpClient; sent: SendRequest[] } {
  const sent: SendRequest[] = []
  const http = {
    async send(req: SendRequest): Promise<Exchange> {
      sent.push(req)
      const count = req.body ? (JSON.parse(req.body) as Json).count : undefined
      const payment = { transactionId: '1', e2eId: 'E1', gatewayId: 'g', externalId: null }
      const json = typeof count === 'number' ? Array.from({ length: count }, () => payment) : payment
      return { request: { method: req.method, url: req.url, headers: {} }, response: { status: 200, headers: {}, body: JSON.stringify(json), json, durationMs: 0 } }
    },
  } as unknown as HttpClient
  return { http, sent }
}

/** The operation of specs/control.yaml a request goes to, by method and path template. */
function operationOf(req: SendRequest): { operationId: string; path: string } | undefined {
  const path = new URL(req.url).pathname
  return controlOperations().find((op) => {
    if (op.method !== req.method) return false
    const pattern = new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}$`)
    return pattern.test(path)
  })
}

function requestSchemaOf(operationId: string): object | undefined {
  for (const [path, item] of Object.entries(loadControlSpec().paths as Record<string, Json>)) {
    for (const method of ['get', 'post']) {
      if (item[method]?.operationId !== operationId) continue
      if (!item[method].requestBody) return undefined
      const pointer = formatPointer(['paths', path, method, 'requestBody', 'content', 'application/json', 'schema'])
      return { $ref: `${CONTROL_SPEC_ID}#${pointer}` }
    }
  }
  return undefined
}

describe('harness/control.ts speaks specs/control.yaml', () => {
  it('calls only documented routes, with bodies the document allows, and every route a vendor must provide', async () => {
    const { http, sent } = recordingClient()
    const c = new ControlClient(http, CONTROL, 'client-1')
    await c.reset()
    await c.clock()
    await c.advance(60)
    await c.configure({ autoRegisterSlips: false, slipRegistrationDelayMs: 10, feePercent: 1, webhookRetry: { attempts: 2, baseDelayMs: 0 } })
    await c.trustCa('-----BEGIN CERTIFICATE-----\n…\n-----END CERTIFICATE-----\n')
    await c.payCob('txid00000000000000000000000', { payer: { name: 'P', document: '52998224725' }, amount: '1.00' })
    await c.removeCob('txid00000000000000000000000', 'psp')
    await c.getCob('txid00000000000000000000000')
    await c.payCashIn('1', { payer: { name: 'P', document: '52998224725' } })
    await c.incomingPayment({ amount: 10, ageDays: 3, pixKey: 'k@x.com', externalId: 'e', payer: { name: 'P', document: '52998224725' } })
    await c.incomingPayments(3, { amount: 1 })
    await c.settleTransaction('1')
    await c.failTransaction('1', 'no')
    await c.reverseTransaction('1', 2)
    await c.setCallbackUrl('1', 'https://example.com/h')
    await c.settleReturn('E'.repeat(32), 'r1')
    await c.failReturn('E'.repeat(32), 'r1', 'no')
    await c.getReturn('E'.repeat(32), 'r1')
    await c.registerSlip('s')
    await c.paySlip('s', { amount: 5, paymentType: 2 })
    await c.expireSlip('s')
    await c.getSlip('s')
    await c.setWebhookUrls({ webhookUrl: 'https://example.com/w', pixWebhookUrl: null })
    await c.account()
    await c.resetAccount()
    await c.requests(3)

    answerValidator('getClock', 200) // registers specs/control.yaml in the shared ajv instance
    const ajv = openApiAjv()
    const called = new Set<string>()
    for (const req of sent) {
      const op = operationOf(req)
      expect(op, `${req.method} ${req.url} is not in specs/control.yaml`).toBeDefined()
      called.add(op?.operationId as string)
      const schema = requestSchemaOf(op?.operationId as string)
      if (schema && req.body !== undefined) {
        const validate = ajv.compile(schema)
        expect(validate(JSON.parse(req.body)), `${op?.operationId}: ${JSON.stringify(validate.errors)}`).toBe(true)
      }
    }
    const required = controlOperations().filter((op) => !op.extra).map((op) => op.operationId)
    expect([...called].sort()).toEqual(required.sort())
  })
})
