// A verdict on a bound never depends on the seed: the near misses that
// decide a clause run first, in full, at every depth. A target that accepts "10.5" as
// valor.original fails 7.create-charge-value-format-400 whatever the seed and the depth.
import { afterAll, expect, test } from 'vitest'
import { defineFault, jsonResponse } from './fault.ts'
import { certify, closeReferences } from './runner.ts'

const acceptsOneDecimal = defineFault({
  id: 'charge-accepts-one-decimal-value',
  area: 'charges',
  clauses: ['7.create-charge-value-format-400'],
  description: 'PUT /cob accepts valor.original "10.5" (one decimal place) with 201',
  onRequest(req) {
    if (req.api !== 'base' || req.method !== 'PUT' || !req.path.startsWith('/cob/') || req.json?.valor?.original !== '10.5') return undefined
    const txid = req.path.slice('/cob/'.length)
    return jsonResponse(201, { txid, status: 'ATIVA', revisao: 0, calendario: { criacao: new Date().toISOString(), expiracao: 3600 }, valor: { original: '10.5' } })
  },
})

afterAll(closeReferences)

test.each([[1, 'quick'], [2, 'default'], [987654321, 'quick']] as const)('seed %i, depth %s: the one-decimal value fails its clause', async (seed, depth) => {
  const run = await certify({ areas: ['charges'], files: ['charges/errors.test.ts'], fault: acceptsOneDecimal, extraArgs: ['--seed', String(seed), '--depth', depth] })
  const failed = run.checks.filter((c) => c.status === 'failed')
  expect(failed.map((c) => c.failedClause), run.run.output.slice(-2000)).toEqual(['7.create-charge-value-format-400'])
  expect(failed[0]?.message).toMatch(/^7\.create-charge-value-format-400 — /)
  expect(failed[0]?.message).toContain('boundary case ["10.5"]')
})
