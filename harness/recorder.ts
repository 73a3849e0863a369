// The evidence of one check: every exchange it made, redacted before it is stored, capped in count
// and body size, each with a curl line that reproduces it (secrets as shell variables).
import type { Exchange } from './exchange.ts'
import { remembered } from './memo.ts'
import type { Redactor } from './redact.ts'

export const MAX_EXCHANGES = 20
export const MAX_BODY_CHARS = 8 * 1024

export interface RecordedExchange extends Exchange {
  curl: string
}

export class Recorder {
  private readonly kept: RecordedExchange[] = []
  /** Exchanges dropped because the cap was reached (the oldest go first: the last ones explain a failure). */
  omitted = 0

  constructor(
    private readonly redactor: Redactor,
    private readonly max = MAX_EXCHANGES,
  ) {}

  record(ex: Exchange): RecordedExchange {
    this.redactor.learnFrom(ex)
    const redacted = truncateBodies(this.redactor.exchange(ex))
    const recorded: RecordedExchange = { request: redacted.request, response: redacted.response, curl: curlOf(redacted) }
    this.kept.push(recorded)
    if (this.kept.length > this.max) {
      this.kept.shift()
      this.omitted++
    }
    return recorded
  }

  exchanges(): RecordedExchange[] {
    return [...this.kept]
  }
}

function truncateBodies(ex: Exchange): Exchange {
  if ((ex.request.body?.length ?? 0) <= MAX_BODY_CHARS && ex.response.body.length <= MAX_BODY_CHARS) return ex
  const request = ex.request.body === undefined ? ex.request : { ...ex.request, body: truncate(ex.request.body) }
  const response = { ...ex.response, body: truncate(ex.response.body) }
  // The parsed form of a large body would defeat the cap; the (truncated) text stays.
  if (response.body !== ex.response.body) delete response.json
  return { request, response }
}

export function truncate(text: string, max = MAX_BODY_CHARS): string {
  if (text.length <= max) return text
  return `${text.slice(0, max)}…«truncated: ${text.length - max} more characters»`
}

const SKIPPED_CURL_HEADERS = new Set(['content-length', 'host', 'connection'])

/** A curl command line for a (redacted) exchange; «redacted:x» becomes "$X" so the shell fills it. */
export function curlOf(ex: Exchange): string {
  let line = `curl -sS -i -X ${ex.request.method} ${shellWord(ex.request.url)}`
  const headers = ex.request.headers
  for (const name in headers) {
    if (!SKIPPED_CURL_HEADERS.has(name.toLowerCase())) line += ` -H ${shellWord(`${name}: ${headers[name]}`)}`
  }
  if (ex.request.body !== undefined && ex.request.body !== '') line += ` --data-raw ${shellWord(ex.request.body)}`
  return line
}

/** Header lines recur in every exchange of a check (its Authorization among them): quoted once. */
const quotedWords = new Map<string, string>()

/** Single-quotes a word, leaving each redaction placeholder as a double-quoted variable. */
function shellWord(s: string): string {
  if (!s.includes('«')) return s === '' ? "''" : `'${s.includes("'") ? s.replace(/'/g, `'\\''`) : s}'`
  return remembered(quotedWords, s, quoteWithPlaceholders)
}

function quoteWithPlaceholders(s: string): string {
  const word = s
    .split(/(«redacted:[^»]+»)/)
    .filter((piece) => piece !== '')
    .map((piece) => {
      const name = /^«redacted:([^»]+)»$/.exec(piece)?.[1]
      return name === undefined ? `'${piece.replace(/'/g, `'\\''`)}'` : `"$${envName(name)}"`
    })
    .join('')
  return word === '' ? "''" : word
}

function envName(name: string): string {
  return name.toUpperCase().replace(/[^A-Z0-9]/g, '_')
}
