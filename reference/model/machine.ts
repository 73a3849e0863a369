// One way to change a status: `fire(ctx, machine, entity, event)` finds the row of the entity's
// table (tables.ts) for its state and the event, or refuses with a conflict naming the entity, its
// state and the event. A machine binds a table to one kind of object: how to read and write its
// status, and what the table's named guards, timers, ledger moves and webhooks mean for it.
// Time-driven rows (`when`) are fired by `sweep`, one loop over the objects waiting in such a state.
import type { Context } from '../context.ts'
import { conflict } from './errors.ts'
import type { Guard, LedgerMove, Row, Table, Timer, Webhook } from './tables.ts'

export interface Machine<S extends string, E extends object> {
  table: Table<S>
  id(entity: E): string
  state(entity: E): S
  /** Writes the status (and what entering that state sets: timestamps, registration data, …). */
  write(ctx: Context, entity: E, to: S, row: Row<S>): void
  guard?(ctx: Context, guard: Guard, entity: E): boolean
  /** Whether a time-driven row is due now. */
  due?(ctx: Context, timer: Timer, entity: E): boolean
  ledger?(ctx: Context, move: LedgerMove, entity: E): void
  webhook?(ctx: Context, webhook: Webhook, entity: E): void
}

/** The row `event` takes from `from` (null: creation) for this entity, if the table has one. */
export function rowFor<S extends string, E extends object>(ctx: Context, m: Machine<S, E>, entity: E, from: S | null, event: string): Row<S> | undefined {
  return m.table.rows.find((r) => r.from === from && r.event === event && (r.guard === undefined || m.guard?.(ctx, r.guard, entity) === true))
}

/**
 * Applies the row for `event` from the entity's state: the ledger move (which may still refuse,
 * before anything is written), `prepare` (the data the transition carries, written only once the
 * row is known), the status, then the webhooks. Refuses with a conflict (`INVALID_TRANSITION`)
 * naming the entity, its state and the event when the table has no such row.
 */
export function fire<S extends string, E extends object>(ctx: Context, m: Machine<S, E>, entity: E, event: string, prepare?: () => void): Row<S> {
  const row = rowFor(ctx, m, entity, m.state(entity), event)
  if (!row) throw refusal(m, entity, event, m.state(entity))
  return apply(ctx, m, entity, row, prepare)
}

/** Applies a creation row (`from: null`) to a new entity, before the caller stores it. */
export function create<S extends string, E extends object>(ctx: Context, m: Machine<S, E>, entity: E, event: string, prepare?: () => void): Row<S> {
  const row = rowFor(ctx, m, entity, null, event)
  if (!row) throw refusal(m, entity, event, undefined)
  return apply(ctx, m, entity, row, prepare)
}

function apply<S extends string, E extends object>(ctx: Context, m: Machine<S, E>, entity: E, row: Row<S>, prepare?: () => void): Row<S> {
  if (row.ledger) m.ledger?.(ctx, row.ledger, entity)
  prepare?.()
  m.write(ctx, entity, row.to, row)
  watch(ctx, m, entity, row.to)
  for (const webhook of row.webhooks ?? []) m.webhook?.(ctx, webhook, entity)
  return row
}

function refusal<S extends string, E extends object>(m: Machine<S, E>, entity: E, event: string, state: S | undefined) {
  const { table } = m
  const where = state === undefined ? 'not created' : `${state}${table.final.includes(state) ? ', a final state' : ''}`
  return conflict(`${table.entity} ${m.id(entity)} is ${where}: ${table.clause} has no transition for ${event} from there`, 'INVALID_TRANSITION')
}

// ---- time-driven rows -------------------------------------------------------------------------

type AnyMachine = Machine<string, object>

/** States from which a table has a time-driven row, per table. */
const timedStates = new WeakMap<Table<string>, Set<string>>()

function timedFrom(table: Table<string>): Set<string> {
  let states = timedStates.get(table)
  if (!states) {
    states = new Set(table.rows.filter((r) => r.when !== undefined && r.from !== null).map((r) => r.from as string))
    timedStates.set(table, states)
  }
  return states
}

/** Keeps the objects that wait in a state with a time-driven row for them, so a sweep visits only those. */
function watch<S extends string, E extends object>(ctx: Context, m: Machine<S, E>, entity: E, to: S): void {
  const waiting = ctx.world.waiting(m.table.entity)
  const timed = timedFrom(m.table as Table<string>).has(to) &&
    m.table.rows.some((r) => r.when !== undefined && r.from === to && (r.guard === undefined || m.guard?.(ctx, r.guard, entity) === true))
  if (timed) waiting.add(entity)
  else waiting.delete(entity)
}

/**
 * Fires every due time-driven row of the given machines. Run before each request, after each clock
 * advance, and when a real-time delay (slip registration) ends. A row that cannot be applied is
 * logged, never thrown: time passing is nobody's request.
 */
export function sweep(ctx: Context, machines: readonly AnyMachine[]): void {
  for (const m of machines) {
    const waiting = ctx.world.waiting(m.table.entity)
    if (waiting.size === 0) continue
    for (const entity of waiting) {
      const state = m.state(entity)
      const row = m.table.rows.find((r) => r.when !== undefined && r.from === state && m.due?.(ctx, r.when, entity) === true)
      if (!row) continue
      try {
        fire(ctx, m, entity, row.event)
      } catch (err) {
        ctx.log(`${m.table.entity} ${m.id(entity)}: ${row.event} on time failed: ${(err as Error).message}`)
      }
    }
  }
}
