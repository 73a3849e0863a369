// The kit's own words in each language of `--lang` (PIX_LANG): one table, message id → English and
// Portuguese (pt-BR), read through `tr(lang, id, vars)`. English is the default. What checks write
// (titles, failure messages with expected/got) is not the kit's fixed text: cli/reporting/messages.ts
// translates it from specs/messages.<lang>.yaml;
// clause statements come from specs/clauses.<lang>.yaml (generators/clauses.ts statementIn).
// This file is long because it is one table of every fixed text of the kit in both languages, so
// that a missing translation is one place to look.
import { LANGS, type Lang, statementIn } from '../../generators/clauses.ts'

export { LANGS, statementIn, type Lang }

type Entry = readonly [en: string, ptBR: string]

/** `{name}` in a message is replaced by vars.name. */
export const MESSAGES = {
  // ── report.html ──────────────────────────────────────────────────────────────────────────────
  'html.title': ['Conformance {label}: {target} ({run})', 'Conformidade — {label}: {target} ({run})'],
  'html.title.receiver': ['Receiver conformance {label}: {target} ({run})', 'Conformidade do receptor — {label}: {target} ({run})'],
  'html.h1.receiver': ['Webhook receiver conformance report', 'Relatório de conformidade do receptor de webhooks'],
  'html.meta.receiver': ['Receiver', 'Receptor'],
  'html.meta.probe': ['Probe', 'Sonda'],
  'html.card.meaning': ['with a meaning check', 'com verificação de significado'],
  'html.card.meaning.title': ['testable must clauses that state what a field means (not only its form) with at least one check; {verified} verified', 'cláusulas obrigatórias testáveis que dizem o que um campo significa (não só a sua forma) com ao menos uma verificação; {verified} verificadas'],
  'html.h1': ['Conformance report', 'Relatório de conformidade'],
  'html.messagesNote': ['', 'Os textos das verificações estão traduzidos (specs/messages.pt-BR.yaml); valores, nomes de campos e evidências HTTP ficam como o alvo e o kit os registram.'],
  'html.embeddedReference': ['embedded reference', 'referência embutida'],
  'html.meta.target': ['Target', 'Alvo'],
  'html.meta.gateway': ['Gateway', 'Gateway'],
  'html.meta.profile': ['Profile', 'Perfil'],
  'html.meta.seed': ['Seed', 'Semente'],
  'html.meta.run': ['Run', 'Execução'],
  'html.meta.when': ['When', 'Quando'],
  'html.meta.kit': ['Kit', 'Kit'],
  'html.meta.command': ['Command', 'Comando'],
  'html.meta.mergedFrom': ['Merged from', 'Combinado de'],
  'html.meta.shard': ['shard', 'fração'],
  'html.gateMet': ['gate met', 'critério atendido'],
  'html.gateNotMet': ['gate not met', 'critério não atendido'],
  'html.card.passed': ['passed', 'aprovadas'],
  'html.card.failed': ['failed', 'reprovadas'],
  'html.card.blocked': ['blocked', 'bloqueadas'],
  'html.card.blocked.title': ['a precondition failed: no verdict on the clauses', 'uma pré-condição falhou: nenhum veredito sobre as cláusulas'],
  'html.card.inconclusive': ['inconclusive', 'inconclusivas'],
  'html.card.inconclusive.title': ['negative evidence from a route never seen working: no verdict', 'evidência negativa de uma rota nunca vista funcionando: nenhum veredito'],
  'html.card.skipped': ['skipped', 'puladas'],
  'html.card.checks': ['checks', 'verificações'],
  'html.card.verified': ['must clauses verified ({verified}/{total})', 'cláusulas obrigatórias verificadas ({verified}/{total})'],
  'html.card.verified.title': ['testable must clauses a check passed on and none failed', 'cláusulas obrigatórias testáveis em que uma verificação passou e nenhuma falhou'],
  'html.card.covered': ['must clauses with a check', 'cláusulas obrigatórias com verificação'],
  'html.card.covered.title': ['testable must clauses with at least one check, whatever its verdict', 'cláusulas obrigatórias testáveis com ao menos uma verificação, qualquer que seja o veredito'],
  'html.nav.areas': ['By area', 'Por área'],
  'html.nav.errors': ['Run errors ({n})', 'Erros da execução ({n})'],
  'html.nav.failures': ['Failures ({n})', 'Falhas ({n})'],
  'html.nav.clauses': ['Clause matrix ({n})', 'Matriz de cláusulas ({n})'],
  'html.nav.checks': ['Checks ({n})', 'Verificações ({n})'],
  'html.nav.excluded': ['Left out by profile ({n})', 'Deixadas de fora pelo perfil ({n})'],
  'html.areas.h2': ['By area', 'Por área'],
  'html.areas.area': ['area', 'área'],
  'html.areas.total': ['total', 'total'],
  'html.errors.h2': ['Run errors', 'Erros da execução'],
  'html.errors.p': ['Errors outside any check; the run counts as failed.', 'Erros fora de qualquer verificação; a execução conta como reprovada.'],
  'html.failures.h2': ['Failures ({n})', 'Falhas ({n})'],
  'html.failure.omitted': ['{n} earlier exchanges not kept.', '{n} trocas anteriores não guardadas.'],
  'html.failure.inList': ['in the list', 'na lista'],
  'html.failure.noMessage': ['failed without a message', 'falhou sem mensagem'],
  'html.failure.error': ['error {i} of {n}', 'erro {i} de {n}'],
  'html.failure.seed': ['Seed', 'Semente'],
  'html.failure.path': ['Path', 'Caminho'],
  'html.failure.replay': ['Replay', 'Repetir'],
  'html.failure.file': ['File', 'Arquivo'],
  'html.failure.noExchange': ['No HTTP exchange recorded.', 'Nenhuma troca HTTP registrada.'],
  'html.exchange.noResponse': ['no response', 'sem resposta'],
  'html.exchange.request': ['Request', 'Requisição'],
  'html.exchange.response': ['Response', 'Resposta'],
  'html.exchange.none': ['none', 'nenhuma'],
  'html.filter.label': ['Filter', 'Filtrar'],
  'html.filter.placeholder': ['clause id, title, area, text…', 'id da cláusula, título, área, texto…'],
  'html.filter.status': ['Status', 'Situação'],
  'html.filter.all': ['all', 'todas'],
  'html.filter.of': ['of', 'de'],
  'html.filter.rows': ['rows', 'linhas'],
  'html.clauses.h2': ['Clause matrix', 'Matriz de cláusulas'],
  'html.clauses.p': [
    'Every clause of {catalogue}, by section. A clause fails if any of its checks failed, passes if the checks that ran all passed, is skipped if all its checks were skipped, and is <em>uncovered</em> if no check names it. Clauses the interface marks “not shown” are informational.',
    'Todas as cláusulas de {catalogue}, por seção. Uma cláusula é reprovada se alguma de suas verificações falhou, aprovada se as verificações executadas passaram todas, pulada se todas as suas verificações foram puladas e <em>sem cobertura</em> se nenhuma verificação a cita. As cláusulas que a interface marca como “não mostrado” são informativas.',
  ],
  'html.clauses.unknown': ['Checks name clause ids that are not in {catalogue}:', 'Verificações citam ids de cláusula que não estão em {catalogue}:'],
  'html.clauses.clause': ['clause', 'cláusula'],
  'html.clauses.statement': ['statement', 'enunciado'],
  'html.clauses.testability': ['testability', 'testabilidade'],
  'html.clauses.checks': ['checks', 'verificações'],
  'html.clauses.verdict': ['verdict', 'veredito'],
  'html.clauses.noCheck': ['no check', 'sem verificação'],
  'html.checks.h2': ['Checks ({n})', 'Verificações ({n})'],
  'html.checks.check': ['check', 'verificação'],
  'html.checks.clauses': ['clauses', 'cláusulas'],
  'html.checks.time': ['time', 'tempo'],
  'html.checks.reason': ['reason', 'motivo'],
  'html.excluded.h2': ['Left out by the {profile} profile ({n})', 'Deixadas de fora pelo perfil {profile} ({n})'],
  'html.severity.title': ['severity of the clause', 'gravidade da cláusula'],
  'html.trace.hint': ['search your logs for it (W3C traceparent)', 'procure-o nos seus logs (W3C traceparent)'],
  'html.trace.dt': ['Trace', 'Rastreio'],
  'html.repro.dt': ['Reproducer', 'Reprodutor'],
  'html.repro.hint': [
    'standalone Node script: exit 1 while broken, 0 once fixed (secrets from PIX_* in the environment); or',
    'script Node independente: sai com 1 enquanto houver defeito, 0 depois de corrigido (segredos de PIX_* do ambiente); ou',
  ],
  'html.coverage.h2': ['Documented statuses ({seen}/{documented} seen, {percent}%)', 'Status documentados ({seen}/{documented} vistos, {percent}%)'],
  'html.coverage.narrowed': [
    'Measured over the {n} operations the selected checks are about (their clauses\' sections, the refusals they provoked); the run was narrowed.',
    'Medido sobre as {n} operações de que tratam as verificações selecionadas (as seções de suas cláusulas, as recusas que provocaram); a execução foi restringida.',
  ],
  'html.coverage.p': [
    'Per operation, each status of specs/openapi.yaml and each row of the interface\'s §7 error table (with its gateway error code): <b>provoked</b> when a check expected that refusal and got it, <b>observed</b> when it only came back, <b>never seen</b> otherwise. A range (<code>4XX</code>) stands for the statuses in it no other outcome of the operation documents. * the interface says it cannot be provoked through it (not counted in the percentage).',
    'Por operação, cada status de specs/openapi.yaml e cada linha da tabela de erros do §7 da interface (com o seu código de erro do gateway): <b>provocado</b> quando uma verificação esperava essa recusa e a obteve, <b>observado</b> quando apenas apareceu, <b>nunca visto</b> nos demais casos. Uma faixa (<code>4XX</code>) representa os status dela que nenhum outro resultado da operação documenta. * a interface diz que não pode ser provocado por ela (fora da porcentagem).',
  ],
  'html.coverage.operation': ['operation', 'operação'],
  'html.coverage.provoked': ['provoked', 'provocado'],
  'html.coverage.observed': ['observed', 'observado'],
  'html.coverage.neverSeen': ['never seen', 'nunca visto'],
  'html.coverage.undocumented': ['undocumented statuses seen', 'status não documentados vistos'],
  'html.coverage.unprovokable': ['(cannot be provoked through the interface)', '(não pode ser provocado pela interface)'],
  'html.coverage.and': [' and ', ' e '],
  'html.coverage.documentedIn': ['documented in {sources}', 'documentado em {sources}'],
  'html.isolation.h2': ['Account isolation', 'Isolamento entre contas'],

  'isolation.line': ['isolation: {operations} operations × {kinds} credential kinds, {leaks} leaks{notes}', 'isolamento: {operations} operações × {kinds} tipos de credencial, {leaks} vazamentos{notes}'],
  'isolation.withoutVerdict': ['{n} checks without a verdict', '{n} verificações sem veredito'],
  'isolation.leftOut': ['{n} operations left out by the {profile} profile', '{n} operações deixadas de fora pelo perfil {profile}'],
  'isolation.leak': ['leak:', 'vazamento:'],
  'isolation.p': [
    'Each operation that names a resource by id or acts on an account, asked with the credentials of B (the second account, PIX_OTHER_*) of every kind it takes about what is A\'s (the account under test); a leak is A\'s resource served, changed or paid for B (severity security).',
    'Cada operação que indica um recurso por id ou age sobre uma conta, chamada com as credenciais de B (a segunda conta, PIX_OTHER_*) de cada tipo que aceita sobre o que é de A (a conta em teste); um vazamento é um recurso de A servido, alterado ou pago para B (gravidade segurança).',
  ],
  'isolation.h.operation': ['operation', 'operação'],
  'isolation.h.section': ['section', 'seção'],
  'isolation.h.names': ['what of A\'s it names', 'o que de A ela indica'],
  'isolation.h.kinds': ['kinds asked', 'tipos usados'],
  'isolation.h.passed': ['passed', 'aprovadas'],
  'isolation.h.leaks': ['leaks', 'vazamentos'],
  'isolation.h.noVerdict': ['no verdict', 'sem veredito'],
  'isolation.h.leftOut': ['left out', 'deixadas de fora'],
  'isolation.h.clause': ['clause', 'cláusula'],

  // ── words: statuses of checks and clauses, testability, severity ───────────────────────────
  'status.passed': ['passed', 'aprovada'],
  'status.failed': ['failed', 'reprovada'],
  'status.FAILED': ['FAILED', 'REPROVADA'],
  'status.blocked': ['blocked', 'bloqueada'],
  'status.inconclusive': ['inconclusive', 'inconclusiva'],
  'status.skipped': ['skipped', 'pulada'],
  'status.uncovered': ['uncovered', 'sem cobertura'],
  'status.not-shown': ['not shown', 'não mostrada'],
  'status.not-reached': ['not reached', 'não alcançada'],
  'testability.black-box': ['black-box', 'caixa-preta'],
  'testability.needs-control': ['needs control', 'exige controle'],
  'testability.not-shown': ['not shown', 'não mostrado'],
  'severity.money': ['money', 'dinheiro'],
  'severity.security': ['security', 'segurança'],
  'severity.data': ['data', 'dados'],
  'severity.protocol': ['protocol', 'protocolo'],
  // the run's verdict word (the badge, the headline); results.json and the exit code keep the English word
  'verdict.PASSED': ['PASSED', 'APROVADO'],
  'verdict.FAILED': ['FAILED', 'REPROVADO'],
  'verdict.INCOMPLETE': ['INCOMPLETE', 'INCOMPLETO'],
  'verdict.CONDITIONAL PASS': ['CONDITIONAL PASS', 'APROVADO COM RESSALVAS'],
  'verdict.NO CHECKS RAN': ['NO CHECKS RAN', 'NENHUMA VERIFICAÇÃO EXECUTADA'],

  // ── the console ─────────────────────────────────────────────────────────────────────────────
  'console.title': ['Conformance of {target}', 'Conformidade de {target}'],
  'console.embedded': [' (embedded reference)', ' (referência embutida)'],
  'console.runLine': ['run {run} · profile {profile} · seed {seed}', 'execução {run} · perfil {profile} · semente {seed}'],
  'console.col.area': ['area', 'área'],
  'console.col.passed': ['passed', 'aprov.'],
  'console.col.failed': ['failed', 'reprov.'],
  'console.col.blocked': ['blocked', 'bloq.'],
  'console.col.inconclusive': ['inconcl.', 'inconcl.'],
  'console.col.skipped': ['skipped', 'puladas'],
  'console.total': ['total', 'total'],
  'console.meaning': [
    'of those stating what a field means: {covered}/{total} have a meaning check, {verified} verified',
    'das que dizem o que um campo significa: {covered}/{total} têm verificação de significado, {verified} verificadas',
  ],
  'console.meaning.fields': [
    '; fields of the contract: {with}/{total} with a meaning check ({observed} observed readings, {formOnly} form only)',
    '; campos do contrato: {with}/{total} com verificação de significado ({observed} leituras observadas, {formOnly} só de forma)',
  ],
  'console.verified': [
    'clauses verified: {verified}/{total} testable must clauses{scope} ({percent}%); {covered} have a check',
    'cláusulas verificadas: {verified}/{total} cláusulas obrigatórias testáveis{scope} ({percent}%); {covered} têm verificação',
  ],
  'console.scope': [' of {areas}', ' de {areas}'],
  'console.failures': ['Failures ({n}{waived}):', 'Falhas ({n}{waived}):'],
  'console.waived': [', {n} waived', ', {n} dispensadas'],
  'console.sameWay': ['{n} checks failed the same way', '{n} verificações falharam do mesmo modo'],
  'console.flaky': ['Flaky ({n}): failed, then passed on a retry (report.html shows every attempt)', 'Instáveis ({n}): falharam e depois passaram numa nova tentativa (report.html mostra cada tentativa)'],
  'console.withoutVerdict': ['Without a verdict ({n}): not failures of the target, not passes either', 'Sem veredito ({n}): não são falhas do alvo, nem aprovações'],
  'console.runErrors': ['Run errors ({n}):', 'Erros da execução ({n}):'],
  'console.skipped': ['Skipped ({n}), each reason once:', 'Puladas ({n}), cada motivo uma vez:'],
  'console.excluded': ['{n} checks left out by the {profile} profile', '{n} verificações deixadas de fora pelo perfil {profile}'],
  'console.coverage': [
    'documented statuses seen{of}: {seen}/{documented} ({provoked} provoked on purpose, {observed} only observed; {percent}% of those that can be provoked)',
    'status documentados vistos{of}: {seen}/{documented} ({provoked} provocados de propósito, {observed} apenas observados; {percent}% dos que podem ser provocados)',
  ],
  'console.coverage.of': [' of the {n} operations the selected checks are about', ' das {n} operações de que tratam as verificações selecionadas'],
  'console.unprovokable': ['(cannot be provoked)', '(não pode ser provocado)'],
  'console.neverSeen': ['never seen', 'nunca vistos'],
  'console.neverSeen.more': ['{n} more (report.html, "Documented statuses")', 'mais {n} (report.html, "Status documentados")'],
  'console.reproducers': ['reproducers: {n} standalone scripts in {dir} (node <file>: exit 1 while broken, 0 once fixed)', 'reprodutores: {n} scripts independentes em {dir} (node <arquivo>: sai com 1 enquanto houver defeito, 0 depois de corrigido)'],
  'depth.depth': ['depth {profile}', 'profundidade {profile}'],
  'depth.runs': ['{n} runs per property', '{n} casos por propriedade'],
  'depth.none': ['no property ran', 'nenhuma propriedade executada'],
  'depth.stopped': ['{n} stopped early', '{n} interrompidas antes'],
  'console.kitBug': ['kit bug', 'defeito do kit'],
  'console.more': ['and {n} more (report.html lists them)', 'e mais {n} (report.html lista todas)'],
  'console.andMore': ['and {n} more', 'e mais {n}'],
  'console.nChecks': ['{n} checks', '{n} verificações'],
  'console.replay': ['replay:', 'repetir:'],
  'console.trace': ['trace {id} — search your logs for it', 'rastreio {id} — procure-o nos seus logs'],
  'console.report': ['Report: {dir}  (report.html, results.json, junit.xml)', 'Relatório: {dir}  (report.html, results.json, junit.xml)'],

  // ── the headline (cli/reporting/verdict.ts words it in English; headlineIn translates its parts) ──
  'headline.clauses': ['{verified} of {total} must clauses{scope} verified', '{verified} de {total} cláusulas obrigatórias{scope} verificadas'],
  'headline.receiver': ['{verified} of {total} receiver clauses verified', '{verified} de {total} cláusulas do receptor verificadas'],
  'headline.extension': ['{verified} of {total} must clauses of the extension verified', '{verified} de {total} cláusulas obrigatórias da extensão verificadas'],

  // ── the certificate (its readable block, `verify`) ───────────────────────────────────────────
  'cert.title': ['Certificate {file}', 'Certificado {file}'],
  'cert.result': ['result', 'resultado'],
  'cert.extension': ['extension', 'extensão'],
  'cert.target': ['target', 'alvo'],
  'cert.run': ['run', 'execução'],
  'cert.kit': ['kit', 'kit'],
  'cert.clauses': ['clauses', 'cláusulas'],
  'cert.checks': ['checks', 'verificações'],
  'cert.checksLine': ['{n}, each with the digest of its evidence', '{n}, cada uma com o resumo criptográfico da sua evidência'],
  'cert.gatewayOf': ['gateway {url}', 'gateway {url}'],
  'cert.embedded': [', the embedded reference', ', a referência embutida'],
  'cert.runLine': ['{run} · {start} → {end} · profile {profile} · seed {seed}', '{run} · {start} → {end} · perfil {profile} · semente {seed}'],
  'cert.signedBy': ['signed by', 'assinado por'],
  'cert.key': ['Ed25519 key {id}…', 'chave Ed25519 {id}…'],
  'cert.pinned': [' (the given --key)', ' (a --key informada)'],
  'cert.embeddedKey': [' (embedded in the file: pass --key to check who signed it)', ' (embutida no arquivo: informe --key para conferir quem assinou)'],
  'cert.verified': ['VERIFIED', 'VERIFICADO'],
  'cert.notVerified': ['NOT VERIFIED ({n} problems):', 'NÃO VERIFICADO ({n} problemas):'],
  'cert.written': ['Certificate: {file}', 'Certificado: {file}'],
  'cert.throwaway': [', signed with a throwaway key (set PIX_SIGNING_KEY_FILE to sign with yours); its public key:', ', assinado com uma chave descartável (defina PIX_SIGNING_KEY_FILE para assinar com a sua); sua chave pública:'],
  'cert.statement': [
    'This certificate states the verdict of one run of the PIX conformance kit against the target, per clause of the interface; the signature covers every field but itself.',
    'Este certificado declara o veredito de uma execução do kit de conformidade PIX contra o alvo, por cláusula da interface; a assinatura cobre todos os campos, exceto ela própria.',
  ],

  // ── monitor alerts ──────────────────────────────────────────────────────────────────────────
  'alert.head': ['ALERT {kind}: {summary}', 'ALERTA {kind}: {summary}'],
  'alert.clause': ['clause {clause} ({severity}): {statement}', 'cláusula {clause} ({severity}): {statement}'],
  'alert.check': ['check {check}', 'verificação {check}'],
  'alert.broke': ['broke {message}', 'quebrou {message}'],
  'alert.trace': ['trace id {id}', 'id de rastreio {id}'],
  'alert.evidence': ['evidence {path}', 'evidência {path}'],
  'alert.kind.clause-failed': ['clause-failed', 'cláusula reprovada'],
  'alert.kind.clause-recovered': ['clause-recovered', 'cláusula recuperada'],
  'alert.kind.latency-doubled': ['latency-doubled', 'latência dobrou'],
} as const satisfies Record<string, Entry>

export type MessageId = keyof typeof MESSAGES

/** The language PIX_LANG asks for (`pt-BR`, also `pt`, `pt_BR`), English otherwise. */
export function langOf(value: string | undefined = process.env.PIX_LANG): Lang {
  return value !== undefined && /^pt([-_]br)?$/i.test(value.trim()) ? 'pt-BR' : 'en'
}

let scoped: Lang | undefined

/** The language of the text being rendered: the one `inLang` set, else PIX_LANG's. */
export const currentLang = (): Lang => scoped ?? langOf()

/** Renders `render` in `lang` (the `t` calls inside it use it); synchronous. */
export function inLang<T>(lang: Lang, render: () => T): T {
  const before = scoped
  scoped = lang
  try {
    return render()
  } finally {
    scoped = before
  }
}

export function tr(lang: Lang, id: MessageId, vars: Record<string, string | number> = {}): string {
  const entry: Entry = MESSAGES[id]
  const text = lang === 'pt-BR' ? entry[1] : entry[0]
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole))
}

/** `tr` in the current language. */
export const t = (id: MessageId, vars?: Record<string, string | number>): string => tr(currentLang(), id, vars)

/** A word of a known family (`status.`, `testability.`, `severity.`, `verdict.`), or the word itself. */
export function word(family: 'status' | 'testability' | 'severity' | 'verdict', value: string, lang: Lang = currentLang()): string {
  const id = `${family}.${value}`
  return id in MESSAGES ? tr(lang, id as MessageId, {}) : value
}

// ---------------------------------------------------------------------------------------------
// The headline: cli/reporting/verdict.ts words it once, in English, from the run's verdict; in
// another language its parts are translated here, so every output still shows the one verdict.

const CAUSES_PT: readonly [RegExp, string][] = [
  [/^(\d+) not reached \(their check failed on another clause\)$/, '$1 não alcançadas (sua verificação falhou em outra cláusula)'],
  [/^(\d+) blocked by a failed precondition$/, '$1 bloqueadas por uma pré-condição que falhou'],
  [/^(\d+) needs? a mutating profile or the sandbox driver$/, '$1 exigem um perfil que altera estado ou o driver de sandbox'],
  [/^(\d+) needs? --reset$/, '$1 exigem --reset'],
  [/^(\d+) needs? routes the sandbox driver does not provide$/, '$1 exigem rotas que o driver de sandbox não oferece'],
  [/^(\d+) needs? optional settings$/, '$1 exigem configurações opcionais'],
  [/^(\d+) (?:have|has) no check$/, '$1 sem verificação'],
  [/^(\d+) failed$/, '$1 reprovadas'],
  [/^(\d+) waived$/, '$1 dispensadas'],
  [/^(\d+) inconclusive$/, '$1 inconclusivas'],
  [/^(\d+) skipped$/, '$1 puladas'],
  [/^shard (\S+) missing$/, 'fração $1 ausente'],
  [/^shards (.+) missing$/, 'frações $1 ausentes'],
  [/^(\d+) checks? flaky: passed only on a retry$/, '$1 verificações instáveis: passaram só numa nova tentativa'],
  [/^status coverage not measured: the selected checks are about no operation \(--require-coverage (\S+) not applicable\)$/, 'cobertura de status não medida: as verificações selecionadas não tratam de nenhuma operação (--require-coverage $1 não se aplica)'],
  [/^status coverage (.+)$/, 'cobertura de status $1'],
  [/^must clauses verified (.+)$/, 'cláusulas obrigatórias verificadas $1'],
  [/^flaky checks (.+)$/, 'verificações instáveis $1'],
  [/^(\d+) failures? of other severities reported(.*), not gated (\(--fail-on .+\))$/, '$1 falhas de outras gravidades relatadas$2, sem bloquear $3'],
]

// a cause counting one clause (or check, or shard) says it in the singular
const SINGULAR_PT: Record<string, string> = {
  reprovadas: 'reprovada', inconclusivas: 'inconclusiva', bloqueadas: 'bloqueada', exigem: 'exige', alcançadas: 'alcançada',
  puladas: 'pulada', dispensadas: 'dispensada', verificações: 'verificação', instáveis: 'instável', passaram: 'passou',
  falhas: 'falha', relatadas: 'relatada', frações: 'fração', ausentes: 'ausente',
}

function causeIn(lang: Lang, part: string): string {
  if (lang === 'en') return part
  for (const [pattern, pt] of CAUSES_PT) {
    if (!pattern.test(part)) continue
    const text = part.replace(pattern, pt)
    return /^1 /.test(text) ? text.replace(/\p{L}+/gu, (w) => SINGULAR_PT[w] ?? w) : text
  }
  return part
}

/** Splits `a; b (c; d)` at the top-level `; ` only. */
function topLevelParts(text: string): string[] {
  const parts: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (ch === '(') depth++
    else if (ch === ')') depth--
    else if (depth === 0 && text.startsWith('; ', i)) {
      parts.push(text.slice(start, i))
      start = i + 2
    }
  }
  parts.push(text.slice(start))
  return parts
}

/** The verdict's label in `lang`: `REPROVADO (critério)`, `APROVADO (--fail-on security)`. */
export function labelIn(lang: Lang, label: string): string {
  if (lang === 'en') return label
  const m = /^(PASSED|FAILED|INCOMPLETE|CONDITIONAL PASS|NO CHECKS RAN)(.*)$/.exec(label)
  if (!m) return label
  return `${word('verdict', m[1]!, lang)}${m[2] === ' (gate)' ? ' (critério)' : m[2]}`
}

/** `3 aprovadas`: a count and its status word, plural in Portuguese when the count is not 1. */
export function countOf(lang: Lang, n: number, statusWord: string): string {
  return `${n} ${lang === 'pt-BR' && n !== 1 ? statusWord.replace(/(ada|iva)$/, '$1s') : statusWord}`
}

/** The run's headline (or the extension's line) in `lang`; English as it is. */
export function headlineIn(lang: Lang, headline: string): string {
  if (lang === 'en') return headline
  const dash = headline.indexOf(' — ')
  if (dash < 0) return headline
  const head = headline.slice(0, dash)
  let rest = headline.slice(dash + 3)
  let why = ''
  const open = rest.search(/ verified \(/)
  if (open >= 0 && rest.endsWith(')')) {
    why = rest.slice(open + ' verified ('.length, -1)
    rest = rest.slice(0, open + ' verified'.length)
  }
  const parts = topLevelParts(rest)
  const last = parts.pop() ?? ''
  const leads = parts.map((p) => causeIn(lang, p))
  const counted = /^(\d+) of (\d+) must clauses(?: of (.+))? verified$/.exec(last)
  const ext = /^(\d+) of (\d+) must clauses of the extension verified$/.exec(last)
  const receiver = /^(.+ — )?(\d+) of (\d+) receiver clauses verified$/.exec(last)
  const main = receiver
    ? `${receiver[1] ?? ''}${tr(lang, 'headline.receiver', { verified: receiver[2]!, total: receiver[3]! })}`
    : ext
    ? tr(lang, 'headline.extension', { verified: ext[1]!, total: ext[2]! })
    : counted
      ? tr(lang, 'headline.clauses', { verified: counted[1]!, total: counted[2]!, scope: counted[3] ? tr(lang, 'console.scope', { areas: counted[3] }) : '' })
      : last
  const whyText = why ? ` (${topLevelParts(why).map((p) => causeIn(lang, p)).join('; ')})` : ''
  const label = /^(PASSED|FAILED|INCOMPLETE|CONDITIONAL PASS|NO CHECKS RAN)/.test(head) ? labelIn(lang, head) : head
  return `${label} — ${leads.map((l) => `${l}; `).join('')}${main}${whyText}`
}

/** A gate's text (`status coverage 40% < 80% (--require-coverage)`) in the current language. */
export const gateText = (text: string): string => causeIn(currentLang(), text)

/** The headline in the current language. */
export const headline = (text: string): string => headlineIn(currentLang(), text)

// Headings of the interface, so a section number reads as a topic: as the interface names them,
// in each language (the paths of section 4 stay as they are).
const SECTION_TITLES: Record<string, readonly [string, string]> = {
  '0': ['Conventions', 'Convenções'],
  '1': ['What the service does', 'O que o serviço faz'],
  '2': ['Resources and their fields', 'Recursos e seus campos'],
  '2.1': ['Transaction', 'Transação'],
  '2.2': ['Transaction list item', 'Item da listagem de transações'],
  '2.3': ['Balance', 'Saldo'],
  '2.4': ['Immediate charge (cob)', 'Cobrança imediata (cob)'],
  '2.5': ['Return (devolucao)', 'Devolução (devolucao)'],
  '2.6': ['Bank slip', 'Boleto'],
  '2.7': ['Buyer', 'Comprador'],
  '2.8': ['Cash-in and cash-out results', 'Resultados de cash-in e cash-out'],
  '3': ['States and transitions', 'Estados e transições'],
  '3.1': ['Transaction status', 'Status da transação'],
  '3.2': ['Immediate charge states', 'Estados da cobrança imediata'],
  '3.3': ['Return states', 'Estados da devolução'],
  '3.4': ['Bank slip states', 'Estados do boleto'],
  '3.5': ['Resendable webhook statuses', 'Status do webhook reenviável'],
  '3.6': ['Balance effect of an outgoing payment', 'Efeito no saldo de um pagamento de saída'],
  '4': ['Endpoints', 'Endpoints'],
  '4.19': ['Outgoing instant payment by key', 'PIX de saída por chave'],
  '5': ['Authentication', 'Autenticação'],
  '6': ['Events', 'Eventos'],
  '6.1': ['V1 notification', 'Notificação V1'],
  '6.2': ['V2 notifications', 'Notificações V2'],
  '6.3': ['Bank slip notifications', 'Notificações de boleto'],
  '7': ['Errors', 'Erros'],
  '8': ['Limits', 'Limites'],
  '9': ['Versioning', 'Versionamento'],
  R: ['Receiver', 'Receptor'],
}

/** The Portuguese heading of a section, when it is not the English one (`undefined`: keep it). */
export function sectionTitleIn(lang: Lang, section: string, english: string): string {
  if (lang === 'en') return english
  const row = SECTION_TITLES[section] ?? SECTION_TITLES[section.split('.')[0] ?? '']
  return row && row[0] === english ? row[1] : english
}
