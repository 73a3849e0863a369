// A memo of recurring short texts (header values, curl words): computed once, and all of it
// forgotten once it holds MAX_ENTRIES, so a long run cannot grow it without bound.

const MAX_ENTRIES = 1000
/** Longer texts (bodies) rarely recur and would make the memo large: they are computed each time. */
const MAX_KEY_LENGTH = 512

export function remembered<V>(memo: Map<string, V>, key: string, compute: (key: string) => V): V {
  const known = memo.get(key)
  if (known !== undefined) return known
  const value = compute(key)
  if (key.length <= MAX_KEY_LENGTH) {
    if (memo.size >= MAX_ENTRIES) memo.clear()
    memo.set(key, value)
  }
  return value
}
