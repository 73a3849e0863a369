// The needs a check may declare (harness/needs.ts judges them), in a module of their own: the CLI
// names them (--tag, --list) without loading vitest, which harness/needs.ts imports.
export type Need = 'control' | 'webhooks' | 'mutating' | 'otherAccount' | 'limitedKey' | 'certs' | 'otherAccountCert' | 'unlinkedCert' | 'reset'

export const NEEDS: readonly Need[] = ['control', 'webhooks', 'mutating', 'otherAccount', 'limitedKey', 'certs', 'otherAccountCert', 'unlinkedCert', 'reset']
