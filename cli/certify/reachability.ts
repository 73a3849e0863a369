// Whether each URL of the target answers at all, asked before the preflight: a refused connection,
// a name that does not resolve or no answer in time is exit 2 naming the setting, not a hundred
// failed checks.
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { describeNetworkError } from '../../harness/http.ts'

const PROBE_TIMEOUT_MS = 3_000

/**
 * Preflight: any HTTP answer counts as reachable; a refused connection, a name that does not
 * resolve or no answer within PROBE_TIMEOUT_MS does not.
 */
export async function firstUnreachable(targets: { setting: string; url: string }[]): Promise<{ setting: string; url: string; reason: string } | undefined> {
  const probes = await Promise.all(targets.map(async (t) => ({ ...t, reason: await probe(t.url) })))
  return probes.find((p) => p.reason !== undefined) as { setting: string; url: string; reason: string } | undefined
}

/** GETs the URL; resolves with why it could not, or undefined once any HTTP answer arrives. */
function probe(url: string): Promise<string | undefined> {
  return new Promise((settle) => {
    const target = new URL(url)
    // The probe sends nothing secret and asks only "does an HTTP server answer?", so certificate
    // trust is not its business (the suites' clients decide that).
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest
    const req = send(target, { method: 'GET', rejectUnauthorized: false }, (res) => {
      res.resume()
      finish(undefined)
    })
    const timer = setTimeout(() => finish(`no answer within ${PROBE_TIMEOUT_MS / 1000} s`), PROBE_TIMEOUT_MS)
    function finish(reason: string | undefined): void {
      clearTimeout(timer)
      req.destroy()
      settle(reason)
    }
    req.on('error', (e) => finish(describeNetworkError(e)))
    req.end()
  })
}