// cli/reference.ts argument parsing (the start itself is covered by every other file here).
import { describe, expect, it } from 'vitest'
import { resolve } from 'node:path'
import { parseReferenceArgs } from '../../../cli/reference.ts'

describe('reference CLI arguments', () => {
  it('reads --port, --env-out, --out-dir, --host and --quiet, in both spellings', () => {
    expect(parseReferenceArgs(['--port', '8080', '--env-out=x.env', '--out-dir', 'certs', '--host', '::1', '--quiet'])).toEqual({
      port: 8080,
      envOut: resolve('x.env'),
      outDir: resolve('certs'),
      host: '::1',
      quiet: true,
    })
    expect(parseReferenceArgs([])).toEqual({})
  })

  it('reads --reading NAME=VALUE, repeated, and refuses an unknown reading or value', () => {
    expect(parseReferenceArgs(['--reading', 'unregisteredCertificate=403', '--reading=creationStatus=201'])).toEqual({ readings: { unregisteredCertificate: 403, creationStatus: 201 } })
    expect(() => parseReferenceArgs(['--reading', 'nope=1'])).toThrow(/unknown reading/)
    expect(() => parseReferenceArgs(['--reading', 'creationStatus=202'])).toThrow(/takes 200 \| 201/)
  })

  it('refuses bad ports, missing values and unknown flags with the usage', () => {
    expect(() => parseReferenceArgs(['--port', '-1'])).toThrow(/--port/)
    expect(() => parseReferenceArgs(['--port', '65534'])).toThrow(/--port/)
    expect(() => parseReferenceArgs(['--env-out'])).toThrow(/needs a value/)
    expect(() => parseReferenceArgs(['--nope'])).toThrow(/unknown option/)
  })
})
