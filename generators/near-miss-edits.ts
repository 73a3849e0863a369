// The edits near-miss.ts makes to a valid string: one character replaced, added or removed, a
// group of a separated value one too short or long, a separator missing or doubled, whitespace
// around it, a character from outside the pattern's class; and the strangers it takes them from.
// Pure string work: which patterns get which edits, and why, is near-miss.ts.

export interface NearMiss {
  readonly value: string
  /** what is wrong, in a few words ("one decimal place") */
  readonly why: string
}

export const replaceAt = (s: string, i: number, ch: string): string => s.slice(0, i) + ch + s.slice(i + 1)
export const insertAt = (s: string, i: number, ch: string): string => s.slice(0, i) + ch + s.slice(i)
const deleteAt = (s: string, i: number): string => s.slice(0, i) + s.slice(i + 1)
export const middle = (s: string): number => Math.floor(s.length / 2)

/** `s` repeated or cut to exactly `length` characters. */
export const fitTo = (s: string, length: number): string => s.repeat(Math.ceil(length / s.length)).slice(0, length)

/** A leading or trailing space, a trailing newline (which a `$` that is not the end of input lets through). */
export function whitespaceEdits(seed: string): NearMiss[] {
  return [
    { value: ` ${seed}`, why: 'a leading space' },
    { value: `${seed} `, why: 'a trailing space' },
    { value: `${seed}\n`, why: 'a trailing newline' },
  ]
}

/**
 * For a value made of groups between separator characters (a UUID, a formatted CPF, a date): each
 * group with one character fewer and one more, each separator missing and doubled.
 */
export function groupEdits(seed: string, separators: string, groupNames: readonly string[]): NearMiss[] {
  const edits: NearMiss[] = []
  let group = 0
  let start = 0
  for (let i = 0; i <= seed.length; i++) {
    const atSeparator = i < seed.length && separators.includes(seed[i] as string)
    if (!atSeparator && i < seed.length) continue
    const name = groupNames[group] ?? `group ${group + 1}`
    const last = i - 1
    if (i > start) {
      edits.push({ value: deleteAt(seed, last), why: `${name} one character short` })
      edits.push({ value: insertAt(seed, i, seed[last] as string), why: `${name} one character long` })
    }
    if (atSeparator) {
      edits.push({ value: deleteAt(seed, i), why: `the "${seed[i]}" after ${name} missing` })
      edits.push({ value: insertAt(seed, i, seed[i] as string), why: `the "${seed[i]}" after ${name} doubled` })
    }
    group++
    start = i + 1
  }
  return edits
}

const POSITION_NAMES = ['first', 'middle', 'last']

/** Each of `strangers` (characters outside the pattern's class) put in place of one character, the first, middle and last in turn. */
export function characterClassEdits(seed: string, strangers: readonly { ch: string; what: string }[], positions = [0, middle(seed), seed.length - 1]): NearMiss[] {
  return strangers.map(({ ch, what }, k) => {
    const turn = k % positions.length
    return { value: replaceAt(seed, positions[turn] as number, ch), why: `${what} as the ${POSITION_NAMES[turn]} character` }
  })
}

/** Drops repeated values (the first label is kept) and the seed itself. */
export function distinct(seed: string | readonly string[], cases: readonly NearMiss[]): NearMiss[] {
  const seen = new Set<string>(typeof seed === 'string' ? [seed] : seed)
  const kept: NearMiss[] = []
  for (const c of cases) {
    if (seen.has(c.value)) continue
    seen.add(c.value)
    kept.push(c)
  }
  return kept
}

export function requireValid(seed: string, isValid: (s: string) => boolean, what: string): void {
  if (!isValid(seed)) throw new Error(`near misses of ${what}: the seed "${seed}" is not valid`)
}

// Characters outside [a-zA-Z0-9] that a loose check may let through: Unicode digits and letters
// (\d and \w in a language whose classes are Unicode-aware, a locale-aware isalnum or isdigit,
// Python's str.isdigit taking "²"), the Kelvin sign that a case-insensitive Unicode match folds to
// "k", a digit outside the Basic Multilingual Plane (two UTF-16 units), path-safe punctuation, a space.
export const NOT_ALPHANUMERIC = [
  { ch: '-', what: 'a hyphen' },
  { ch: 'é', what: 'a non-ASCII letter' },
  { ch: '٣', what: 'an Arabic-Indic digit' },
  { ch: '_', what: 'an underscore' },
  { ch: ' ', what: 'a space' },
  { ch: '.', what: 'a point' },
  { ch: '３', what: 'a full-width digit' },
  { ch: 'Ａ', what: 'a full-width letter' },
  { ch: '३', what: 'a Devanagari digit' },
  { ch: '\u212A', what: 'the Kelvin sign (case-folds to k)' },
  { ch: '𝟑', what: 'a mathematical bold digit (outside the BMP)' },
  { ch: '²', what: 'a superscript two' },
]
export const NOT_DIGIT = [
  { ch: 'A', what: 'a letter' },
  { ch: '٣', what: 'an Arabic-Indic digit' },
  { ch: '３', what: 'a full-width digit' },
  { ch: '३', what: 'a Devanagari digit' },
  { ch: '²', what: 'a superscript two' },
  { ch: '𝟑', what: 'a mathematical bold digit (outside the BMP)' },
]
export const NOT_HEX = [
  { ch: 'g', what: 'a letter beyond f' },
  { ch: '٣', what: 'an Arabic-Indic digit' },
  { ch: 'G', what: 'a capital letter beyond F' },
  { ch: '３', what: 'a full-width digit' },
  { ch: 'Ａ', what: 'a full-width capital A' },
]
