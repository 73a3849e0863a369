// What the bank slip check files share beyond the slips other areas make too (suites/common/slips.ts):
// a wait for a slip's notification (§6.3) and the PDF route's refusal codes (§7). Helpers of one
// file sit below that file's checks. Not a suite file: it declares no check.
import type { CheckContext } from '../../harness/check.ts'
import type { Captured } from '../../harness/webhook-capture.ts'
import { slipEvent } from '../common/events.ts'
import { type Slip } from '../common/slips.ts'

// ---- notifications (§6.3) -------------------------------------------------------------------------

/** §3.4 says registration typically takes 5 to 10 seconds; the kit waits a little longer. */
const NOTIFICATION_WAIT_MS = 12_000
/** Once a notification failed to come in this worker, later checks that need one wait less. */
const AFTER_A_MISS_WAIT_MS = 3_000
let missedANotification = false

/** The slip's notification of `status`, or a failure of `clause` (the clause that says it is sent). */
export async function waitForSlipEvent(t: CheckContext, clause: string, slip: Slip, status: string): Promise<Captured> {
  try {
    return await t.awaitEvent(clause, `the ${status} notification of slip ${slip.id}`, slipEvent(slip.id, status), { deadlineMs: missedANotification ? AFTER_A_MISS_WAIT_MS : NOTIFICATION_WAIT_MS })
  } catch (err) {
    missedANotification = true
    throw err
  }
}

// ---- the PDF (§4.16) and its refusals (§7) ----------------------------------------------------------

/** §7: "Bank slip PDF error codes … HTTP status of each: not shown." */
export const PDF_CODE_STATUS = '7.pdf-code-status-not-shown'
