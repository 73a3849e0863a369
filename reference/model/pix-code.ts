// The BR Code (EMV, §4.6) an account's charges, cash-ins and bank slips carry, as one builder.
import { buildPixCode, EmvError } from '../../generators/emv.ts'
import { invalid } from './errors.ts'
import { reais } from './money.ts'
import type { Account } from './types.ts'

function merchantOf(account: Account): { merchantName: string; merchantCity: string } {
  return { merchantName: account.holder.name.slice(0, 25), merchantCity: 'SAO PAULO' }
}

/** A BR Code for the account; a key the EMV layout cannot carry is the caller's 400, not a crash. */
export function pixCodeFor(account: Account, key: string, txid: string, cents: number): string {
  try {
    return buildPixCode({ key, txid, amount: reais(cents), ...merchantOf(account) })
  } catch (err) {
    if (err instanceof EmvError) throw invalid(`cannot build a BR Code for key "${key}": ${err.message}`, 'INVALID_PIX_KEY')
    throw err
  }
}
