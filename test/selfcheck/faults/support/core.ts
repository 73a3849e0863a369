// The helpers and shared state of the core faults (once faults/core.ts), used by the area files
// that hold those faults now; state a hook keeps between requests lives here, one instance per run as before.
import { defineFault, jsonObjectOf, jsonResponse, matches } from '../../fault.ts'

export const oauthToken = (req: { method: string; path: string; api: string }) => req.api === 'base' && req.method === 'POST' && req.path === '/oauth/token'
export const certToken = (req: { method: string; path: string; api: string }) => req.api === 'base' && req.method === 'POST' && req.path === '/api/auth/token'
/** Cents arithmetic on reais, so a one-cent fault is exactly one cent. */
export const plusCents = (reais: number, cents: number) => Math.round(reais * 100 + cents) / 100
