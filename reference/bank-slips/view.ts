// §2.6 the bank slip: with its payer and, once registered, its barcode, line and PIX code (control);
// without the payer on the gateway's creation answer.
import { reaisNumber } from '../model/money.ts'
import type { BankSlip } from '../model/types.ts'

export function slipView(slip: BankSlip): Record<string, unknown> {
  return {
    id: slip.id,
    externalId: slip.externalId,
    status: slip.status,
    description: slip.description,
    amount: reaisNumber(slip.amountCents),
    dueDate: slip.dueDate,
    createdAt: slip.createdAt.toISOString(),
    payer: slip.payer,
    ...(slip.barcode ? { barcode: slip.barcode, slipLine: slip.slipLine, pixCode: slip.pixCode } : {}),
  }
}

export function createdSlipView(slip: BankSlip): Record<string, unknown> {
  const { payer: _payer, ...view } = slipView(slip)
  return view
}
