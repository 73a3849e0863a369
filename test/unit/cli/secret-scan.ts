// Asserts that a text holds no secret value, in any spelling a report or log could use.
import { expect } from 'vitest'

/** Every way a secret could be spelled in a file: as is, JSON-escaped, URL-encoded, HTML-escaped, and each base64 line of a PEM. */
function forbiddenSpellings(value: string): string[] {
  const pemLines = value.split('\n').filter((l) => l.length >= 16 && !l.startsWith('-----'))
  const json = JSON.stringify(value).slice(1, -1)
  return [value, json, encodeURIComponent(value), json.replace(/</g, '\\u003c'), ...pemLines]
}

export function expectNoSecret(text: string, where: string, secrets: string[]): void {
  for (const secret of secrets) {
    for (const spelling of forbiddenSpellings(secret)) {
      expect(text.includes(spelling), `${where} contains a secret («${spelling.slice(0, 6)}…»)`).toBe(false)
    }
  }
}

