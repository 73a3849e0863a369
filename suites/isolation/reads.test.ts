// Account isolation, the reads (OWASP API1; table in operations.ts): with the second account's
// credentials of every kind, nothing of the account under test is served: not its transaction, not
// in a listing, not its money in a balance, not its buyer, and its certificate makes no token for
// another account. Production-safe: in the readonly profile B only reads the ids A's own reads gave.
import { show } from '../../harness/assertions.ts'
import { check, type CheckContext } from '../../harness/check.ts'
import { readCertificate } from '../../harness/config.ts'
import type { Exchange } from '../../harness/exchange.ts'
import { matchesAnyId } from '../../harness/record-ids.ts'
import { ALONE } from '../../harness/schedule.ts'
import { READ_REFUSALS, idsAReads, isolationExternalId, itemsOf, needsOf, otherCaller, recordOfA, someReais, type Caller, type Json, type OtherKind, isolationTitle } from './accounts.ts'
import { isolationRow, type IsolationRow } from './operations.ts'

const forKinds = (row: IsolationRow, declare: (kind: OtherKind) => void) => row.otherKinds.forEach(declare)

// ---- §4.1: a certificate of A makes no token for B ------------------------------------------------
{
  const row = isolationRow('createCertToken')
  check(`${row.method} ${row.path}: the second account's client credentials with this account's certificate are refused and issue no token`, {
    clauses: [row.clause],
    needs: ['otherAccount', 'certs'],
  }, async (t) => {
    const clientId = t.config.otherClientId ?? t.skip('no client id of the second account (PIX_OTHER_CLIENT_ID)')
    const clientSecret = t.config.otherClientSecret ?? t.skip('no client secret of the second account (PIX_OTHER_CLIENT_SECRET)')
    await t.given("this account's certificate token (POST /api/auth/token)", async () => t.expectStatus('4.1.status-201', await t.certToken.issue(), [200, 201]))
    const ex = await t.certToken.issue({ certPem: readCertificate(t.config.certFile as string), body: { clientId, clientSecret } })
    t.expectStatus(row.clause, ex, [401, 403])
    const token = (ex.response.json as { access_token?: unknown } | undefined)?.access_token
    t.expectEqual(row.clause, 'a refusal issues no token (access_token)', token, undefined, ex)
  })
}

// ---- §4.3: the single view ---------------------------------------------------------------------------
{
  const row = isolationRow('getTransaction')
  forKinds(row, (kind) => check(isolationTitle(row, kind, "this account's transaction, by id and by externalId, is refused"), {
    clauses: [row.clause],
    needs: needsOf(row, kind),
  }, async (t) => {
    const record = await recordOfA(t)
    const ids = await idsAReads(t, record)
    const b = await otherCaller(t, kind)
    for (const id of ids) t.expectStatus(row.clause, await b.get(`/api/pix/transaction/${encodeURIComponent(id)}`), READ_REFUSALS)
  }))
}

// ---- §4.4: the account listing -----------------------------------------------------------------------
{
  const row = isolationRow('listTransactions')
  forKinds(row, (kind) => check(isolationTitle(row, kind, "filtered by this account's externalId or endToEndId, lists none of its transactions"), {
    clauses: [row.clause],
    needs: needsOf(row, kind),
  }, async (t) => {
    const record = await recordOfA(t)
    const filters: Record<string, string>[] = [
      ...(record.externalId ? [{ externalId: record.externalId }] : []),
      ...(record.e2eId ? [{ endToEndId: record.e2eId }] : []),
    ]
    if (filters.length === 0) t.inconclusive("the account's transaction has neither externalId nor endToEndId to filter by")
    const listed = await t.given('the account under test lists its own transaction (GET /api/transactions)', async () => {
      const seen: Record<string, string>[] = []
      for (const query of filters) {
        const ex = await t.base.get('/api/transactions', { query })
        if (ex.response.status === 200 && itemsOf(ex).some((i) => matchesAnyId(i.transactionId, record))) seen.push(query)
      }
      return seen
    })
    if (listed.length === 0) t.inconclusive('the account under test does not find its own transaction by externalId or endToEndId: nothing to compare')
    const b = await otherCaller(t, kind)
    for (const query of listed) expectNotListed(t, row.clause, await b.get('/api/transactions', query), new Set([record.id, record.externalId, record.e2eId].filter((x): x is string => x !== undefined)))
  }))
}

/** A listing answer of B: a refusal, or items none of which is one of A's (by any id it carries). */
function expectNotListed(t: CheckContext, clause: string, ex: Exchange, ofA: Set<string>): void {
  if (ex.response.status >= 400 && ex.response.status < 500) return
  t.expectStatus(clause, ex, 200)
  const leaked = itemsOf(ex).filter((i) => [i.transactionId, i.endToEndId, i.externalId].some((v) => typeof v === 'string' && ofA.has(v)))
  t.expectEqual(clause, "another account's listing holds none of this account's transactions (their transactionIds)", leaked.map((i) => i.transactionId), [], ex)
}

// ---- §4.5: the pix-key listing -----------------------------------------------------------------------
{
  const row = isolationRow('listTransactionsByPixKey')
  forKinds(row, (kind) => check(isolationTitle(row, kind, "naming this account's PIX key, lists none of its transactions"), {
    clauses: [row.clause],
    needs: needsOf(row, kind),
  }, async (t) => {
    const mayMake = t.config.profile !== 'readonly' && Boolean(t.config.controlUrl)
    const key = t.config.pixKey ?? (mayMake ? (await t.control.account()).pixKeys[0] : undefined) ?? t.skip('no PIX key of the account under test (PIX_PIX_KEY)')
    const path = `/api/pix/transactions/pix-key/${encodeURIComponent(key)}`
    if (mayMake) await t.control.incomingPayment({ amount: someReais(), pixKey: key, externalId: isolationExternalId('key') })
    const ofA = await t.given("the account under test lists its own key's transactions (GET pix-key listing)", async () => {
      const ex = await t.base.get(path, { query: { size: 100 } })
      t.expectStatus('4.5.response-shape', ex, 200)
      return new Set(itemsOf(ex).flatMap((i) => [i.transactionId, i.endToEndId]).filter((v): v is string => typeof v === 'string' && v !== ''))
    })
    if (ofA.size === 0) t.inconclusive("the account under test lists no transaction under its PIX key: nothing of its own to look for in the second account's answer")
    const b = await otherCaller(t, kind)
    const ex = await b.get(path, { size: 100 })
    if (ex.response.status >= 400 && ex.response.status < 500) return
    t.expectStatus(row.clause, ex, 200)
    const leaked = itemsOf(ex).filter((i) => [i.transactionId, i.endToEndId].some((v) => typeof v === 'string' && ofA.has(v)))
    t.expectEqual(row.clause, "another account's pix-key listing holds none of this account's transactions (their transactionIds)", leaked.map((i) => i.transactionId), [], ex)
  }))
}

// ---- §4.8, §4.9, §4.13: balances ---------------------------------------------------------------------

interface Reading {
  ex: Exchange
  /** available and blocked, in cents; undefined when the answer has no such numbers */
  cents?: [number, number]
  id?: unknown
}

/** Cents of a balance value, rounded: whose balance an answer shows is told by its amounts, their decimals are the balance checks' business. */
const roundedCents = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v * 100) : undefined)
const pair = (a: unknown, b: unknown): [number, number] | undefined => {
  const x = roundedCents(a)
  const y = roundedCents(b)
  return x === undefined || y === undefined ? undefined : [x, y]
}

const SHAPES: Record<string, { path: string; read: (j: Json) => [number, number] | undefined }> = {
  getBalance: { path: '/api/balance', read: (j) => pair(j.netBalance, j.blockedBalance) },
  getAccountBalances: {
    path: '/accounts/balances',
    read: (j) => {
      const first = Array.isArray(j.data) ? (j.data[0] as Json | undefined) : undefined
      const amount = first?.balanceAmount as Json | undefined
      return amount ? pair(amount.available, amount.blocked) : undefined
    },
  },
  getGatewayBalance: { path: '/v1/account/balance', read: (j) => pair(j.availableBalance, j.blockedBalance) },
}

function readingOf(operationId: string, ex: Exchange): Reading {
  const j = ex.response.status === 200 && ex.response.json !== null && typeof ex.response.json === 'object' ? (ex.response.json as Json) : undefined
  const got = j ? SHAPES[operationId]!.read(j) : undefined
  return { ex, ...(got ? { cents: got } : {}), ...(j && 'id' in j ? { id: j.id } : {}) }
}

const same = (a?: [number, number], b?: [number, number]) => a !== undefined && b !== undefined && a[0] === b[0] && a[1] === b[1]
const shown = (r?: [number, number]) => (r ? `available ${(r[0] / 100).toFixed(2)}, blocked ${(r[1] / 100).toFixed(2)}` : 'no amounts')

/**
 * B's balance through the row's surface is B's: compared with B's balance on another surface (the
 * witness, read just before and just after) and with A's on the row's surface (likewise). A leak
 * only where the answer is A's and none of B's readings; nothing told where the two accounts hold
 * the same (B is then credited, in the sandbox) or the answer is neither's (both moved). A refusal
 * shows nothing of A's. The gateway balance also names its account: A's id is a leak, another passes.
 */
async function expectOwnBalance(t: CheckContext, row: IsolationRow, b: Caller): Promise<void> {
  const shape = SHAPES[row.operationId]!
  const gateway = row.operationId === 'getGatewayBalance'
  const ownRead = () => (gateway ? t.gateway.get(shape.path) : t.base.get(shape.path))
  const witnessOp = gateway ? 'getBalance' : 'getGatewayBalance'
  const canWitness = gateway ? Boolean(t.config.otherClientId && t.config.otherClientSecret) : Boolean(t.config.otherApiKey)
  const witness = async (): Promise<Reading | undefined> => {
    if (!canWitness) return undefined
    const ex = gateway ? await t.other.base.get(SHAPES.getBalance!.path) : await t.other.gateway.get(SHAPES.getGatewayBalance!.path)
    return readingOf(witnessOp, ex)
  }
  const mayCredit = t.config.profile !== 'readonly' && Boolean(t.config.controlUrl && t.config.otherClientId)
  let credited = false
  let idJudged = false
  let verdictless = 'the balances moved while they were read (other checks): whose the answer is cannot be told from the amounts'
  for (let attempt = 0; attempt < 6; attempt += 1) {
    if (attempt > 0) await new Promise((done) => setTimeout(done, 150 * attempt))
    // B's witness and A's own reading side by side just before B's answer, and again just after it
    const [w1, own] = await Promise.all([witness(), t.given('the account under test reads its own balance', async () => {
      const ex = await ownRead()
      t.expectStatus(gateway ? '4.13.status-200' : row.operationId === 'getBalance' ? '2.3.public-net-balance' : '4.9.status-200', ex, 200)
      return ex
    })])
    const a1 = readingOf(row.operationId, own)
    const theirs = readingOf(row.operationId, await b.get(shape.path))
    const [after, w2] = await Promise.all([ownRead(), witness()])
    const a2 = readingOf(row.operationId, after)
    const ex = theirs.ex
    if (ex.response.status >= 400 && ex.response.status < 500) return // refused: nothing of this account's shown
    t.expectStatus(row.clause, ex, 200)
    if (gateway && theirs.id !== undefined && a1.id !== undefined) {
      idJudged = true
      t.expectThat(row.clause, "the gateway balance names the caller's account", !(typeof theirs.id === 'string' && theirs.id === a1.id), `an id other than this account's ${show(a1.id)}`, show(theirs.id), ex)
    }
    // B's own balance, read just before or just after; A's, likewise: either may move meanwhile (other checks' payments)
    const bs = [w1?.cents, w2?.cents].filter((c): c is [number, number] => c !== undefined)
    const as = [a1.cents, a2.cents].filter((c): c is [number, number] => c !== undefined)
    const isB = bs.some((c) => same(theirs.cents, c))
    const isA = as.some((c) => same(theirs.cents, c))
    if (isB && !isA) return
    if (isA && !isB && bs.length > 0) {
      t.fail(row.clause, "another account's balance reports that account's money", `${shown(w1?.cents ?? w2?.cents)} (the second account's, as its ${witnessOp} gives it)`, `${shown(theirs.cents)}: this account's balance`, ex)
    }
    if (isA && isB) {
      // the two accounts hold the same balance: B is credited an amount of its own, where the sandbox allows
      verdictless = `the two accounts hold the same balance (${shown(theirs.cents)}): whose the answer is cannot be told from the amounts`
      if (!mayCredit || credited) break
      await t.control.incomingPayment({ account: t.config.otherClientId as string, amount: someReais(), externalId: isolationExternalId('b') })
      credited = true
    }
  }
  // the gateway balance names its account: a different id than this account's is evidence enough
  if (idJudged) return
  if (!canWitness) verdictless = `no ${witnessOp} of the second account to tell its balance from this account's`
  t.inconclusive(verdictless)
}

for (const operationId of ['getBalance', 'getAccountBalances', 'getGatewayBalance']) {
  const row = isolationRow(operationId)
  forKinds(row, (kind) => check(isolationTitle(row, kind, "reports that account's balance, never this account's"), {
    clauses: [row.clause],
    needs: needsOf(row, kind),
    // this account's balance must stand still while it is compared (on a balance account, or alone)
    alone: ALONE.balances,
  }, async (t) => expectOwnBalance(t, row, await otherCaller(t, kind))))
}

// ---- §4.17: the buyer --------------------------------------------------------------------------------
{
  const row = isolationRow('getBuyer')
  forKinds(row, (kind) => check(isolationTitle(row, kind, "this account's buyer is refused"), {
    clauses: [row.clause],
    needs: needsOf(row, kind),
  }, async (t) => {
    const uuid = t.config.buyerUuid ?? t.skip('no stored buyer of the account under test (PIX_BUYER_UUID)')
    const path = `/credit-card/v1/buyer/${encodeURIComponent(uuid)}`
    await t.given('the account under test reads its own buyer (GET /credit-card/v1/buyer/{buyerUuid})', async () => t.expectStatus('4.17.status-200', await t.gateway.get(path), 200))
    const b = await otherCaller(t, kind)
    t.expectStatus(row.clause, await b.get(path), READ_REFUSALS)
  }))
}
