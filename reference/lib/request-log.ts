// The base and gateway requests the reference served, newest last, for GET /control/requests: a
// webhook receiver that checks a notification with the provider shows up here. Paths only (a
// query may carry data); no header, no body.

/**
 * One entry of GET /control/requests (specs/control.yaml), the shape harness/control.ts's
 * LoggedRequest reads. Stated again here, not imported: the reference is a target like a vendor's
 * and imports nothing of the harness; test/unit/reference/request-log.test.ts holds the two equal.
 */
export interface LoggedRequest {
  /** Increases by one per request; `after` in GET /control/requests takes it. */
  seq: number
  at: string
  api: 'base' | 'gateway'
  method: string
  path: string
  status: number
}

const DEFAULT_MAX_ENTRIES = 1000

export class RequestLog {
  private readonly entries: LoggedRequest[] = []
  private seq = 0

  constructor(private readonly maxEntries = DEFAULT_MAX_ENTRIES) {}

  add(entry: Omit<LoggedRequest, 'seq'>): void {
    this.entries.push({ seq: ++this.seq, ...entry })
    if (this.entries.length > this.maxEntries) this.entries.shift()
  }

  /** The requests logged after `seq` (the oldest may have gone), and the last seq given. */
  after(seq: number): { requests: LoggedRequest[]; last: number } {
    return { requests: this.entries.filter((e) => e.seq > seq), last: this.seq }
  }
}
