// Compiled, never run (declarations.test.ts runs tsc on it): harness.d.ts, the hand-written face of
// harness/index.ts, held type for type against the implementation. What the kit hands a check (its
// values, the check context, exchanges, captured events) is the declared type; what a check writes
// (check, property and model-run options) is what the implementation takes; the names are the same
// both ways. Why the face is written by hand: generated declarations reach into the kit's internals
// (undici, vitest, node: types), which a strict extension without @types/node cannot compile.
import type * as Published from '../../../harness.d.ts'
import type * as Harness from '../../../harness/index.ts'
import type { ModelRun, ModelRunOptions } from '../../../harness/check.ts'
import type { TargetConfig } from '../../../harness/config.ts'

/** Compiles only when `value` is a T. */
const is = <T>(value: T): T => value
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
declare const kit: typeof Harness
declare const model: { n: number }

// the values, as declared
is<Same<keyof typeof Harness, keyof typeof Published>>(true)
type Declared<I extends 0 | 1 | 2> = Parameters<typeof Published.check>[I]
// check() hands the check the kit's context, which is the declared one (below) but for the config's widening
is<(title: Declared<0>, options: Declared<1>, fn: (t: Harness.CheckContext) => ReturnType<Declared<2>>) => ReturnType<typeof Published.check>>(kit.check)
is<typeof Published.NEEDS>(kit.NEEDS)
is<typeof Published.ALONE>(kit.ALONE)
is<typeof Published.fc>(kit.fc)
is<typeof Published.arbAmountString>(kit.arbAmountString)
is<typeof Published.arbAmountNumber>(kit.arbAmountNumber)
is<typeof Published.arbInvalidAmountString>(kit.arbInvalidAmountString)
is<typeof Published.fromCents>(kit.fromCents)
is<typeof Published.centsOf>(kit.centsOf)
is<typeof Published.arbTxid>(kit.arbTxid)
is<typeof Published.arbE2eId>(kit.arbE2eId)
is<typeof Published.TXID_RE>(kit.TXID_RE)
is<typeof Published.E2EID_RE>(kit.E2EID_RE)
is<typeof Published.UUID_RE>(kit.UUID_RE)
is<typeof Published.setting>(kit.setting)

// what the kit hands a check
is<Same<keyof Harness.CheckContext, keyof Published.CheckContext>>(true)
// property's model runs get a context (ModelRun.setup, leave), whose config is the one widening:
// property is held to the harness through its options below
is<Omit<Published.CheckContext, 'config' | 'property'>>(null as unknown as Harness.CheckContext)
// the one widening: the declared config also lets an extension read a setting of its own, as unknown
is<Published.TargetConfig>(null as unknown as TargetConfig & { readonly [setting: string]: unknown })
is<Published.Exchange>(null as unknown as Harness.Exchange)
is<Published.ExchangeRequest>(null as unknown as Harness.ExchangeRequest)
is<Published.ExchangeResponse>(null as unknown as Harness.ExchangeResponse)
is<Published.Captured>(null as unknown as Harness.Captured)
is<Same<Published.Need, Harness.Need>>(true)

// what a check writes
is<Same<keyof Published.CheckOptions, keyof Harness.CheckOptions>>(true)
is<Harness.CheckOptions>(null as unknown as Published.CheckOptions)
is<Same<keyof Published.PropertyOptions<[number]>, keyof Harness.PropertyOptions<[number]>>>(true)
is<Harness.PropertyOptions<[number]>>(null as unknown as Published.PropertyOptions<[number]>)
is<Same<keyof Published.ModelRun<typeof model, string>, keyof ModelRun<typeof model, string>>>(true)
is<Omit<ModelRun<typeof model, string>, 'setup' | 'leave'>>(null as unknown as Published.ModelRun<typeof model, string>)
is<Same<Parameters<Published.ModelRun<typeof model, string>['setup']>[0], Published.CheckContext>>(true)
is<Same<Parameters<ModelRun<typeof model, string>['setup']>[0], Harness.CheckContext>>(true)
is<Same<keyof Published.ModelRunOptions<typeof model, string>, keyof ModelRunOptions<typeof model, string>>>(true)
is<ModelRunOptions<typeof model, string>>(null as unknown as Published.ModelRunOptions<typeof model, string>)
