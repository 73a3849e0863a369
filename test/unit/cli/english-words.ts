// A small detector of English left in a Portuguese text: function words English sentences cannot
// do without, looked for outside what is a value (URLs, paths and file names, flags, PIX_* and
// other settings, clause and check ids, quoted and code spans, HTTP methods with their routes).
// None of these words is a Portuguese word ("no", "a", "as", "do", "for" are, and are not listed), so a
// hit is English the kit wrote.

const ENGLISH = ['the', 'is', 'was', 'not', 'expected', 'got', 'should', 'with', 'when', 'which', 'of', 'and', 'are', 'to', 'this', 'that', 'from', 'has', 'have', 'its', 'it', 'by', 'each', 'every', 'only', 'than', 'after', 'before', 'run', 'runs', 'checks', 'failed', 'passed', 'skipped', 'blocked', 'none', 'or', 'at', 'on', 'in', 'be', 'will', 'cannot', 'answered', 'answers']

const VALUE_PATTERNS: RegExp[] = [
  /\bhttps?:\/\/\S+/g,                        // URLs
  /\bnpm (?:run|ci|test) ?[\w:-]*/g,           // commands
  /`[^`]*`/g,                                 // code spans
  /"[^"]*"/g,                                 // quoted values
  /(?<![\w-])--?[a-z][\w-]*(?:[= ][A-Z][A-Z_.]*)?/g,  // flags and their metavars
  /\bPIX_[A-Z0-9_]+\b/g,                      // settings
  /\b[A-Z][A-Z0-9_]{2,}\b/g,                  // words in capitals: statuses, metavars, event kinds
  /(?:[\w.<>{}-]+)?\/[\w./<>{}:*-]*/g,        // paths, routes, file names with a folder
  /\b[\w-]+\.(?:ts|js|json|yaml|yml|html|xml|har|db|md|env|pem|mjs)\b/g,  // file names
  /\b(?:[0-9]+|R)\.[\w.-]+\b/g,               // clause ids (4.10.txid-length, R.ack-200)
  /\b[\w-]+::[^\s,)]+/g,                      // check ids
]

/** The text with its values blanked, so that what is left is the kit's prose. */
export function proseOf(text: string, values: readonly string[] = []): string {
  // eslint-disable-next-line no-control-regex
  let out = text.replace(/\u001b\[[0-9;]*m/g, '')
  for (const v of values) out = out.split(v).join(' ')
  for (const p of VALUE_PATTERNS) out = out.replace(p, ' ')
  return out
}

/**
 * The lines of `text` that hold an English function word outside its values, each with the words
 * found: [] when the text reads as Portuguese. `values` are further strings to ignore (names a
 * fixture gave, a check's own English message).
 */
export function englishLines(text: string, values: readonly string[] = []): { line: string; words: string[] }[] {
  const found: { line: string; words: string[] }[] = []
  for (const line of text.split('\n')) {
    // a token joined to digits or hyphens (run-3, x-vendor) is an id, not a word
    const words = proseOf(line, values).toLowerCase().split(/[\s,;:()[\]{}·…!?.«»"'“”—–=+*|<>]+/).filter((w) => /^[a-zà-ÿ]+$/.test(w))
    const english = words.filter((w) => ENGLISH.includes(w))
    if (english.length > 0) found.push({ line: line.trim(), words: [...new Set(english)] })
  }
  return found
}
