// Model-based ledger check (interface §2.2, §2.3, §3.6, §6.2): random sequences of charges,
// payments, cash-outs and returns, each followed by a comparison of the target with a model of the
// account: the balances, the listing and the notifications; and, alone, sequences that move the clock
// (expiring charges and cash-ins), after which every surface is read again, its times too. The model, its commands, and the
// choices where the interface is silent are in ledger-model.ts, its commands in ledger-commands.ts.
import { check, type CheckContext } from '../../harness/check.ts'
import { ALONE } from '../../harness/schedule.ts'
import { GATEWAY_BALANCE, leaveWindow, slotOf } from '../rate-limits/window.ts'
import { CLOCK_COMMANDS, COMMANDS, EVERY_CLOCK_COMMAND, EVERY_COMMAND, MAX_COMMANDS } from './ledger-commands.ts'
import { blank, onTheBalanceAccount, setup } from './ledger-model.ts'

/** Bounds the whole property, shrinking included, so a broken target still certifies in time. */
const TIME_LIMIT_MS = 45_000
/**
 * What one command sequence weighs against the depth's cases. Its real cost is some forty requests
 * (a few commands, each followed by three balance reads, both listings and a view), which would leave
 * the default depth two sequences; weighed as three cases it runs 17 (the 15 it ran before depth
 * profiles, about 3 s on a local target). Deep runs 500, bounded by the time limit, which is
 * recorded when it stops a run (meta.property).
 */
const COST = 3

/** What the model's balances, listings, views and events are held to. */
const LEDGER_CLAUSES = ['3.6.accept-moves-to-blocked', '3.6.confirm-releases-blocked', '3.6.incoming-raises-available', '2.3.failed-operation-unblocks',
  '2.3.gross-equals-available-plus-blocked', '2.3.blocked-equals-blocked', '2.3.net-equals-available', '2.3.gateway-total-equals-available-plus-blocked',
  '2.3.release-pix-immediate', '2.2.original-amount', '2.2.fee-amount', '2.2.final-amount', '2.2.status-map-pending', '2.2.status-map-confirmed',
  '2.2.status-map-error', '2.2.type-map-payment', '2.2.type-map-withdraw', '2.2.type-map-refund-in', '6.2.receive-emitted', '6.2.transfer-emitted',
  '6.2.refund-emitted', '2.1.view-current', '2.2.same-view-both-listings', '6.2.receive-txid-of-charge', '6.2.refund-item-amount']

/**
 * The model reads the gateway balance after every command, filling its 60-a-minute window: the
 * window is emptied after it on every account the sequences ran on (a balance account reset, or the
 * clock rolled, as the rate-limit checks do), so no later check waits a minute for it.
 */
const leaveGatewayWindow = (t: CheckContext): Promise<void> => (onTheBalanceAccount(t) ? blank(t) : leaveWindow(t, slotOf(t, 'GET', GATEWAY_BALANCE, t.config.apiKey)))

check('ledger model: random charges, payments, cash-outs and returns keep the balances, both listings, the view and the events in step with the model', {
  alone: ALONE.accountReset,
  clauses: LEDGER_CLAUSES,
  needs: ['control', 'mutating', 'webhooks', 'reset'],
  timeout: TIME_LIMIT_MS + 30_000,
}, async (t) => {
  let run = 0
  // each sequence starts from a blank account: on a balance account they spread over the free ones
  await t.property({ commands: COMMANDS, maxCommands: MAX_COMMANDS, setup: (on) => setup(on, run++), leave: leaveGatewayWindow }, { examples: [EVERY_COMMAND()], cost: COST, timeLimitMs: TIME_LIMIT_MS, apart: true })
})

/**
 * The clock sequences run alone (the clock is every check's), after the others, one round trip after
 * another: weighed so that the default depth runs the example and one random sequence (some forty
 * round trips; a distant target makes each cost 50–150 ms), a deep run as many as its time allows.
 */
const CLOCK_COST = 50
const CLOCK_TIME_LIMIT_MS = 20_000

check('ledger model with the clock: clock moves and the expiries they bring keep the balances (and their times), both listings, the view and the events in step with the model', {
  alone: ALONE.clock,
  clauses: [...LEDGER_CLAUSES, '2.1.updated-at', '2.3.consulted-at-is-event-date', '2.3.gateway-consulted-at'],
  needs: ['control', 'mutating', 'webhooks', 'reset'],
  timeout: CLOCK_TIME_LIMIT_MS + 30_000,
}, async (t) => {
  let run = 0
  await t.property({ commands: CLOCK_COMMANDS, maxCommands: MAX_COMMANDS, setup: (on) => setup(on, run++, true), leave: leaveGatewayWindow }, { examples: [EVERY_CLOCK_COMMAND()], cost: CLOCK_COST, timeLimitMs: CLOCK_TIME_LIMIT_MS })
})
