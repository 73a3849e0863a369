// Flaky checks: a failed check runs once more, alone, before it is reported. A
// webhook that missed its deadline once and came on the retry is reported flaky, with both
// attempts' evidence, and fails the run only with --fail-on-flaky; one that never comes is failed.
// A retry that failed the same way is one error ("failed again on retry"), not "+1 more error".
import { afterAll, test } from 'vitest'
import { defineFault, jsonObjectOf, type Fault } from './fault.ts'
import { expectOneWord } from './one-word.ts'
import { certify, closeReferences } from './runner.ts'

const CHECK = 'charges/lifecycle::paying a charge posts a RECEIVE event with status LIQUIDATED'

/** Drops the first `n` RECEIVE notifications (a receiver that saw them too late). */
function dropReceive(n: number): Fault {
  let dropped = 0
  return defineFault({
    id: `drop-first-${n}-receive`,
    area: 'charges',
    clauses: ['6.2.receive-emitted'],
    description: `the first ${n} RECEIVE notifications never reach the kit`,
    onWebhook(d) {
      if (d.json?.type !== 'RECEIVE' || dropped >= n) return d
      dropped++
      return 'drop'
    },
  })
}

afterAll(closeReferences)

// The runs wait out webhook deadlines, each against a reference of its own (runner.ts): side by side.
test.concurrent('missed once, then delivered on the retry: flaky, with both attempts, exit 0; exit 1 with --fail-on-flaky', async ({ expect }) => {
  const run = await certify({ areas: ['charges'], fault: dropReceive(1), extraArgs: ['--check', CHECK, '--retries', '1'] })
  const check = run.checks.find((c) => c.title === CHECK.split('::')[1])
  expect(check, run.run.output.slice(-2000)).toMatchObject({ status: 'passed', flaky: true })
  expect(check?.attempts).toHaveLength(1)
  expect(check?.attempts?.[0]).toMatchObject({ failedClause: '6.2.receive-emitted' })
  expect(check?.attempts?.[0]?.exchanges.length).toBeGreaterThan(0)
  expect(check?.exchanges?.length).toBeGreaterThan(0)
  expect(run.run.exitCode).toBe(0)
  expect(run.verdict.headline).toMatch(/1 check flaky: passed only on a retry/)
  const strict = await certify({ areas: ['charges'], fault: dropReceive(1), extraArgs: ['--check', CHECK, '--retries', '1', '--fail-on-flaky'], reportFiles: true })
  expectOneWord(strict, 'FAILED (gate)', 1)
  expect(strict.verdict.headline).toMatch(/^FAILED \(gate\) — flaky checks 1 > 0 \(--fail-on-flaky\); /)
})

test.concurrent('missed on every attempt: failed, on its clause', async ({ expect }) => {
  const run = await certify({ areas: ['charges'], fault: dropReceive(5), extraArgs: ['--check', CHECK, '--retries', '1'] })
  const check = run.checks.find((c) => c.title === CHECK.split('::')[1])
  expect(check, run.run.output.slice(-2000)).toMatchObject({ status: 'failed', failedClause: '6.2.receive-emitted' })
  expect(check?.flaky).toBeUndefined()
  expect(check?.message).toMatch(/\(failed again on retry\)$/)
  expect(check?.moreErrors).toBeUndefined()
  expect(run.run.exitCode).toBe(1)
})

test.concurrent('an answer broken on every attempt: one error, failed again on retry', async ({ expect }) => {
  const revisaoOne = defineFault({
    id: 'cob-revisao-one-always',
    area: 'charges',
    clauses: ['3.2.create-ativa'],
    description: 'PUT /cob answers revisao 1 for a new charge',
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (req.api === 'base' && req.method === 'PUT' && req.path.startsWith('/cob/') && body) body.revisao = 1
      return res
    },
  })
  const title = 'new charge: 201 with status ATIVA and revisao 0'
  const run = await certify({ areas: ['charges'], fault: revisaoOne, extraArgs: ['--check', `charges/lifecycle::${title}`, '--retries', '1'] })
  const check = run.checks.find((c) => c.title === title)
  expect(check, run.run.output.slice(-2000)).toMatchObject({ status: 'failed' })
  expect(check?.attempts).toHaveLength(1)
  expect(check?.message).toMatch(/\(failed again on retry\)$/)
  expect(check?.message).not.toMatch(/more error/)
  expect(check?.moreErrors).toBeUndefined()
  expect(run.run.output).not.toMatch(/more error/)
})
