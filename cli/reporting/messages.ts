// What the checks write (titles, failure messages with expected/got, skip, blocked and inconclusive
// reasons, cases not judged), in the run's language: a gettext-like catalogue keyed by the English
// text, specs/messages.<lang>.yaml. scripts/messages-extract.ts finds the msgids in suites/ and
// harness/ (`${…}` becomes `{}`); a written text is matched against them at render time, each `{}`
// capturing a value that is kept as it is, or translated in turn when it is itself a known text.
// English stays the default; results.json keeps the English (it is data).
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parse as parseYaml } from 'yaml'
import { clauseById, statementIn, type Lang } from '../../generators/clauses.ts'

export const messagesPath = (lang: Exclude<Lang, 'en'>): string => fileURLToPath(new URL(`../../specs/messages.${lang}.yaml`, import.meta.url))

interface Template {
  msgid: string
  msgstr: string
  regex: RegExp
  /** Its literal pieces, longest first: a text lacking one cannot match. */
  pieces: string[]
  literal: number
}

interface Catalogue {
  exact: Map<string, string>
  templates: Template[]
  cache: Map<string, Parse>
}

const catalogues = new Map<Lang, Catalogue>()

/** msgid → msgstr of `lang` (empty for English). */
export function loadMessages(lang: Exclude<Lang, 'en'>): Map<string, string> {
  const file = messagesPath(lang)
  const document = parseYaml(readFileSync(file, 'utf8')) as { messages?: Record<string, unknown> } | null
  const map = new Map<string, string>()
  for (const [id, text] of Object.entries(document?.messages ?? {})) {
    if (typeof text !== 'string' || text.trim() === '') throw new Error(`${file} (${JSON.stringify(id)}): the translation must be a non-empty string`)
    if (!fits(id, text)) throw new Error(`${file} (${JSON.stringify(id)}): the translation must have the msgid's ${placeholders(id)} placeholders (\`{}\` in order, or \`{n}\` naming the nth)`)
    map.set(id, text)
  }
  return map
}

const placeholders = (s: string): number => (s.match(/\{\}/g) ?? []).length

/**
 * Whether a translation uses the msgid's values: each `{}` in order, or `{n}` naming the nth (a
 * translation may then leave one out: the plural `s` an English word takes).
 */
function fits(msgid: string, msgstr: string): boolean {
  const numbered = (msgstr.match(/\{(\d+)\}/g) ?? []).map((p) => Number(p.slice(1, -1)))
  if (numbered.length === 0) return placeholders(msgid) === placeholders(msgstr)
  return placeholders(msgstr) === 0 && numbered.every((n) => n >= 1 && n <= placeholders(msgid))
}

function catalogueOf(lang: Exclude<Lang, 'en'>): Catalogue {
  const known = catalogues.get(lang)
  if (known) return known
  const exact = new Map<string, string>()
  const templates: Template[] = []
  for (const [msgid, msgstr] of loadMessages(lang)) {
    if (!msgid.includes('{}')) {
      exact.set(msgid, msgstr)
      continue
    }
    const parts = msgid.split('{}')
    const pieces = parts.filter((p) => p.length > 0).sort((a, b) => b.length - a.length)
    const literal = pieces.reduce((n, p) => n + p.length, 0)
    // a template of placeholders and punctuation only would match any text
    if (!/[A-Za-z]{2}/.test(pieces.join(''))) continue
    templates.push({ msgid, msgstr, regex: new RegExp(`^${parts.map(escapeRegex).join('([\\s\\S]*?)')}$`), pieces, literal })
  }
  templates.sort((a, b) => b.literal - a.literal)
  const catalogue = { exact, templates, cache: new Map<string, Parse>() }
  catalogues.set(lang, catalogue)
  return catalogue
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** `{}` in order, or `{2}` for the second capture (a translation that reorders them). */
function fill(msgstr: string, values: string[]): string {
  let next = 0
  return msgstr.replace(/\{(\d*)\}/g, (_, n: string) => values[n === '' ? next++ : Number(n) - 1] ?? '')
}

/** One text in `lang`: every line, and within a line the known texts it is made of. */
export function translateText(text: string, lang: Lang): string {
  if (lang === 'en' || text === '') return text
  const catalogue = catalogueOf(lang)
  return text.split('\n').map((line) => translateLine(line, catalogue, lang, 0)).join('\n')
}

const MAX_DEPTH = 6
const MAX_LINE = 4_000

/** A line in the other language, and how many of its characters the catalogue's texts explain. */
interface Parse {
  text: string
  score: number
}

function translateLine(line: string, c: Catalogue, lang: Lang, depth: number): string {
  return parse(line, c, lang, depth).text
}

function parse(line: string, c: Catalogue, lang: Lang, depth: number): Parse {
  const cached = c.cache.get(line)
  if (cached !== undefined) return cached
  const result = parseUncached(line, c, lang, depth)
  if (depth <= MAX_DEPTH) c.cache.set(line, result)
  return result
}

/**
 * The reading of `line` that explains most of it: the whole of a msgid or of a clause's headline,
 * else the best of every template that matches (its literal text plus what its values explain in
 * turn), of `text (note)` and of parts joined by ` > ` or `; `. A reading whose values cut a bracket
 * or a quote in two only counts when no other explains anything (a value cut short by an excerpt).
 */
function parseUncached(line: string, c: Catalogue, lang: Lang, depth: number): Parse {
  const none: Parse = { text: line, score: 0 }
  const trimmed = line.trim()
  if (trimmed === '') return none
  if (trimmed !== line) {
    const start = line.indexOf(trimmed)
    const inner = parse(trimmed, c, lang, depth)
    return { text: line.slice(0, start) + inner.text + line.slice(start + trimmed.length), score: inner.score }
  }
  const exact = c.exact.get(line)
  if (exact !== undefined) return { text: exact, score: line.length }
  // `<clause id> — <statement>`: the first line of a failure
  const headline = /^(\S+) — ([\s\S]+)$/.exec(line)
  if (headline) {
    const clause = clauseById(headline[1]!)
    if (clause && clause.statement === headline[2]) return { text: `${headline[1]} — ${statementIn(lang, clause)}`, score: line.length }
  }
  // deeper than a message's nesting, or longer than the kit's excerpts: left as it is
  if (depth > MAX_DEPTH || line.length > MAX_LINE) return none
  const sub = (s: string) => parse(s, c, lang, depth + 1)
  let best = none
  let cut = none
  for (const tpl of c.templates) {
    if (!tpl.pieces.every((p) => line.includes(p))) continue
    const m = tpl.regex.exec(line)
    if (!m) continue
    const values = m.slice(1)
    const parsed = values.map(sub)
    const reading = { text: fill(tpl.msgstr, parsed.map((v) => v.text)), score: tpl.literal + parsed.reduce((n, v) => n + v.score, 0) }
    if (!values.every(balanced)) {
      if (reading.score > cut.score) cut = reading
    } else if (reading.score > best.score) best = reading
  }
  const consider = (reading: Parse) => {
    if (reading.score > best.score) best = reading
  }
  // `text (note)`, `(note)` (cli/reporting/reporter.ts: `(failed again on retry; +1 more error)`)
  const aside = /^([\s\S]+?) \(([\s\S]+)\)$/.exec(line)
  if (aside && balanced(aside[1]!) && balanced(aside[2]!)) {
    const [text, note] = [sub(aside[1]!), sub(aside[2]!)]
    if (text.score + note.score > 0) consider({ text: `${text.text} (${note.text})`, score: text.score + note.score + 3 })
  }
  const note = /^\(([\s\S]+)\)$/.exec(line)
  if (note && balanced(note[1]!)) {
    const inner = sub(note[1]!)
    if (inner.score > 0) consider({ text: `(${inner.text})`, score: inner.score + 2 })
  }
  // a check title nested in describe blocks, notes joined by `; `
  for (const sep of [' > ', '; ']) {
    if (!line.includes(sep)) continue
    const parts = line.split(sep).map(sub)
    const score = parts.reduce((n, p) => n + p.score, 0)
    if (score > 0) consider({ text: parts.map((p) => p.text).join(sep), score: score + sep.length * (parts.length - 1) })
  }
  return best.score > 0 ? best : cut
}

/** Whether brackets and double quotes in `s` all close, in order. */
function balanced(s: string): boolean {
  const open: string[] = []
  let quoted = false
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!
    if (quoted) {
      if (ch === '\\') i++
      else if (ch === '"') quoted = false
      continue
    }
    if (ch === '"') quoted = true
    else if (ch === '(' || ch === '[' || ch === '{') open.push(ch)
    else if (ch === ')' || ch === ']' || ch === '}') {
      if (open.pop() !== { ')': '(', ']': '[', '}': '{' }[ch]) return false
    }
  }
  return !quoted && open.length === 0
}

/** The extracted msgids `lang`'s catalogue has no translation for. */
export function missingTranslations<T extends { text: string }>(msgids: readonly T[], lang: Exclude<Lang, 'en'> = 'pt-BR'): T[] {
  const known = loadMessages(lang)
  return msgids.filter((m) => !known.has(m.text))
}

/** A check id (`area/file::title`) with its title in `lang`, for where a report names checks by id. */
export function checkIdIn(id: string, lang: Lang): string {
  const at = id.indexOf('::')
  return lang === 'en' || at < 0 ? id : `${id.slice(0, at + 2)}${translateText(id.slice(at + 2), lang)}`
}
