// Tables of the kit's words kept beside the surface that prints them (progress lines, --help, the
// history page, the receiver, observe, the preflight), read in the language of cli/reporting/i18n.ts
// (`inLang`, PIX_LANG). Two kinds: texts by id, each with its English and its pt-BR form, and
// English messages worded elsewhere (harness/, node:util) translated by pattern, as i18n.ts does
// for the headline; a message of a shape not listed keeps its English words.
import { currentLang, type Lang } from './i18n.ts'

export type Pair = readonly [en: string, ptBR: string]
export type Vars = Record<string, string | number>

const fill = (text: string, vars: Vars): string => text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole))

/** `say(id, vars)` in the current language (or `lang`); `{name}` is replaced by vars.name. */
export function texts<T extends Record<string, Pair>>(table: T): (id: keyof T & string, vars?: Vars, lang?: Lang) => string {
  return (id, vars = {}, lang = currentLang()) => fill(table[id]![lang === 'pt-BR' ? 1 : 0], vars)
}

/** A message translated by the first pattern it matches; `$1`… keep what the pattern captured (values). */
export type Replacement = string | ((whole: string, ...groups: string[]) => string)

export function byPattern(rules: readonly (readonly [RegExp, Replacement])[]): (text: string, lang?: Lang) => string {
  return (text, lang = currentLang()) => {
    if (lang === 'en') return text
    for (const [pattern, pt] of rules) if (pattern.test(text)) return text.replace(pattern, pt as string)
    return text
  }
}

/** `n thing` / `n things`: the form of a count in either language. */
export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`
}
