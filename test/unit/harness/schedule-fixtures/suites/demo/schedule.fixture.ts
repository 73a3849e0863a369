// Run by schedule.test.ts through a nested vitest with the certification's two phases. Each check
// marks its start and end on the fake target (GET /mark/<check>/<start|end>): the test reads the
// order from the target's request log (the phases may run in different workers).
import { check, type CheckContext } from '../../../../../../harness/check.ts'
import { ALONE } from '../../../../../../harness/schedule.ts'

const mark = async (t: CheckContext, name: string, at: 'start' | 'end') => void (await t.base.get(`/mark/${name}/${at}`))

let secondStarted: () => void = () => {}
const secondHasStarted = new Promise<void>((resolve) => (secondStarted = resolve))

check('shared checks run side by side (first)', { clauses: ['2.3.gateway-id'] }, async (t) => {
  await mark(t, 'first', 'start')
  let timer: NodeJS.Timeout | undefined
  const never = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('the second shared check never started while the first ran')), 5_000)))
  await Promise.race([secondHasStarted, never]).finally(() => clearTimeout(timer))
  await mark(t, 'first', 'end')
})

check('an alone check runs after every shared check, with none in flight', { alone: ALONE.clock, clauses: ['2.3.gateway-id'] }, async (t) => {
  await mark(t, 'alone', 'start')
  await new Promise((r) => setTimeout(r, 50))
  await mark(t, 'alone', 'end')
})

check('shared checks run side by side (second)', { clauses: ['2.3.gateway-id'] }, async (t) => {
  await mark(t, 'second', 'start')
  secondStarted()
  await new Promise((r) => setTimeout(r, 20))
  await mark(t, 'second', 'end')
})

check('a shared check that moves the clock is a kit bug naming alone', { clauses: ['2.3.gateway-id'], needs: ['control'] }, async (t) => {
  await t.control.advance(60)
})

check('an alone check may move the clock', { alone: ALONE.clock, clauses: ['2.3.gateway-id'], needs: ['control'] }, async (t) => {
  await t.control.advance(60)
})

check('a clock check that resets the sandbox is a kit bug naming ALONE.reset', { alone: ALONE.clock, clauses: ['2.3.gateway-id'], needs: ['control'] }, async (t) => {
  await t.control.reset()
})

let eventsBStarted: () => void = () => {}
const eventsBHasStarted = new Promise<void>((resolve) => (eventsBStarted = resolve))

check('account-events checks run side by side in the shared phase (A)', { alone: ALONE.accountEvents, clauses: ['2.3.gateway-id'], needs: ['control', 'webhooks'] }, async (t) => {
  await t.hooks.useForAccount()
  await mark(t, 'eventsA', 'start')
  let timer: NodeJS.Timeout | undefined
  const never = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('the second account-events check never started while the first ran')), 5_000)))
  await Promise.race([eventsBHasStarted, never]).finally(() => clearTimeout(timer))
  await mark(t, 'eventsA', 'end')
})

check('account-events checks run side by side in the shared phase (B)', { alone: ALONE.accountEvents, clauses: ['2.3.gateway-id'], needs: ['control', 'webhooks'] }, async (t) => {
  await t.hooks.useForAccount()
  await mark(t, 'eventsB', 'start')
  eventsBStarted()
  await new Promise((r) => setTimeout(r, 20))
  await mark(t, 'eventsB', 'end')
})
