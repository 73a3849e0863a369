// Every state table's machine, keyed as model/tables.ts `TABLES` is: each domain module contributes
// the machine that binds its table, and a table without one does not compile. Which of them the
// sweep visits is read from the tables (a row with `when`), not listed by hand.
import { BANK_SLIPS } from './bank-slips/model.ts'
import { CHARGES } from './charges/model.ts'
import type { Machine } from './model/machine.ts'
import type { Table, TABLES } from './model/tables.ts'
import { RETURNS } from './returns/model.ts'
import { TRANSACTIONS } from './transactions/model.ts'

type StateOf<T> = T extends Table<infer S> ? S : never

/** In the order the sweep visits them. */
export const MACHINES: { readonly [K in keyof typeof TABLES]: Machine<StateOf<(typeof TABLES)[K]>, object> } = {
  charge: CHARGES,
  transaction: TRANSACTIONS,
  bankSlip: BANK_SLIPS,
  return: RETURNS,
}

/** The machines whose table has a time-driven row: what `sweep` fires (machine.ts). */
export const TIMED_MACHINES: readonly Machine<string, object>[] = Object.values(MACHINES).filter((m) => m.table.rows.some((row) => row.when !== undefined))
