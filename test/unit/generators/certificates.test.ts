import { createHash, createPrivateKey, X509Certificate } from 'node:crypto'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createCa,
  createLeaf,
  createSelfSigned,
  encodeCertHeader,
  fingerprint256,
  type KeyPairPem,
} from '../../../generators/certificates.ts'

const SERVER_AUTH = '1.3.6.1.5.5.7.3.1'
const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2'

let ca: Awaited<ReturnType<typeof createCa>>
let server: KeyPairPem
let client: KeyPairPem

beforeAll(async () => {
  ca = await createCa('Kit Test CA')
  server = await createLeaf(ca, { cn: 'localhost', usage: 'server', hosts: ['localhost', '127.0.0.1'] })
  client = await createLeaf(ca, { cn: 'client-a', usage: 'client' })
})

describe('createCa', () => {
  it('is a self-issued CA certificate with a PKCS#8 EC key', () => {
    const c = new X509Certificate(ca.certPem)
    expect(c.ca).toBe(true)
    expect(c.subject).toBe('CN=Kit Test CA')
    expect(c.checkIssued(c)).toBe(true)
    expect(c.verify(c.publicKey)).toBe(true)
    expect(ca.keyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/)
    const key = createPrivateKey(ca.keyPem)
    expect(key.asymmetricKeyType).toBe('ec')
    expect(key.asymmetricKeyDetails?.namedCurve).toBe('prime256v1')
    expect(ca.cert.subject).toBe('CN=Kit Test CA')
  })

  it('has a default name', async () => {
    expect(new X509Certificate((await createCa()).certPem).subject).toMatch(/^CN=.+/)
  })
})

describe('createLeaf', () => {
  it('makes a server leaf that its CA issued and signed, with serverAuth and the SANs', () => {
    const leaf = new X509Certificate(server.certPem)
    const caCert = new X509Certificate(ca.certPem)
    expect(leaf.ca).toBe(false)
    expect(leaf.checkIssued(caCert)).toBe(true)
    expect(leaf.verify(caCert.publicKey)).toBe(true)
    expect(leaf.keyUsage).toEqual([SERVER_AUTH])
    expect(leaf.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1')
    expect(leaf.checkHost('localhost')).toBe('localhost')
    expect(leaf.checkIP('127.0.0.1')).toBe('127.0.0.1')
    expect(leaf.checkPrivateKey(createPrivateKey(server.keyPem))).toBe(true)
  })

  it('makes a client leaf with clientAuth and no SAN unless asked', () => {
    const leaf = new X509Certificate(client.certPem)
    expect(leaf.checkIssued(new X509Certificate(ca.certPem))).toBe(true)
    expect(leaf.keyUsage).toEqual([CLIENT_AUTH])
    expect(leaf.subjectAltName).toBeUndefined()
    expect(leaf.subject).toBe('CN=client-a')
  })

  it('defaults a server leaf SAN to its CN, and honours the validity dates', async () => {
    const notBefore = new Date('2030-01-01T00:00:00Z')
    const notAfter = new Date('2031-01-01T00:00:00Z')
    const leaf = new X509Certificate((await createLeaf(ca, { cn: 'svc.test', usage: 'server', notBefore, notAfter })).certPem)
    expect(leaf.subjectAltName).toBe('DNS:svc.test')
    expect(new Date(leaf.validFrom).toISOString()).toBe(notBefore.toISOString())
    expect(new Date(leaf.validTo).toISOString()).toBe(notAfter.toISOString())
  })

  it('gives every certificate a positive 16-byte serial, different each time', async () => {
    const serials = [ca.certPem, server.certPem, client.certPem].map((p) => new X509Certificate(p).serialNumber)
    for (const s of serials) {
      expect(s).toMatch(/^[0-9A-F]{32}$/)
      expect(parseInt(s.slice(0, 2), 16)).toBeLessThan(0x80)
    }
    expect(new Set(serials).size).toBe(3)
  })

  it('does not let a CN add name parts', async () => {
    const leaf = await createLeaf(ca, { cn: 'evil, O=Other', usage: 'client' })
    // one CN whose value holds the comma (escaped by node), not a CN plus an O
    expect(new X509Certificate(leaf.certPem).subject).toBe('CN=evil\\, O=Other')
  })
})

describe('createSelfSigned', () => {
  it('is valid PEM, issued by itself, not a CA, and unrelated to the kit CA', async () => {
    const s = await createSelfSigned('stranger')
    const c = new X509Certificate(s.certPem)
    expect(c.ca).toBe(false)
    expect(c.issuer).toBe(c.subject)
    expect(c.verify(c.publicKey)).toBe(true)
    expect(c.verify(new X509Certificate(ca.certPem).publicKey)).toBe(false)
    expect(c.checkPrivateKey(createPrivateKey(s.keyPem))).toBe(true)
  })
})

describe('fingerprint256 and encodeCertHeader', () => {
  it('matches node:crypto and the SHA-256 of the DER', () => {
    for (const pem of [ca.certPem, server.certPem, client.certPem]) {
      const node = new X509Certificate(pem)
      expect(fingerprint256(pem)).toBe(node.fingerprint256)
      expect(fingerprint256(pem)).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/)
      const hex = createHash('sha256').update(node.raw).digest('hex').toUpperCase()
      expect(fingerprint256(pem).replaceAll(':', '')).toBe(hex)
    }
  })

  it('throws on something that is not a certificate', () => {
    expect(() => fingerprint256('not a pem')).toThrow()
  })

  it('URL-encodes the PEM so it round-trips through a header', () => {
    const h = encodeCertHeader(client.certPem)
    expect(h).not.toMatch(/[\n\r =+/]/)
    expect(h.startsWith('-----BEGIN%20CERTIFICATE-----%0A')).toBe(true)
    expect(decodeURIComponent(h)).toBe(client.certPem)
  })
})

describe('TLS with the generated certificates', () => {
  let https: Server
  let origin: string
  beforeAll(async () => {
    https = createServer({ key: server.keyPem, cert: server.certPem, ca: [ca.certPem], requestCert: true, rejectUnauthorized: false },
      (req, res) => {
        const peer = (req.socket as import('node:tls').TLSSocket).getPeerCertificate()
        res.end(JSON.stringify({ peerFingerprint: peer.fingerprint256 ?? null }))
      })
    await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve))
    origin = `https://127.0.0.1:${(https.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => https.close(() => resolve())))

  it('is reachable by undici trusting the CA, and shows the client certificate fingerprint', async () => {
    const agent = new Agent({ connect: { ca: [ca.certPem], cert: client.certPem, key: client.keyPem } })
    try {
      const res = await request(`${origin}/`, { dispatcher: agent, signal: AbortSignal.timeout(5_000) })
      expect(res.statusCode).toBe(200)
      expect(await res.body.json()).toEqual({ peerFingerprint: fingerprint256(client.certPem) })
    } finally {
      await agent.close()
    }
  })

  it('is refused without the CA', async () => {
    const agent = new Agent()
    try {
      await expect(request(`${origin}/`, { dispatcher: agent, signal: AbortSignal.timeout(5_000) }))
        .rejects.toThrow(/self[- ]signed|unable to verify|certificate/i)
    } finally {
      await agent.close()
    }
  })

  it('is refused when trusting a different CA', async () => {
    const other = await createCa('Other CA')
    const agent = new Agent({ connect: { ca: [other.certPem] } })
    try {
      await expect(request(`${origin}/`, { dispatcher: agent, signal: AbortSignal.timeout(5_000) })).rejects.toThrow()
    } finally {
      await agent.close()
    }
  })
})
