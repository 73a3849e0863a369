// Route tests, answers and hook state shared by the token and balance faults, which sit in the area
// files (faults/<area>.ts) of the checks that catch them. A hook's state lives here: one instance per run.

export const oauthToken = (req: { method: string; path: string; api: string }) => req.api === 'base' && req.method === 'POST' && req.path === '/oauth/token'
export const certToken = (req: { method: string; path: string; api: string }) => req.api === 'base' && req.method === 'POST' && req.path === '/api/auth/token'
/** Cents arithmetic on reais, so a one-cent fault is exactly one cent. */
export const plusCents = (reais: number, cents: number) => Math.round(reais * 100 + cents) / 100
