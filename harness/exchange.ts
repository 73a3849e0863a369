// One request and what came back (CONTRACTS §5 "Evidence"). A network failure or a timeout is not a
// throw: the response carries `error` (status 0), so a check fails with that reason.

export interface ExchangeRequest {
  method: string
  url: string
  headers: Record<string, string>
  body?: string
}

export interface ExchangeResponse {
  /** HTTP status; 0 when no response arrived (see `error`). */
  status: number
  headers: Record<string, string>
  /** The raw body text, always kept (possibly truncated in recorded evidence). */
  body: string
  /** The parsed body when the content type says JSON and it parsed. */
  json?: unknown
  /** Why a JSON content type did not parse; recorded, never thrown. */
  jsonError?: string
  durationMs: number
  /** Why the exchange failed: timeout, connection refused, body over the cap… */
  error?: string
}

export interface Exchange {
  request: ExchangeRequest
  response: ExchangeResponse
}
