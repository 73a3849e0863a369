// The check of a verifying receiver: before it records a payment, it asks the provider's API with
// the credentials the kit wrote (--env-out), read when the first notification comes. A V1 PAID or
// REFUND must be the account's transaction, CONFIRMED, of that value (§4.3 by its
// businessTransactionId); a V2 RECEIVE or REFUND must name a CONFIRMED payment of the account in
// the listing (§4.4 by endToEndId). A bank slip has no read in the interface: it is trusted.
import { readFileSync } from 'node:fs'
import type { NotificationCheck } from './receiver.ts'

type Json = Record<string, any>

export function providerCheck(credentialsFile: string): NotificationCheck {
  let session: Promise<{ base: string; token: string }> | undefined
  const get = async (path: string): Promise<{ status: number; json: Json }> => {
    session ??= signIn(credentialsFile)
    const { base, token } = await session
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } })
    return { status: res.status, json: (await res.json().catch(() => ({}))) as Json }
  }
  return async (n) => {
    if ('businessTransactionId' in n) {
      const { status, json } = await get(`/api/pix/transaction/${encodeURIComponent(n.businessTransactionId)}`)
      if (status === 404) return false
      if (status !== 200) throw new Error(`the provider answered ${status}`)
      const types = n.status === 'PAID' ? ['PAYMENT'] : ['REFUND_IN', 'REFUND_OUT']
      return json.status === 'CONFIRMED' && types.includes(json.type) && json.originalAmount === Number(n.value).toFixed(2)
    }
    if (n.type === 'RECEIVE' || n.type === 'REFUND') {
      const { status, json } = await get(`/api/transactions?endToEndId=${encodeURIComponent(n.data?.endToEndId ?? '')}`)
      if (status !== 200) throw new Error(`the provider answered ${status}`)
      const item = (json.data as Json[] | undefined)?.[0]
      return item !== undefined && item.status === 'Confirmado' && (n.type === 'REFUND' || item.originalAmount === Number(n.data.payment.amount))
    }
    return true
  }
}

async function signIn(file: string): Promise<{ base: string; token: string }> {
  const env = Object.fromEntries(readFileSync(file, 'utf8').split('\n').filter((l) => /^[A-Z_]+=/.test(l)).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]))
  const res = await fetch(`${env.PIX_BASE_URL}/oauth/token`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientId: env.PIX_CLIENT_ID, clientSecret: env.PIX_CLIENT_SECRET }),
  })
  const json = (await res.json()) as Json
  if (typeof json.access_token !== 'string') throw new Error(`no token: ${res.status}`)
  return { base: env.PIX_BASE_URL as string, token: json.access_token }
}
