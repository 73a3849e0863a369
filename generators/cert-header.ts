// The X-SSL-Client-Cert encoding (interface §4.1): the PEM, URL-encoded. A module of its own so
// the harness can use it without loading the certificate toolkit.

/** URL-encoded PEM, as X-SSL-Client-Cert carries it (CONTRACTS §8 encodeCertHeader). */
export function encodeCertHeader(pem: string): string {
  return encodeURIComponent(pem)
}
