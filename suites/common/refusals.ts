// Refusals of the control driver, shared by the areas whose checks drive the outside world through
// it (a payer, the provider, the bank) and hold a final state to its refusal of another move.
// Not a suite file: it declares no check.
import type { CheckContext } from '../../harness/check.ts'

/** The HTTP status a control call was refused with, or 'accepted' when it went through. */
async function refusalStatus(t: CheckContext, call: () => Promise<unknown>): Promise<number | 'accepted'> {
  const answer = await t.control.attempt(call)
  return answer.accepted ? 'accepted' : answer.status
}

/** Fails `clause` unless the control call (`what`) is refused with HTTP `status`. */
export async function expectControlRefusal(t: CheckContext, clause: string, rule: string, what: string, call: () => Promise<unknown>, status = 409): Promise<void> {
  const answer = await refusalStatus(t, call)
  t.expectEqual(clause, `${rule} (${what} refused: the HTTP status, or "accepted")`, answer, status)
}
