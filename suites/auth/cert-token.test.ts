// Certificate-backed token failures (interface §4.1, §5.1, §7 "Token (certificate)"): the header
// absent or malformed is 400; wrong credentials or an unknown certificate is 401; a registered
// certificate that is unlinked or linked to another account is 403. Every refusal carries the §7
// error body and no token.
import { createSelfSigned } from '../../generators/certificates.ts'
import { ERROR_BODY_CLAUSES as ERROR_BODY } from '../../harness/assertions.ts'
import { check } from '../../harness/check.ts'
import { readCertificate } from '../../harness/config.ts'
import { expectCertTokenRefusal as expectRefusal } from './fixtures.ts'

check('certificate token without the X-SSL-Client-Cert header answers 400', {
  clauses: ['7.cert-token-header-absent-400', ...ERROR_BODY],
}, async (t) => {
  expectRefusal(t, '7.cert-token-header-absent-400', await t.certToken.issue({ certPem: null }), 400, 'header absent')
  // with transport mTLS the TLS front sets the header: an empty one cannot be sent
  if (t.config.certMode === 'header') expectRefusal(t, '7.cert-token-header-absent-400', await t.certToken.issue({ header: '' }), 400, 'header empty')
})

check('certificate token with an X-SSL-Client-Cert that is not a URL-encoded PEM certificate answers 400', {
  clauses: ['7.cert-token-header-malformed-400', ...ERROR_BODY],
  needs: ['certs'],
}, async (t) => {
  const pem = readCertificate(t.config.certFile as string)
  const malformed: [string, string][] = [
    ['plain text', 'not-a-certificate'],
    ['broken URL encoding', '%E0%A4%A-----BEGIN%20CERTIFICATE'],
    ['PEM armour around garbage', encodeURIComponent('-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n')],
    ['corrupted certificate body', encodeURIComponent(corruptedPem(pem))],
  ]
  for (const [what, header] of malformed) expectRefusal(t, '7.cert-token-header-malformed-400', await t.certToken.issue({ header }), 400, `malformed header: ${what}`)
})

check('certificate token with the linked certificate but wrong credentials answers 401', {
  clauses: ['7.cert-token-bad-credentials-401', ...ERROR_BODY],
  needs: ['certs'],
}, async (t) => {
  const wrongSecret = { clientId: t.config.clientId, clientSecret: 'kit-wrong-secret-0123456789' }
  const unknownClient = { clientId: `kit-unknown-client-${Date.now()}`, clientSecret: 'kit-unknown-secret' }
  expectRefusal(t, '7.cert-token-bad-credentials-401', await t.certToken.issue({ body: wrongSecret }), 401, 'wrong clientSecret')
  expectRefusal(t, '7.cert-token-bad-credentials-401', await t.certToken.issue({ body: unknownClient }), 401, 'unknown clientId')
})

// Reading cert-unregistered-status (docs/READINGS.md): a certificate never registered is an invalid
// certificate (§7 401) and one linked to no account (§7 403) alike; either passes, the choice is observed.
check('certificate token with a well-formed certificate whose fingerprint is not registered answers 401 or 403', {
  clauses: ['7.cert-token-bad-certificate-401', ...ERROR_BODY],
}, async (t) => {
  const stranger = await createSelfSigned(`kit-unregistered-${Date.now()}`)
  const ex = await t.certToken.issue({ certPem: stranger.certPem, keyPem: stranger.keyPem })
  t.expectStatus('7.cert-token-bad-certificate-401', ex, [401, 403])
  expectRefusal(t, '7.cert-token-bad-certificate-401', ex, ex.response.status, 'unregistered certificate')
  t.observe('7.cert-token-bad-certificate-401', 'status', ex.response.status)
})

check('certificate token with a registered certificate linked to no account answers 403', {
  clauses: ['7.cert-token-not-linked-403', ...ERROR_BODY],
  needs: ['unlinkedCert'],
}, async (t) => {
  const pem = readCertificate(t.config.certUnlinkedFile as string)
  expectRefusal(t, '7.cert-token-not-linked-403', await t.certToken.issue({ certPem: pem }), 403, 'unlinked certificate')
})

check("certificate token with another account's certificate answers 403", {
  clauses: ['7.cert-token-not-linked-403', ...ERROR_BODY],
  needs: ['otherAccountCert'],
}, async (t) => {
  const pem = readCertificate(t.config.certOtherAccountFile as string)
  expectRefusal(t, '7.cert-token-not-linked-403', await t.certToken.issue({ certPem: pem }), 403, "another account's certificate")
})

/** The configured certificate's PEM with characters of its base64 body replaced: still PEM-armoured, not a certificate. */
function corruptedPem(pem: string): string {
  const lines = pem.trim().split('\n')
  const middle = Math.floor(lines.length / 2)
  lines[middle] = (lines[middle] ?? '').replace(/[A-Za-z0-9+/]/g, (c) => (c === 'A' ? 'B' : 'A'))
  return lines.join('\n') + '\n'
}
