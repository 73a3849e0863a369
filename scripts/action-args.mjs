// The `args` input of action.yml as words (scripts/action-run.mjs): its quoting rule, tested by
// test/package/action.test.ts.

/**
 * The `args` input as words, as a POSIX shell splits them without expanding anything: spaces and
 * newlines separate words (so a YAML block `args: |` may put one flag and its value per line);
 * '…' keeps everything inside as it is; "…" keeps it too, except that \" and \\ are a quote and a
 * backslash; outside quotes a backslash keeps the next character. A --check title with spaces:
 * `--check 'auth/tokens::oauth token: token_type is Bearer'`. No $VAR, no globs: a value that
 * needs the environment goes in the workflow's own ${{ }} expression.
 */
export function splitArgs(text) {
  const words = []
  let word = null
  let quote = null
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (quote === "'") {
      if (c === "'") quote = null
      else word += c
    } else if (quote === '"') {
      if (c === '"') quote = null
      else if (c === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) word += text[++i]
      else word += c
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word)
      word = null
    } else if (c === "'" || c === '"') {
      quote = c
      word ??= ''
    } else if (c === '\\' && i + 1 < text.length) {
      word = (word ?? '') + text[++i]
    } else {
      word = (word ?? '') + c
    }
  }
  if (quote) throw new Error(`args: a ${quote} quote is not closed: ${text}`)
  if (word !== null) words.push(word)
  return words
}
