// A word the kit does not know (a flag, a subcommand, a tag, a PIX_* setting) is named with the
// nearest it does, as --area, --file and --check name theirs: a typo is exit 2 and one line, never
// a run that silently ignores it.

/** Levenshtein distance. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    previous = row
  }
  return previous[b.length]!
}

/**
 * The known word nearest to `word` (case aside), when near enough to be the one meant: at most a
 * third of its letters changed (two at least), or one of the two begins the other.
 */
export function nearest(word: string, known: Iterable<string>): string | undefined {
  const w = word.toLowerCase()
  let best: { word: string; distance: number } | undefined
  for (const k of known) {
    const distance = editDistance(w, k.toLowerCase())
    if (!best || distance < best.distance || (distance === best.distance && k < best.word)) best = { word: k, distance }
  }
  if (!best) return undefined
  const k = best.word.toLowerCase()
  const close = best.distance <= Math.max(2, Math.floor(Math.min(w.length, k.length) / 3))
  const prefix = w.length >= 3 && (k.startsWith(w) || w.startsWith(k))
  return close || prefix ? best.word : undefined
}

/** `; did you mean X?`, or '' when nothing known is near. */
export function didYouMean(word: string, known: Iterable<string>): string {
  const near = nearest(word, known)
  return near ? `; did you mean ${near}?` : ''
}
