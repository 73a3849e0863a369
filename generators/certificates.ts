// Test certificates for the kit (interface §5.1: the certificate-backed token identifies the
// caller by the SHA-256 fingerprint of a PEM certificate sent URL-encoded in X-SSL-Client-Cert).
// Also the CA and server leaf of the webhook capture server. ECDSA P-256, made with @peculiar/x509
// because node:crypto can parse certificates but not create them.
import 'reflect-metadata'
import * as x509 from '@peculiar/x509'
import { createPrivateKey, KeyObject, webcrypto, X509Certificate as NodeX509Certificate } from 'node:crypto'
import { isIP } from 'node:net'

export { encodeCertHeader } from './cert-header.ts'

x509.cryptoProvider.set(webcrypto)

export interface KeyPairPem { certPem: string; keyPem: string }

export interface LeafOptions {
  cn: string
  usage: 'server' | 'client'
  /** DNS names and IP addresses for the subjectAltName; a server leaf defaults to its CN. */
  hosts?: string[]
  notBefore?: Date
  notAfter?: Date
}

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const
const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS
/** Backdated so a peer whose clock is slightly behind still accepts a fresh certificate. */
const BACKDATE_MS = HOUR_MS
/** Long lives: the reference's simulated clock may be advanced by months during a run. */
const CA_LIFETIME_MS = 10 * 365 * DAY_MS
const LEAF_LIFETIME_MS = 5 * 365 * DAY_MS

export async function createCa(cn = 'PIX Conformance Kit Test CA'): Promise<KeyPairPem & { cert: x509.X509Certificate }> {
  return selfSigned(cn, CA_LIFETIME_MS, [
    new x509.BasicConstraintsExtension(true, 0, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
  ])
}

/** A leaf signed by `ca`; only the CA's PEMs are needed, so a CA read back from files works too. */
export async function createLeaf(ca: KeyPairPem, opts: LeafOptions): Promise<KeyPairPem> {
  const caCert = new x509.X509Certificate(ca.certPem)
  const caKey = await importPrivateKey(ca.keyPem)
  const keys = await generateKeys()
  const defaults = validity(LEAF_LIFETIME_MS)
  const hosts = opts.hosts ?? (opts.usage === 'server' ? [opts.cn] : [])
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.ExtendedKeyUsageExtension([opts.usage === 'server' ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth]),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    await x509.AuthorityKeyIdentifierExtension.create(caCert),
  ]
  if (hosts.length > 0) extensions.push(subjectAltName(hosts))
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject: distinguishedName(opts.cn),
    issuer: caCert.subject,
    notBefore: opts.notBefore ?? defaults.notBefore,
    notAfter: opts.notAfter ?? defaults.notAfter,
    signingKey: caKey,
    publicKey: keys.publicKey,
    signingAlgorithm: ALGORITHM,
    extensions,
  })
  return { certPem: cert.toString('pem'), keyPem: privateKeyPem(keys.privateKey) }
}

/** A self-signed end-entity certificate (no CA behind it): a valid PEM that no account links to. */
export async function createSelfSigned(cn: string): Promise<KeyPairPem> {
  const { certPem, keyPem } = await selfSigned(cn, LEAF_LIFETIME_MS, [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth, x509.ExtendedKeyUsage.serverAuth]),
  ])
  return { certPem, keyPem }
}

/** A fresh key pair and a certificate it signs itself, with the given extensions and a key identifier. */
async function selfSigned(cn: string, lifetimeMs: number, extensions: x509.Extension[]): Promise<KeyPairPem & { cert: x509.X509Certificate }> {
  const keys = await generateKeys()
  const { notBefore, notAfter } = validity(lifetimeMs)
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: distinguishedName(cn),
    notBefore,
    notAfter,
    keys,
    signingAlgorithm: ALGORITHM,
    extensions: [...extensions, await x509.SubjectKeyIdentifierExtension.create(keys.publicKey)],
  })
  return { cert, certPem: cert.toString('pem'), keyPem: privateKeyPem(keys.privateKey) }
}

/** 'AB:CD:…', exactly as node:crypto's X509Certificate gives it; throws on anything but a certificate PEM. */
export function fingerprint256(pem: string): string {
  return new NodeX509Certificate(pem).fingerprint256
}

function generateKeys(): Promise<webcrypto.CryptoKeyPair> {
  return webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])
}

async function importPrivateKey(keyPem: string): Promise<webcrypto.CryptoKey> {
  const der = createPrivateKey(keyPem).export({ type: 'pkcs8', format: 'der' })
  return webcrypto.subtle.importKey('pkcs8', der, ALGORITHM, false, ['sign'])
}

function privateKeyPem(key: webcrypto.CryptoKey): string {
  return KeyObject.from(key).export({ type: 'pkcs8', format: 'pem' }).toString()
}

/** 16 random bytes, high bit clear (a positive INTEGER) and first byte non-zero (minimal DER). */
function randomSerial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16))
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) || 0x01
  return Buffer.from(bytes).toString('hex')
}

function validity(lifetimeMs: number): { notBefore: Date; notAfter: Date } {
  const now = Date.now()
  return { notBefore: new Date(now - BACKDATE_MS), notAfter: new Date(now + lifetimeMs) }
}

/** Built as JSON so a CN with commas or equals signs cannot inject extra RDNs. */
function distinguishedName(cn: string): x509.JsonName {
  return [{ CN: [cn] }]
}

function subjectAltName(hosts: string[]): x509.SubjectAlternativeNameExtension {
  return new x509.SubjectAlternativeNameExtension(
    hosts.map((h) => (isIP(h) ? { type: 'ip' as const, value: h } : { type: 'dns' as const, value: h })),
  )
}
