// JSON as RFC 8259 writes it, judged on the text a decoder would read (issue 40 item 5). JSON.parse
// already refuses a byte order mark (§8.1: a sender MUST NOT add one), whitespace other than space,
// tab, LF and CR, content after the value, NaN, Infinity and single quotes; it quietly keeps the last
// of two members with the same name, which §4 says SHOULD be unique: such a body is still JSON, so it
// is no failure of a JSON rule; duplicateNames lets a check observe it.
// A decoder of the kit may read leniently to find a record; these are what a conventions clause uses.

/** Why `text` is not one JSON value as RFC 8259 writes it, or undefined when it is. */
export function strictJsonProblem(text: string): string | undefined {
  if (text.charCodeAt(0) === 0xfeff) return 'the body starts with a byte order mark (RFC 8259 §8.1)'
  try {
    JSON.parse(text)
  } catch (err) {
    return `not JSON (RFC 8259): ${(err as Error).message}`
  }
  return undefined
}

/** The member names that occur twice in one object of the JSON text (which must parse). */
export function duplicateNames(text: string): string[] {
  const found = new Set<string>()
  const stack: (Set<string> | null)[] = [] // a Set per open object, null per open array
  let i = 0
  while (i < text.length) {
    const ch = text[i]!
    if (ch === '{') stack.push(new Set())
    else if (ch === '[') stack.push(null)
    else if (ch === '}' || ch === ']') stack.pop()
    else if (ch === '"') {
      let j = i + 1
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1
      const literal = text.slice(i, j + 1)
      let k = j + 1
      while (/[ \t\n\r]/.test(text[k] ?? '')) k += 1
      const names = stack[stack.length - 1]
      if (text[k] === ':' && names) {
        const name = JSON.parse(literal) as string
        if (names.has(name)) found.add(name)
        names.add(name)
      }
      i = j + 1
      continue
    }
    i += 1
  }
  return [...found]
}

/** The conventions' Content-Type: application/json, a charset parameter allowed (a reading the interface leaves open); not text/json nor another +json type. */
export const JSON_CONTENT_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?[A-Za-z0-9._-]+"?\s*)?$/i

export const isJsonContentType = (value: string | undefined): boolean => value !== undefined && JSON_CONTENT_TYPE.test(value.trim())
