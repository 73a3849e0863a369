// What a certification prints while it runs — its opening lines (target, profile, scheduling,
// webhook capture), a line per finished suite file, the warnings and the lines after the summary —
// in the language of the run (cli/reporting/i18n.ts: `--lang`, PIX_LANG). English is the default.
import { byPattern, texts, type Pair, type Replacement } from './i18n-tables.ts'
import { currentLang, type Lang } from './i18n.ts'

export const PROGRESS = {
  // a line per finished suite file (progress.ts fileLine)
  'file.passed': ['{n} passed', '{n} aprovadas'],
  'file.passed.1': ['1 passed', '1 aprovada'],
  'file.failed': ['{n} failed', '{n} reprovadas'],
  'file.failed.1': ['1 failed', '1 reprovada'],
  'file.blocked': ['{n} blocked', '{n} bloqueadas'],
  'file.blocked.1': ['1 blocked', '1 bloqueada'],
  'file.inconclusive': ['{n} inconclusive', '{n} inconclusivas'],
  'file.inconclusive.1': ['1 inconclusive', '1 inconclusiva'],
  'file.skipped': ['{n} skipped', '{n} puladas'],
  'file.skipped.1': ['1 skipped', '1 pulada'],
  'file.none': ['no checks', 'nenhuma verificação'],
  'file.totals': ['{passed} passed, {failed} failed, {skipped} skipped', '{passed} aprov., {failed} reprov., {skipped} pul.'],
  'file.withoutVerdict': [', {n} without verdict', ', {n} sem veredito'],

  // what the summary says in its own words beside the checks' messages (progress.ts summaryText)
  'summary.firstAttempt': ['first attempt:', 'primeira tentativa:'],
  'summary.noReason': ['no reason given', 'nenhum motivo informado'],
  'summary.noMessage': ['failed', 'reprovada'],

  // the opening lines (cli/conformance.ts runSuites)
  'run.certifying': ['Certifying {url} (gateway {gateway})', 'Certificando {url} (gateway {gateway})'],
  'run.embedded': [', the embedded reference', ', a referência embutida'],
  'run.line': ['profile {profile} · seed {seed} · run {run}', 'perfil {profile} · semente {seed} · execução {run}'],
  'run.shard': [' · shard {shard}', ' · fração {shard}'],
  'capture.line': ['webhook capture: listens on {listen}, {tls}; public URL {public}{mtls}', 'captura de webhooks: escuta em {listen}, {tls}; URL pública {public}{mtls}'],
  'capture.freePort': ['a free loopback port', 'uma porta livre de loopback'],
  'capture.tlsWith': ['TLS with {file}', 'TLS com {file}'],
  'capture.plain': ['plain HTTP (TLS ends at the public URL)', 'HTTP simples (o TLS termina na URL pública)'],
  'capture.ownCa': ['TLS with a CA of its own', 'TLS com uma CA própria'],
  'capture.none': ['(none)', '(nenhuma)'],
  'capture.mtls': ['; senders must present a certificate of {file}', '; os remetentes devem apresentar um certificado de {file}'],
  'sched.line': [
    'scheduling: {workers} × {concurrency} checks in flight{balances}; checks declared alone run after, one at a time (those that take only their own notifications from the account\'s channel, side by side){limits}',
    'agendamento: {workers} × {concurrency} verificações em andamento{balances}; as verificações declaradas isoladas rodam depois, uma de cada vez (as que só consomem as próprias notificações do canal da conta, lado a lado){limits}',
  ],
  'sched.workers': ['{n} workers', '{n} workers'],
  'sched.worker': ['1 worker', '1 worker'],
  'sched.fixed': [' (not {n}: {setting} reaches one capture server)', ' (não {n}: {setting} alcança um só servidor de captura)'],
  'sched.balances': ['; the checks on balances and account URLs{ledger} on {accounts}, beside them', '; as verificações de saldos e URLs de conta{ledger} em {accounts}, ao lado delas'],
  'sched.ledger': [', and the ledger model,', ', e o modelo do extrato,'],
  'sched.oneAccount': ['the balance account, one at a time', 'a conta de saldo, uma de cada vez'],
  'sched.accounts': ['{n} balance accounts, one at a time on each', '{n} contas de saldo, uma de cada vez em cada'],
  'sched.limits': ['; at most {limits} to the target, all workers together (--max-rps, --max-in-flight)', '; no máximo {limits} ao alvo, todos os workers juntos (--max-rps, --max-in-flight)'],
  'sched.rps': ['{n} requests/s', '{n} requisições/s'],
  'sched.inFlight': ['{n} requests in flight', '{n} requisições em andamento'],
  'sched.and': [' and ', ' e '],

  // beside the run
  'run.warning': ['warning: {text}', 'aviso: {text}'],
  'run.error': ['error: {text}', 'erro: {text}'],
  'run.collectorDown': [
    'warning: --otlp-endpoint {url}: the collector cannot be reached ({why}); the run goes on, and its spans are sent at the end only if it answers then',
    'aviso: --otlp-endpoint {url}: o coletor não pode ser alcançado ({why}); a execução continua, e os seus spans são enviados no fim só se ele responder então',
  ],
  'run.noReport': ['the report could not be written: {why}', 'o relatório não pôde ser escrito: {why}'],
  'run.notFinished': ['the run did not finish', 'a execução não terminou'],
  'run.draftedWaivers': ['Drafted waivers for {n} failed clauses: {file} (fill in reason, owner and expires)', 'Dispensas esboçadas para {n} cláusulas reprovadas: {file} (preencha reason, owner e expires)'],
  'run.merged': ['Merged {n} results ({runs})', '{n} resultados combinados ({runs})'],
  'run.checkingDriver': ['Checking the sandbox driver at {url} against specs/control.yaml (this resets the sandbox)', 'Conferindo o driver de sandbox em {url} contra specs/control.yaml (isto reinicia o sandbox)'],
  'after.noRepro': ['  no reproducer for {n} failures:', '  nenhum reprodutor para {n} falhas:'],
  'after.noRepro.1': ['  no reproducer for 1 failure:', '  nenhum reprodutor para 1 falha:'],
  'after.more': ['    … {n} more', '    … mais {n}'],
  'after.reproFailed': ['warning: the reproducers could not be written: {why}', 'aviso: os reprodutores não puderam ser escritos: {why}'],
  'after.otlp': ['OpenTelemetry: {n} spans sent to {url}', 'OpenTelemetry: {n} spans enviados a {url}'],
  'after.failOn': ['--fail-on {list}: {n} failures block the run{reported}', '--fail-on {list}: {n} falhas bloqueiam a execução{reported}'],
  'after.reportedOnly': [', {n} reported only ({severities})', ', {n} apenas relatadas ({severities})'],
  'after.failOn.1': ['--fail-on {list}: 1 failure blocks the run{reported}', '--fail-on {list}: 1 falha bloqueia a execução{reported}'],
  // --waivers (waivers.ts waiverLines)
  'waiver.applied': ['Waived{source}: {n} failed checks excused until their date', 'Dispensadas{source}: {n} verificações reprovadas relevadas até a data delas'],
  'waiver.applied.1': ['Waived{source}: 1 failed check excused until their date', 'Dispensada{source}: 1 verificação reprovada relevada até a data dela'],
  'waiver.until': ['{owner}, until {expires}', '{owner}, até {expires}'],
  'waiver.expired': ['Expired waivers{source} (these failures fail the run):', 'Dispensas vencidas{source} (estas falhas reprovam a execução):'],
  'waiver.expiredOn': ['expired {expires}', 'venceu em {expires}'],
  'waiver.line': [', line {n}', ', linha {n}'],
  'waiver.noLongerNeeded': ['Waivers no longer needed (their clause passed; delete them):', 'Dispensas não mais necessárias (a cláusula passou; apague-as):'],
  'waiver.unused': ['Waivers that matched no failure (their clause did not run or had no verdict):', 'Dispensas que não corresponderam a nenhuma falha (a cláusula não rodou ou ficou sem veredito):'],

  // `repro` (cli/repro.ts)
  'repro.needsValue': ['{flag} needs a value', '{flag} exige um valor'],
  'repro.unexpected': ['unexpected argument {word}', 'argumento inesperado {word}'],
  'repro.needs': ['needs a check id and --from <run-dir>', 'exige um id de verificação e --from <run-dir>'],
  'repro.written': ['Reproducer of {id} ({clause}): {file}', 'Reprodutor de {id} ({clause}): {file}'],
  'repro.runIt': ['Run it with the target\'s settings in the environment: node {file}   (exit 1 while broken, 0 once fixed)', 'Execute-o com as configurações do alvo no ambiente: node {file}   (sai com 1 enquanto houver defeito, 0 depois de corrigido)'],

  // --compare and `diff` (diff.ts diffText)
  'diff.since': ['Changes since {run} ({at}):', 'Mudanças desde {run} ({at}):'],
  'diff.warning': ['WARNING: {text}', 'AVISO: {text}'],
  'diff.none': ['  no clause changed its verdict', '  nenhuma cláusula mudou de veredito'],
  'diff.extension': ['  the extension\'s clauses ({namespaces}):', '  as cláusulas da extensão ({namespaces}):'],
  'diff.observations': ['  observations changed ({n}; information, not regressions):', '  observações mudaram ({n}; informação, não regressões):'],
  'diff.added': ['newly observed {value}', 'observado agora {value}'],
  'diff.removed': ['no longer observed (was {value})', 'não observado mais (era {value})'],
  'diff.waived': [' (waived)', ' (dispensada)'],
  'diff.was': ['was: {reason}', 'antes: {reason}'],
  'diff.now': ['now: {reason}', 'agora: {reason}'],
  'diff.noReason': ['(none)', '(nenhum)'],

  // --list (cli/list.ts): the labels padded alike in each language
  'list.clauses': ['clauses: ', 'cláusulas:'],
  'list.needs': ['needs:   ', 'exige:    '],
  'list.tags': ['tags:    ', 'tags:     '],
  'list.severity': ['severity:', 'gravidade:'],
  'list.count': ['{n} checks', '{n} verificações'],
  'list.count.1': ['1 checks', '1 verificação'],
  'run.wrote': ['Wrote {file}: fill in the required settings, then run pix-conformance --env {file}', '{file} escrito: preencha as configurações obrigatórias e execute pix-conformance --env {file}'],
} as const satisfies Record<string, Pair>

/** A progress text in the current language. */
export const progress = texts(PROGRESS)

/** `3 passed` / `1 aprovada`: a count with the word of its status. */
export function countText(status: 'passed' | 'failed' | 'blocked' | 'inconclusive' | 'skipped', n: number): string {
  return n === 1 ? progress(`file.${status}.1`) : progress(`file.${status}`, { n })
}

// why a failure got no reproducer (cli/reporting/repro-plan.ts words it)
const NO_REPRO_PT: readonly (readonly [RegExp, Replacement])[] = [
  [/^failed without a clause \(a kit failure\): nothing of the target to reproduce$/, 'reprovou sem cláusula (uma falha do kit): nada do alvo a reproduzir'],
  [/^no recorded exchange to replay$/, 'nenhuma troca registrada para repetir'],
  [/^its message names no "<rule>: expected …, got …" line to assert$/, 'a sua mensagem não tem uma linha "<rule>: expected …, got …" a afirmar'],
  [/^the rule (".*") names no status or body value the reproducer can assert$/, 'a regra $1 não indica nenhum status ou valor de corpo que o reprodutor possa afirmar'],
  [/^(\S+) failed without a clause \(a kit failure\): nothing of the target to reproduce$/, '$1 reprovou sem cláusula (uma falha do kit): nada do alvo a reproduzir'],
  [/^--from (\S+): no results\.json there$/, '--from $1: nenhum results.json ali'],
  [/^(".*") matches (\d+) failed checks: (.+)$/, '$1 corresponde a $2 verificações reprovadas: $3'],
  [/^no failed check (".*") in run (\S+) \(failed: (.*)\)$/, 'nenhuma verificação reprovada $1 na execução $2 (reprovadas: $3)'],
  // `<check id>: <why>`, as repro-plan.ts prefixes them (a check id holds no ": ")
  [/^(\S+?::[^:]*|\S+): (.+)$/, (_: string, id: string, why: string) => `${id}: ${noReproWhy(why, 'pt-BR')}`],
]

/** Why a failed check has no reproducer, in the current language. */
export const noReproWhy = byPattern(NO_REPRO_PT)

// the kinds of change between two runs (diff.ts words them in English)
const DIFF_KINDS_PT: Record<string, string> = {
  'newly-failed': 'passaram a reprovar',
  'changed-reason': 'reprovadas ou sem veredito por outro motivo',
  'newly-blocked': 'passaram a bloqueadas',
  'newly-inconclusive': 'passaram a inconclusivas',
  'newly-skipped': 'passaram a puladas',
  other: 'outras mudanças de veredito',
  'newly-passing': 'passaram a aprovar',
}

/** A kind of change's title in the current language; `english` as diff.ts words it. */
export function diffKindIn(kind: string, english: string, lang: Lang = currentLang()): string {
  return lang === 'en' ? english : (DIFF_KINDS_PT[kind] ?? english)
}

const DIFF_WARNINGS_PT: readonly (readonly [RegExp, Replacement])[] = [
  [/^specs differ \(interface hash (\S+) then (\S+)\): clause verdicts may not mean the same thing$/, 'as specs diferem (hash da interface $1, depois $2): os vereditos das cláusulas podem não significar o mesmo'],
  [/^target differs: (\S+) then (\S+)$/, 'o alvo difere: $1, depois $2'],
  [/^(kit version|profile|depth|scope \(--area\/--file\)) differs: (.+) then (.+)$/, (_: string, what: string, a: string, b: string) => `${{ 'kit version': 'a versão do kit', profile: 'o perfil', depth: 'a profundidade', 'scope (--area/--file)': 'o escopo (--area/--file)' }[what] ?? what} difere: ${a}, depois ${b}`],
]

/** A warning that two runs are not alike (diff.ts comparabilityWarnings), in the current language. */
export const diffWarningIn = byPattern(DIFF_WARNINGS_PT)
