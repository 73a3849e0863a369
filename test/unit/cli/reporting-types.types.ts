// Compiled, never run (reporting-types.test.ts runs tsc on it): the clause vocabulary of
// cli/reporting/types.ts, which restates generators/clauses.ts because a package user's TypeScript
// compiles it (it may import nothing), held equal to its source.
import type * as Catalogue from '../../../generators/clauses.ts'
import type * as Reporting from '../../../cli/reporting/types.ts'

/** Compiles only when `value` is a T. */
const is = <T>(value: T): T => value
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
type SameFields<A, B> = Same<keyof A, keyof B> extends true ? Same<A, B> : false

is<SameFields<Reporting.ClauseInfo, Catalogue.Clause>>(true)
is<Same<Reporting.Testability, Catalogue.Testability>>(true)
is<Same<Reporting.Level, Catalogue.Level>>(true)
is<Same<Reporting.Severity, Catalogue.Severity>>(true)
