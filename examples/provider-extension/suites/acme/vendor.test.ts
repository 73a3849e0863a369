// Acme's checks: a vendor field and a vendor endpoint, written with the kit's own check() and verbs.
import { check, setting, type CheckContext, type Exchange } from 'pix-conformance-kit/harness'

/** Acme's extension API, beside the interface's; the run gets it as PIX_X_ACME_URL. */
function acmeUrl(t: CheckContext, path: string): string {
  const base = setting('PIX_X_ACME_URL')
  if (!base) t.skip('PIX_X_ACME_URL is not set (the URL of the Acme extension API)')
  return `${base}${path}`
}

function acmeGet(t: CheckContext, path: string): Promise<Exchange> {
  return t.raw.request({ method: 'GET', url: acmeUrl(t, path), headers: { accept: 'application/json' } })
}

check('the account info carries an Acme reference', { clauses: ['x-acme.reference-format'], tags: ['vendor-field'] }, async (t) => {
  const ex = await acmeGet(t, '/acme/v1/account')
  t.expectStatus('x-acme.reference-format', ex, 200)
  const body = t.json('x-acme.reference-format', ex)
  t.string('x-acme.reference-format', 'acmeReference', body.acmeReference, ex, { pattern: /^ACME-\d+$/, expected: '"ACME-" followed by digits' })
})

check('the settlements are listed with two-decimal amounts', { clauses: ['x-acme.settlements-listed'], tags: ['vendor-endpoint'] }, async (t) => {
  const ex = await acmeGet(t, '/acme/v1/settlements')
  t.expectStatus('x-acme.settlements-listed', ex, 200)
  const settlements = t.json('x-acme.settlements-listed', ex).settlements
  if (!Array.isArray(settlements)) t.fail('x-acme.settlements-listed', 'settlements', 'a list', JSON.stringify(settlements), ex)
  for (const s of settlements as unknown[]) {
    t.string('x-acme.settlements-listed', 'settlement amount', t.object('x-acme.settlements-listed', 'settlement', s, ex).amount, ex, { pattern: /^\d+\.\d{2}$/, expected: 'a two-decimal string' })
  }
})
