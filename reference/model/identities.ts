// Who exists in the reference: ten accounts, each with client credentials, a full and a limited
// API key, PIX keys, buyers and a holder; a limited OAuth client of account 1; a CA and three client
// certificates. Made once per start (random secrets) and re-applied unchanged by /control/reset.
import { randomBytes, randomUUID } from 'node:crypto'
import { createCa, createLeaf, fingerprint256, type KeyPairPem } from '../../generators/certificates.ts'
import { randomCnpj, randomCpf } from '../../generators/documents.ts'
import type { Account, BankAccount, Buyer } from './types.ts'

/** The reference's own bank (the account holders' PSP). */
export const REFERENCE_BANK = { ispb: '99999999', bankCode: '999', bankName: 'Reference Payments S.A.' } as const
/** The bank of simulated counterparts (payers of charges, receivers of cash-outs). */
export const COUNTERPART_BANK = { ispb: '18236120', bankCode: '260', bankName: 'Counterpart Bank S.A.' } as const

/** Initial available balance of every account (R$ 10,000.00), so cash-outs work from the start. */
export const SEED_AVAILABLE_CENTS = 1_000_000

export type Scope = 'pix:read' | 'pix:write' | 'balance:read'
export const FULL_SCOPES: Scope[] = ['pix:read', 'pix:write', 'balance:read']
/**
 * The limited OAuth client: may read charges and returns, may not write them (403 on PUT /cob, PUT
 * /devolucao), and reads no balance (403 on GET /accounts/balances) unless the `limitedBalance`
 * reading allows it (reference/readings.ts).
 */
export const LIMITED_SCOPES: Scope[] = ['pix:read']
export const LIMITED_CLIENT_ID = 'reference-client-limited'

export type KeyPermission = 'balance:read' | 'buyer:read' | 'webhook:write' | 'webhook:resend' | 'pix:refund' | 'bank-slip:write'
export const FULL_KEY_PERMISSIONS: KeyPermission[] = ['balance:read', 'buyer:read', 'webhook:write', 'webhook:resend', 'pix:refund', 'bank-slip:write']
/**
 * The limited API key: reads buyers but may not refund, resend, set webhooks or create slips, and
 * reads no balance (403) unless the `limitedBalance` reading allows it.
 */
export const LIMITED_KEY_PERMISSIONS: KeyPermission[] = ['buyer:read']

/** An account as made at start: its identity, without the state a run changes. */
export interface AccountSeed extends Pick<Account, 'id' | 'clientId' | 'clientSecret' | 'apiKey' | 'apiKeyLimited' | 'holder' | 'pixKeys'> {
  buyers: Omit<Buyer, 'accountId'>[]
}

export interface OauthClient {
  clientId: string
  clientSecret: string
  accountId: string
  scopes: Scope[]
}

export interface CertificateSet {
  ca: KeyPairPem
  linked: KeyPairPem // linked to account 1
  unlinked: KeyPairPem // registered, linked to no account
  otherAccount: KeyPairPem // linked to account 2
  /** SHA-256 fingerprint → linked account id (null: registered but unlinked). */
  registry: Map<string, string | null>
}

export interface Identities {
  accounts: AccountSeed[]
  clients: OauthClient[]
  certs: CertificateSet
  tokenSecret: Uint8Array
}

const secret = (bytes: number): string => randomBytes(bytes).toString('base64url')

function accountSeed(n: number): AccountSeed {
  const id = `acct-${n}`
  const createdAt = new Date().toISOString()
  return {
    id,
    clientId: `reference-client-${n}`,
    clientSecret: secret(24),
    apiKey: `rk_full_${secret(24)}`,
    apiKeyLimited: `rk_limited_${secret(24)}`,
    holder: {
      name: `Reference Merchant ${n} Ltda`,
      document: randomCnpj(),
      bankCode: REFERENCE_BANK.bankCode,
      branch: '0001',
      account: `${100000 + n}-${n}`,
      ispb: REFERENCE_BANK.ispb,
      bankName: REFERENCE_BANK.bankName,
    },
    pixKeys: [randomUUID(), `merchant${n}@reference.local`],
    buyers: Array.from({ length: n === 1 ? 2 : 1 }, (_, i) => ({
      uuid: randomUUID(),
      name: `Buyer ${n}.${i + 1}`,
      email: `buyer${n}.${i + 1}@reference.local`,
      document: { documentNumber: randomCpf(), documentType: 'cpf', documentNation: 'BR' },
      phone: `1199${String(1000000 + n * 10 + i).slice(-7)}`,
      countryCode: '+55',
      address: {
        street: 'Avenida Paulista',
        number: String(1000 + i),
        complement: '',
        district: 'Bela Vista',
        city: 'Sao Paulo',
        state: 'SP',
        country: 'BR',
        zipCode: '01310100',
      },
      createdAt,
      updatedAt: createdAt,
    })),
  }
}

/**
 * Account 1 is the main one, 2 the other (isolation checks), 3 to 10 the balance accounts: eight,
 * as many as a client may name (PIX_BALANCE_* to PIX_BALANCE_8_*).
 */
const ACCOUNTS = 10

export async function createIdentities(): Promise<Identities> {
  const accounts = Array.from({ length: ACCOUNTS }, (_, i) => accountSeed(i + 1))
  const [one, two] = accounts as [AccountSeed, AccountSeed]
  const clients: OauthClient[] = [
    ...accounts.map((a) => ({ clientId: a.clientId, clientSecret: a.clientSecret, accountId: a.id, scopes: FULL_SCOPES })),
    { clientId: LIMITED_CLIENT_ID, clientSecret: secret(24), accountId: one.id, scopes: LIMITED_SCOPES },
  ]
  const ca = await createCa('PIX Reference Client CA')
  const [linked, unlinked, otherAccount] = await Promise.all([
    createLeaf(ca, { cn: `${one.clientId}`, usage: 'client' }),
    createLeaf(ca, { cn: 'reference-unlinked', usage: 'client' }),
    createLeaf(ca, { cn: `${two.clientId}`, usage: 'client' }),
  ])
  const registry = new Map<string, string | null>([
    [fingerprint256(linked.certPem), one.id],
    [fingerprint256(unlinked.certPem), null],
    [fingerprint256(otherAccount.certPem), two.id],
  ])
  return { accounts, clients, certs: { ca, linked, unlinked, otherAccount, registry }, tokenSecret: randomBytes(32) }
}

/**
 * Identities kept in a state folder across restarts (`--state DIR`): the first start writes them,
 * later starts read them, so credentials, keys, certificates, buyers and PIX keys stay the same.
 * The file holds secrets: it is written with mode 0600.
 */
export async function persistentIdentities(stateDir: string): Promise<Identities> {
  const { mkdir, readFile, writeFile } = await import('node:fs/promises')
  const { join } = await import('node:path')
  const file = join(stateDir, 'identities.json')
  try {
    const saved = JSON.parse(await readFile(file, 'utf8')) as SavedIdentities
    if (saved.accounts.length < ACCOUNTS) {
      // a state folder from before some of the balance accounts (3 to 10): it gains them, the rest stays
      for (let n = saved.accounts.length + 1; n <= ACCOUNTS; n++) {
        const added = accountSeed(n)
        saved.accounts.push(added)
        saved.clients.push({ clientId: added.clientId, clientSecret: added.clientSecret, accountId: added.id, scopes: FULL_SCOPES })
      }
      await writeFile(file, JSON.stringify(saved, null, 2), { mode: 0o600 })
    }
    const { ca, linked, unlinked, otherAccount } = saved.certs
    const [one, two] = saved.accounts as [AccountSeed, AccountSeed]
    const registry = new Map<string, string | null>([[fingerprint256(linked.certPem), one.id], [fingerprint256(unlinked.certPem), null], [fingerprint256(otherAccount.certPem), two.id]])
    return { accounts: saved.accounts, clients: saved.clients, certs: { ca, linked, unlinked, otherAccount, registry }, tokenSecret: Buffer.from(saved.tokenSecret, 'base64') }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`reference state ${file} cannot be read: ${(err as Error).message}`)
  }
  const made = await createIdentities()
  const pair = (c: KeyPairPem) => ({ certPem: c.certPem, keyPem: c.keyPem })
  const saved: SavedIdentities = {
    accounts: made.accounts,
    clients: made.clients,
    certs: { ca: pair(made.certs.ca), linked: pair(made.certs.linked), unlinked: pair(made.certs.unlinked), otherAccount: pair(made.certs.otherAccount) },
    tokenSecret: Buffer.from(made.tokenSecret).toString('base64'),
  }
  await mkdir(stateDir, { recursive: true })
  await writeFile(file, JSON.stringify(saved, null, 2), { mode: 0o600 })
  return made
}

interface SavedIdentities {
  accounts: AccountSeed[]
  clients: OauthClient[]
  certs: { ca: KeyPairPem; linked: KeyPairPem; unlinked: KeyPairPem; otherAccount: KeyPairPem }
  tokenSecret: string
}
