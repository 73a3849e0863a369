import { generateKeyPairSync } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { CertificateError, canonicalJson, makeCertificate, verifyCertificate, verifyText, type Certificate } from '../../../cli/reporting/certificate.ts'
import { buildResults } from '../../../cli/reporting/results.ts'
import type { Results } from '../../../cli/reporting/types.ts'
import { applyWaivers, parseWaivers } from '../../../cli/reporting/waivers.ts'
import { CLAUSES, check, runInfo } from './fixtures.ts'

const EXCHANGE = { request: { method: 'POST', url: 'http://127.0.0.1:4000/oauth/token', headers: { authorization: 'Basic «redacted:PIX_CLIENT_SECRET»' } }, response: { status: 200, json: { token_type: 'Bearer' } } }

function results(): Results {
  const r = buildResults(runInfo(), [
    check({ id: 'auth/tokens::type', clauses: ['4.2.token-type'], exchanges: [EXCHANGE] }),
    check({ id: 'auth/tokens::expiry', clauses: ['4.2.expires-default'], status: 'failed', failedClause: '4.2.expires-default', message: '4.2.expires-default — …\nexpected 3600, got 60', exchanges: [{ ...EXCHANGE, response: { status: 200, json: { expires_in: 60 } } }] }),
  ], CLAUSES)
  return applyWaivers(r, parseWaivers('waivers:\n  - { clause: 4.2.expires-default, reason: known, owner: team, expires: 2099-01-01 }\n', 'w.yaml', CLAUSES.map((c) => c.id)), '2026-11-24')
}

/** A run folder with results.json, a specs folder, and a certificate signed by a throwaway key. */
function setUp() {
  const dir = mkdtempSync(join(tmpdir(), 'pix-cert-'))
  const runDir = join(dir, 'run')
  const specsDir = join(dir, 'specs')
  mkdirSync(runDir)
  mkdirSync(join(specsDir, 'sub'), { recursive: true })
  writeFileSync(join(specsDir, 'clauses.yaml'), 'clauses: []\n')
  writeFileSync(join(specsDir, 'sub', 'x.yaml'), 'x: 1\n')
  const r = results()
  writeFileSync(join(runDir, 'results.json'), JSON.stringify(r, null, 2))
  const made = makeCertificate(r, { interfaceText: '# The interface\n', specsDir, runDir })
  const file = join(dir, 'certificate.json')
  writeFileSync(file, made.text)
  return { dir, runDir, specsDir, file, made }
}

/** Writes a changed copy of the certificate and verifies it. */
function tampered(file: string, change: (c: Certificate) => void, options: Parameters<typeof verifyCertificate>[1] = {}) {
  const c = JSON.parse(readFileSync(file, 'utf8')) as Certificate
  change(c)
  const out = file.replace(/\.json$/, `-${Math.random().toString(36).slice(2)}.json`)
  writeFileSync(out, JSON.stringify(c))
  return verifyCertificate(out, options)
}

describe('canonicalJson', () => {
  test('sorts keys at every level and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: undefined, x: 'é' }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"x":"é","z":1}]},"b":1}')
  })
})

describe('makeCertificate', () => {
  test('states the run, its fingerprints, verdicts, waivers and evidence digests', () => {
    const { made } = setUp()
    const c = made.certificate
    expect(c).toMatchObject({
      format: 'pix-conformance-certificate/1',
      kitVersion: '0.1.0',
      runId: '20261121-190000-abcd',
      target: { baseUrl: 'http://127.0.0.1:4000' },
      profile: 'sandbox',
      seed: 42,
      result: { result: 'CONDITIONAL PASS' },
      clauses: { '4.2.token-type': 'passed', '4.2.expires-default': 'failed', '2.3.gross': 'uncovered' },
      waivers: [{ clause: '4.2.expires-default', owner: 'team', checks: ['auth/tokens::expiry'] }],
    })
    expect(Object.keys(c.specs)).toEqual(['clauses.yaml', 'sub/x.yaml'])
    expect(c.interfaceSha256).toMatch(/^[0-9a-f]{64}$/)
    expect(c.checks['auth/tokens::type']!.evidenceSha256).toMatch(/^[0-9a-f]{64}$/)
    expect(made.throwawayKey).toBe(true)
    expect(made.publicKeyPem).toMatch(/BEGIN PUBLIC KEY/)
    expect(made.text).not.toMatch(/PRIVATE KEY/)
    expect(made.text).not.toContain('expires_in') // digests, not evidence
  })

  test('signs with a configured key, and refuses a key that is not Ed25519', () => {
    const { dir, specsDir, runDir } = setUp()
    const { privateKey, publicKey } = generateKeyPairSync('ed25519')
    const keyFile = join(dir, 'signing.pem')
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }))
    const made = makeCertificate(results(), { specsDir, runDir, keyFile })
    expect(made.throwawayKey).toBe(false)
    const file = join(dir, 'configured.json')
    writeFileSync(file, made.text)
    const pub = publicKey.export({ type: 'spki', format: 'pem' }).toString()
    expect(verifyCertificate(file, { key: pub }).ok).toBe(true)
    const rsa = join(dir, 'rsa.pem')
    writeFileSync(rsa, generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }))
    expect(() => makeCertificate(results(), { specsDir, keyFile: rsa })).toThrow(CertificateError)
    expect(() => makeCertificate(results(), { specsDir, keyFile: join(dir, 'missing.pem') })).toThrow(/missing\.pem/)
  })
})

describe('verifyCertificate', () => {
  test('an untouched certificate verifies, alone, against its key, its results folder and its specs', () => {
    const { file, runDir, specsDir, made } = setUp()
    const outcome = verifyCertificate(file, { key: made.publicKeyPem, resultsDir: runDir, specsDir })
    expect(outcome.problems).toEqual([])
    expect(outcome.ok).toBe(true)
    expect(outcome.signer).toMatchObject({ pinned: true })
    expect(verifyText(file, outcome)).toMatch(/CONDITIONAL PASS[\s\S]*waiver: {5}4\.2\.expires-default[\s\S]*VERIFIED$/)
    expect(verifyCertificate(file).ok).toBe(true)
  })

  test.each<[string, (c: Certificate) => void]>([
    ['a clause verdict', (c) => void (c.clauses['4.2.expires-default'] = 'passed')],
    ['a check verdict', (c) => void (c.checks['auth/tokens::expiry']!.verdict = 'passed')],
    ['an evidence digest', (c) => void (c.checks['auth/tokens::type']!.evidenceSha256 = '0'.repeat(64))],
    ['the target URL', (c) => void (c.target.baseUrl = 'https://pix.example.com')],
    ['the run result', (c) => void (c.result.result = 'PASSED')],
    ['a waiver', (c) => void (c.waivers = [])],
    ['a spec fingerprint', (c) => void (c.specs['clauses.yaml'] = '0'.repeat(64))],
    ['the signature', (c) => void (c.signature.value = Buffer.from('x'.repeat(64)).toString('base64'))],
  ])('changing %s is detected by the signature', (_, change) => {
    const { file } = setUp()
    const outcome = tampered(file, change)
    expect(outcome.ok).toBe(false)
    expect(outcome.problems.join('\n')).toMatch(/signature does not match/)
  })

  test('a certificate re-signed with another key passes alone but not against the pinned key', () => {
    const { file, made, dir, specsDir, runDir } = setUp()
    const forged = makeCertificate(results(), { specsDir, runDir })
    const forgedFile = join(dir, 'forged.json')
    writeFileSync(forgedFile, forged.text)
    expect(verifyCertificate(forgedFile).ok).toBe(true)
    const pinned = verifyCertificate(forgedFile, { key: made.publicKeyPem })
    expect(pinned.ok).toBe(false)
    expect(pinned.problems.join('\n')).toMatch(/not the given key/)
    expect(verifyCertificate(file, { key: join(dir, 'nope.pem') }).problems.join('\n')).toMatch(/--key: not a public key PEM/)
  })

  test('results.json whose evidence or verdict was edited is detected, naming the check', () => {
    const { file, runDir } = setUp()
    const r = JSON.parse(readFileSync(join(runDir, 'results.json'), 'utf8')) as Results
    r.checks[0]!.exchanges![0]!.response!.status = 201
    writeFileSync(join(runDir, 'results.json'), JSON.stringify(r))
    const edited = verifyCertificate(file, { resultsDir: runDir })
    expect(edited.ok).toBe(false)
    expect(edited.problems).toEqual(['check auth/tokens::type: its evidence in results.json does not match the certificate\'s digest'])
    r.checks[0]!.status = 'failed'
    r.clauses.find((c) => c.id === '4.2.token-type')!.status = 'failed'
    writeFileSync(join(runDir, 'results.json'), JSON.stringify(r))
    const problems = verifyCertificate(file, { resultsDir: runDir }).problems.join('\n')
    expect(problems).toMatch(/check auth\/tokens::type: the certificate says passed, results.json says failed/)
    expect(problems).toMatch(/clause 4\.2\.token-type: the certificate says "passed", found "failed"/)
  })

  test('changed specs are detected against a specs folder', () => {
    const { file, specsDir } = setUp()
    writeFileSync(join(specsDir, 'clauses.yaml'), 'clauses: [changed]\n')
    expect(verifyCertificate(file, { specsDir }).problems).toEqual([expect.stringMatching(/specs file clauses\.yaml/)])
  })

  test('a file that is not a certificate', () => {
    const { dir } = setUp()
    writeFileSync(join(dir, 'x.json'), '{"hello":1}')
    expect(verifyCertificate(join(dir, 'x.json'))).toMatchObject({ ok: false, problems: [expect.stringMatching(/not a pix-conformance-certificate\/1 file/)] })
  })
})
