// A detector of English sentences in what a person reads of a report: the text between tags (and
// title, placeholder, aria-label attributes), without scripts, styles, code spans and the recorded
// HTTP exchanges (evidence, as the target sent it). Within a line, quoted values, URLs, paths and
// identifiers (camelCase, snake_case, dotted, UPPER) are values, not words; what is left is English
// when it holds two of English's function words or of the English-only words of the kit's messages.
const FUNCTION_WORDS = new Set([
  'the', 'is', 'was', 'were', 'are', 'be', 'been', 'not', 'expected', 'got', 'should', 'must', 'with', 'without', 'when',
  'which', 'of', 'and', 'or', 'to', 'an', 'by', 'for', 'from', 'has', 'have', 'does', 'did', 'only', 'every', 'after',
  'before', 'than', 'that', 'this', 'its', 'it', 'into', 'within', 'while', 'cannot', 'would', 'there', 'their', 'any',
  'each', 'none', 'one', 'on', 'in', 'at', 'can', 'never', 'other', 'another', 'same', 'whose', 'what', 'where', 'how',
  // words of the kit's messages that are English only
  'failed', 'retry', 'more', 'errors', 'items', 'public', 'request', 'response', 'answered', 'answers',
  'refused', 'accepted', 'missing', 'absent', 'seen', 'found', 'listed', 'listing', 'charge', 'refund',
  'notification', 'account', 'transaction', 'balance', 'slip', 'key', 'equals', 'returns',
])

/** Values of the interface's enumerations that read as English (2.2 operationType). */
const VALUES = /\b(?:Pix in|Pix out|Refund in|Refund out)\b/g

/** The lines a person reads in `html`, evidence and code left out. */
export function readableLines(html: string): string[] {
  const body = html
    .replace(/<script\b[\s\S]*?<\/script>/g, '')
    .replace(/<style\b[\s\S]*?<\/style>/g, '')
    .replace(/<div class="ex">[\s\S]*?<\/div><\/details>/g, '</details>')
    .replace(/<code\b[\s\S]*?<\/code>/g, ' ')
  const attributes = [...body.matchAll(/\b(?:title|placeholder|aria-label)="([^"]*)"/g)].map((m) => m[1]!)
  return [...body.split(/<[^>]*>/), ...attributes]
    .map(unescape)
    .flatMap((s) => s.split('\n'))
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
}

/** `line` without its values: quoted strings, JSON, URLs, paths, identifiers, numbers. */
export function wordsOf(line: string): string[] {
  const plain = line
    .replace(VALUES, ' ')
    .replace(/"(?:[^"\\]|\\.)*"/g, ' ')
    .replace(/'[^'\s][^']*'/g, ' ')
    .replace(/\{[^{}]*\}/g, ' ')
    .replace(/\b[a-z]+:\/\/\S+/gi, ' ')
    .replace(/(?:^|\s)\/\S*/g, ' ')
    .replace(/\S*[._/=<>#$@][^\s]*/g, ' ')
  return (plain.match(/[A-Za-z][A-Za-z'-]*/g) ?? [])
    .filter((w) => !/[a-z][A-Z]|^[A-Z0-9_]+$|_/.test(w))
    .map((w) => w.toLowerCase())
}

/** The lines of `html` a person reads that are English sentences. */
export function englishSentences(html: string): string[] {
  return readableLines(html).filter((line) => wordsOf(line).filter((w) => FUNCTION_WORDS.has(w)).length >= 2)
}

function unescape(s: string): string {
  return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&')
}
