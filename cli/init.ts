// `pix-conformance init`: a commented target.env with every setting, the required ones first,
// each optional one saying which checks it enables, then the run's settings with their defaults
// (the flags' own help, from cli/flags.ts). test/unit/cli/init.test.ts holds it to what loadConfig reads.
import { existsSync, writeFileSync } from 'node:fs'
import { BALANCE_ACCOUNT_SETTINGS, MAX_BALANCE_ACCOUNTS } from '../harness/config.ts'
import { FLAGS, defaultsLines, flagHelp, flagSyntax } from './flags.ts'

const ORDINALS = ['a fourth', 'a fifth', 'a sixth', 'a seventh', 'an eighth']

interface Setting {
  name: string
  what: string
  /** What setting it enables, for optional settings. */
  enables?: string
}

/** An account's three settings: its client id (saying what it enables), secret and gateway key. */
function account(prefix: string, what: string, enables: string): Setting[] {
  return [
    { name: `${prefix}_CLIENT_ID`, what: `${what} (with ${prefix}_CLIENT_SECRET and ${prefix}_API_KEY)`, enables },
    { name: `${prefix}_CLIENT_SECRET`, what: 'its secret' },
    { name: `${prefix}_API_KEY`, what: 'its gateway key' },
  ]
}

const REQUIRED: Setting[] = [
  { name: 'PIX_BASE_URL', what: 'base of the public API (bearer family and central-bank-style paths), e.g. https://sandbox.example.com' },
  { name: 'PIX_GATEWAY_URL', what: 'base of the gateway API (x-api-key family)' },
  { name: 'PIX_CLIENT_ID', what: 'client id of the account under test (POST /oauth/token)' },
  { name: 'PIX_CLIENT_SECRET', what: 'its client secret (8 to 64 characters)' },
  { name: 'PIX_API_KEY', what: 'the gateway API key of the same account' },
]

const OPTIONAL: Setting[] = [
  { name: 'PIX_CONTROL_URL', what: 'the sandbox driver (specs/control.yaml); check it with `pix-conformance check-driver`', enables: 'the state-machine, webhook, return and refund checks, which need a payer, a bank or the clock to act' },
  { name: 'PIX_WEBHOOK_PUBLIC_URL', what: 'public HTTPS address through which the target reaches the kit\'s webhook capture server', enables: 'the webhook checks against a target that is not on this machine' },
  { name: 'PIX_WEBHOOK_LISTEN', what: 'host:port (or a port) the capture server listens on, e.g. the local end of a tunnel (default a free loopback port)' },
  { name: 'PIX_WEBHOOK_TLS_CERT_FILE', what: "the capture server's own certificate (PEM; with PIX_WEBHOOK_TLS_KEY_FILE); without it a CA of its own, or plain HTTP behind PIX_WEBHOOK_PUBLIC_URL" },
  { name: 'PIX_WEBHOOK_TLS_KEY_FILE', what: 'its private key (PEM)' },
  { name: 'PIX_WEBHOOK_CLIENT_CA_FILE', what: 'senders must present a certificate of this CA (PEM): mTLS webhooks', enables: "recording the sender's certificate with each notification" },
  { name: 'PIX_CERT_FILE', what: 'PEM of the certificate linked to the account (sent URL-encoded in X-SSL-Client-Cert)', enables: 'the certificate-token checks (POST /api/auth/token)' },
  { name: 'PIX_CERT_MODE', what: 'header (default: the kit sends X-SSL-Client-Cert itself) or transport (mutual TLS at the socket; each certificate file then holds its private key too)' },
  { name: 'PIX_TLS_CA_FILE', what: "a CA the kit trusts for the target's own TLS certificate (a sandbox with a private CA)" },
  { name: 'PIX_CERT_UNLINKED_FILE', what: 'PEM of a valid certificate linked to no account', enables: 'the unlinked-certificate refusal (403)' },
  { name: 'PIX_CERT_OTHER_ACCOUNT_FILE', what: "PEM of another account's certificate", enables: 'the other-account-certificate refusal' },
  { name: 'PIX_API_KEY_LIMITED', what: 'a gateway key lacking a permission', enables: 'the gateway 403 checks' },
  { name: 'PIX_LIMITED_CLIENT_ID', what: 'a client whose tokens lack a scope (with PIX_LIMITED_CLIENT_SECRET)', enables: 'the bearer 403 checks' },
  { name: 'PIX_LIMITED_CLIENT_SECRET', what: 'its secret' },
  ...account('PIX_OTHER', 'a second account', "the isolation checks: another account's transactions are never shown or resent"),
  ...account('PIX_BALANCE', 'an account no one else uses during the run', "the checks that read balances to the cent, or point the account's notification URLs at their own channel, run on it beside the others, not alone after them (faster on a distant target)"),
  ...account('PIX_BALANCE_2', 'a second such account', 'two of those checks at a time; and, with a driver that resets one account (--reset), the ledger model on one of them beside the others too'),
  ...account('PIX_BALANCE_3', 'a third such account', 'three of those checks at a time'),
  ...BALANCE_ACCOUNT_SETTINGS.slice(3).flatMap((prefix, i) => account(prefix, `${ORDINALS[i]} such account (up to ${MAX_BALANCE_ACCOUNTS})`, `${i + 4} of those checks at a time, and the ledger model's sequences spread over the free ones (a distant target: each adds a lane)`)),
  { name: 'PIX_BUYER_UUID', what: 'a stored buyer of the account', enables: 'the buyer read checks (§4.17)' },
  { name: 'PIX_PIX_KEY', what: 'a PIX key of the account', enables: 'the pix-key listing and the charge key bound' },
  { name: 'PIX_DELIVERY_POLICY_FILE', what: "the webhook delivery policy the vendor declares (YAML or JSON: attempts, intervalsMs, toleranceMs, endsOn200)", enables: 'holding the observed retries to the declaration (without it they are only reported)' },
  { name: 'PIX_SIGNING_KEY_FILE', what: 'Ed25519 private key (PEM) that signs --certificate files (without it, a throwaway key whose public key is printed)' },
]

/**
 * Settings the CLI writes for its own workers, never a user: a file that set them would lie to the
 * run (the preflight's findings, the embedded reference).
 */
export const INTERNAL_SETTINGS = ['PIX_EMBEDDED', 'PIX_UNAVAILABLE', 'PIX_BALANCE_ACCOUNT_RESETS'] as const

/** The settings of a run that flags stand for (cli/flags.ts FLAGS): their help and default, as --help gives them. */
function runSettings(): Setting[] {
  return FLAGS.flatMap((r) => ('env' in r && r.env ? [{ name: r.env, what: `${flagSyntax(r)}: ${flagHelp(r)}${r.kind === 'switch' ? '; 1 turns it on' : ''}` }] : []))
}

/** Every setting the template names, in its order. */
export function templateSettings(): string[] {
  return [...REQUIRED, ...OPTIONAL, ...runSettings()].map((s) => s.name)
}

export function envTemplate(): string {
  const lines = [
    '# Target of `pix-conformance --env target.env` (written by `pix-conformance init`).',
    '# Keep this file out of version control: it holds secrets.',
    '',
    '# ── required ──',
  ]
  for (const s of REQUIRED) lines.push(`# ${s.what}`, `${s.name}=`, '')
  lines.push('# ── optional: each enables the checks it names; unset, those checks are skipped with the reason ──')
  for (const s of OPTIONAL) lines.push(...commented(s))
  lines.push('# ── the run: each is also a flag (pix-conformance --help); a flag wins over this file ──')
  lines.push('# Defaults:', ...defaultsLines('#   '), '')
  for (const s of runSettings()) lines.push(...commented(s))
  return lines.join('\n')
}

function commented(s: Setting): string[] {
  return [`# ${s.what}${s.enables ? `\n#   enables: ${s.enables}` : ''}`, `# ${s.name}=`, '']
}

/** Writes the template; refuses to overwrite unless forced. */
export function writeEnvTemplate(file: string, force: boolean): void {
  if (existsSync(file) && !force) throw new Error(`${file} exists; give --force to overwrite it`)
  writeFileSync(file, envTemplate(), { mode: 0o600 })
}
