// What the checks write (titles, failure messages with expected/got, skip, blocked and inconclusive
// reasons, cases not judged), in the run's language: a gettext-like catalogue keyed by the English
// text, specs/messages.<lang>.yaml. scripts/messages-extract.ts finds the msgids in suites/ and
// harness/ (`${…}` becomes `{}`); a written text is matched against them at render time, each `{}`
// capturing a value that is kept as it is, or translated in turn when it is itself a known text.
// English stays the default; results.json keeps the English (it is data).
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { statementIn, type Lang } from '../../generators/clauses.ts'
import { clauseById } from '../../generators/clauses.ts'
import type { CheckResult, Results } from './types.ts'

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
  cache: Map<string, string>
}

const catalogues = new Map<Lang, Catalogue>()

/** msgid → msgstr of `lang` (empty for English). */
export function loadMessages(lang: Exclude<Lang, 'en'>): Map<string, string> {
  const file = messagesPath(lang)
  const document = parse(readFileSync(file, 'utf8')) as { messages?: Record<string, unknown> } | null
  const map = new Map<string, string>()
  for (const [id, text] of Object.entries(document?.messages ?? {})) {
    if (typeof text !== 'string' || text.trim() === '') throw new Error(`${file} (${JSON.stringify(id)}): the translation must be a non-empty string`)
    if (placeholders(id) !== placeholders(text)) throw new Error(`${file} (${JSON.stringify(id)}): ${placeholders(id)} placeholders in the msgid, ${placeholders(text)} in the translation`)
    map.set(id, text)
  }
  return map
}

const placeholders = (s: string): number => (s.match(/\{\d*\}/g) ?? []).length

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
  const catalogue = { exact, templates, cache: new Map<string, string>() }
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

function translateLine(line: string, c: Catalogue, lang: Lang, depth: number): string {
  const cached = c.cache.get(line)
  if (cached !== undefined) return cached
  const result = translateUncached(line, c, lang, depth)
  if (depth === 0) c.cache.set(line, result)
  return result
}

function translateUncached(line: string, c: Catalogue, lang: Lang, depth: number): string {
  const trimmed = line.trim()
  if (trimmed === '' || depth > MAX_DEPTH) return line
  if (trimmed !== line) {
    const start = line.indexOf(trimmed)
    return line.slice(0, start) + translateLine(trimmed, c, lang, depth) + line.slice(start + trimmed.length)
  }
  const exact = c.exact.get(line)
  if (exact !== undefined) return exact
  // `<clause id> — <statement>`: the first line of a failure
  const headline = /^(\S+) — ([\s\S]+)$/.exec(line)
  if (headline) {
    const clause = clauseById(headline[1]!)
    if (clause && clause.statement === headline[2]) return `${headline[1]} — ${statementIn(lang, clause)}`
  }
  // the most specific template whose values are whole (no bracket or quote cut in two); else the
  // most specific one (a value cut short by the kit's excerpt is not whole either)
  let fallback: { tpl: Template; values: string[] } | undefined
  for (const tpl of c.templates) {
    if (!tpl.pieces.every((p) => line.includes(p))) continue
    const m = tpl.regex.exec(line)
    if (!m) continue
    const values = m.slice(1)
    if (values.every(balanced)) return fill(tpl.msgstr, values.map((v) => translateLine(v, c, lang, depth + 1)))
    fallback ??= { tpl, values }
  }
  // `text (note)`: each part on its own
  const aside = /^([\s\S]+?) \(([\s\S]+)\)$/.exec(line)
  if (aside && balanced(aside[1]!) && balanced(aside[2]!)) {
    const [text, note] = [translateLine(aside[1]!, c, lang, depth + 1), translateLine(aside[2]!, c, lang, depth + 1)]
    if (text !== aside[1] || note !== aside[2]) return `${text} (${note})`
  }
  if (fallback) return fill(fallback.tpl.msgstr, fallback.values.map((v) => translateLine(v, c, lang, depth + 1)))
  // a note in parentheses (cli/reporting/reporter.ts: `(failed again on retry; +1 more error)`)
  const note = /^\(([\s\S]+)\)$/.exec(line)
  if (note) return `(${translateLine(note[1]!, c, lang, depth + 1)})`
  // a check title nested in describe blocks, notes joined by `; `
  for (const sep of [' > ', '; ']) {
    if (line.includes(sep)) {
      const parts = line.split(sep)
      const translated = parts.map((p) => translateLine(p, c, lang, depth + 1))
      if (translated.some((p, i) => p !== parts[i])) return translated.join(sep)
    }
  }
  return line
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

/** The check's texts a person reads, in `lang`; ids, clauses, values and evidence stay as they are. */
export function translateCheck(check: CheckResult, lang: Lang): CheckResult {
  if (lang === 'en') return check
  const tx = (s: string) => translateText(s, lang)
  return {
    ...check,
    title: tx(check.title),
    ...(check.message !== undefined ? { message: tx(check.message) } : {}),
    ...(check.moreErrors ? { moreErrors: check.moreErrors.map(tx) } : {}),
    ...(check.skipReason !== undefined ? { skipReason: tx(check.skipReason) } : {}),
    ...(check.reason !== undefined ? { reason: tx(check.reason) } : {}),
    ...(check.casesNotJudged ? { casesNotJudged: check.casesNotJudged.map((c) => ({ ...c, case: tx(c.case), reason: tx(c.reason) })) } : {}),
    ...(check.alone !== undefined ? { alone: tx(check.alone) } : {}),
    ...(check.attempts ? { attempts: check.attempts.map((a) => ({ ...a, ...(a.message !== undefined ? { message: tx(a.message) } : {}) })) } : {}),
  }
}

/** Results whose checks' texts are in `lang` (for report.html; results.json keeps the English). */
export function translateResults(r: Results, lang: Lang): Results {
  if (lang === 'en') return r
  const tx = (s: string) => translateText(s, lang)
  return {
    ...r,
    checks: r.checks.map((c) => translateCheck(c, lang)),
    excludedByProfile: r.excludedByProfile.map((e) => ({ ...e, title: tx(e.title), reason: tx(e.reason) })),
    errors: r.errors.map(tx),
  }
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
