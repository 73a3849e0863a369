// Parsing specs/*.yaml takes about 300 ms a file, paid by every worker that loads the contract (a
// fault self-check starts hundreds). The parsed document is kept as JSON under the OS temp folder,
// named by a hash of the YAML text and the parse options, so an edit to the YAML is a new entry and
// a stale one can never be read. JSON holds all a spec file can (YAML 1.2 core schema: no dates).
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse, type ParseOptions, type DocumentOptions, type SchemaOptions, type ToJSOptions } from 'yaml'

type Options = ParseOptions & DocumentOptions & SchemaOptions & ToJSOptions

const CACHE_DIR = join(tmpdir(), 'pix-kit-yaml-cache')

export function parseYamlCached(text: string, options: Options = {}): unknown {
  const key = createHash('sha256').update(JSON.stringify(options)).update('\0').update(text).digest('hex')
  const file = join(CACHE_DIR, `${key}.json`)
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown
  } catch {
    // not cached yet (or unreadable): parse, then cache for the next reader
  }
  const parsed = parse(text, options) as unknown
  try {
    mkdirSync(CACHE_DIR, { recursive: true })
    const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`
    writeFileSync(partial, JSON.stringify(parsed))
    renameSync(partial, file)  // atomic: a concurrent reader sees the whole entry or none
  } catch {
    // a read-only temp folder only costs speed
  }
  return parsed
}
