// The outside world's parties, as charges, cash-ins and control calls build them alike: a person or
// company at the simulated counterpart bank (model/identities.ts COUNTERPART_BANK).
import { randomCpf } from '../../generators/documents.ts'
import { COUNTERPART_BANK } from './identities.ts'
import type { BankAccount } from './types.ts'

/** A party as a control call names it; either part may be absent. */
export interface NamedParty {
  name: string | undefined
  document: string | undefined
}

/** A simulated party at the counterpart bank; `seed` picks its account number. */
export function counterpartOf(name: string, document: string, seed: string): BankAccount {
  const digits = seed.replace(/\D/g, '').padEnd(8, '7').slice(-8)
  return { name, document, bankCode: COUNTERPART_BANK.bankCode, branch: '0001', account: `${digits.slice(0, 7)}-${digits.slice(7)}`, ispb: COUNTERPART_BANK.ispb, bankName: COUNTERPART_BANK.bankName }
}

/** A payer named by a control call; absent parts get a default person. */
export function partyOf(payer: NamedParty | undefined, fallbackName = 'Simulated Payer'): BankAccount {
  const document = payer?.document ?? randomCpf()
  return counterpartOf(payer?.name ?? fallbackName, document, document)
}

export function simulatedPayer(): BankAccount {
  return partyOf(undefined)
}
