// Faults the checks of suites/conventions/ must catch: each a target that breaks one of its clauses.
import { defineFault, jsonObjectOf, matches, rewriteAnswer } from '../fault.ts'
import { FILES } from './support/answers.ts'
import { inBrasilia, isControl, isReset } from './support/meaning.ts'
import protocolFaults from './support/protocol.ts'
import { surfaceFaults } from './support/surfaces.ts'
import { rewriteNotification } from './support/rewrites.ts'

export default [
  // -------------------------------------------------------------------------------------------
  // Conventions: JSON bodies and UTC timestamps

  defineFault({
    id: 'answers-json-balance-labelled-text-plain', area: 'conventions', files: FILES.json, clauses: ['0.json-bodies'],
    description: 'GET /api/balance answers its JSON body labelled Content-Type text/plain',
    onResponse(req, res) {
      if (matches(req, 'GET', '/api/balance', 'base')) res.headers['content-type'] = 'text/plain; charset=utf-8'
      return res
    },
  }),

  rewriteAnswer('getGatewayBalance', (body) => { if (typeof body.consultedAt === 'string') body.consultedAt = body.consultedAt.replace(/(Z|\+00:00)$/, '') }, {
    id: 'answers-timestamp-without-zone', area: 'conventions', files: FILES.timestamps, clauses: ['0.timestamps-utc'],
    description: 'GET /v1/account/balance answers consultedAt without a zone (local time, no Z)',
  }),

  rewriteNotification((body) => {
    if (body.product !== 'BOLETO' || typeof body.processedAt !== 'string') return
    body.processedAt = new Date(Date.parse(body.processedAt) - 3 * 3_600_000).toISOString().replace(/Z$/, '-03:00')
  }, {
    id: 'answers-notification-timestamp-brasilia-offset', area: 'conventions', files: FILES.timestamps, clauses: ['0.timestamps-utc'],
    description: 'bank slip notifications carry processedAt in Brasilia time (-03:00) instead of UTC',
  }),

  (() => {
    let moved = false
    return defineFault({
      id: 'mn-bcb-time-brasilia-once-clock-moved', area: 'conventions', clauses: ['0.timestamps-utc'],
      description: "once the sandbox clock has moved, the central-bank-style surface renders its times in Brasilia's zone (-03:00): balances eventDate and the charge's calendario.criacao",
      onRequest(req) {
        if (isControl(req, 'POST', '/control/clock/advance')) moved = true
        if (isReset(req)) moved = false
        return undefined
      },
      onResponse(req, res) {
        if (!moved || res.status < 200 || res.status > 299 || req.api !== 'base') return undefined
        const body = jsonObjectOf(res)
        if (matches(req, 'GET', '/accounts/balances') && Array.isArray(body?.data)) {
          for (const item of body.data) if (typeof item?.eventDate === 'string') item.eventDate = inBrasilia(item.eventDate)
          return res
        }
        if (matches(req, 'PUT', /^\/cob\/[^/]+$/) && typeof body?.calendario?.criacao === 'string') {
          body.calendario.criacao = inBrasilia(body.calendario.criacao)
          return res
        }
        return undefined
      },
    })
  })(),
  // strict JSON and content types on answers and notifications (generators/strict-json.ts)
  ...protocolFaults,
  // every surface after the change a check of the area makes (suites/common/surfaces.ts)
  ...surfaceFaults.filter((f) => f.area === 'conventions'),
]
