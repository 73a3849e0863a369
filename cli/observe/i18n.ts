// `pix-conformance observe` in the language of --lang (PIX_LANG): what it prints while it listens,
// its summary, its headline, its errors and its --help. What a rule saw broken (rules.ts, the
// `why` under each failed clause) is a check's message and stays in English, as the
// certification's do; the console says so in Portuguese.
import { byPattern, texts, type Pair, type Replacement } from '../reporting/i18n-tables.ts'
import { labelIn, statementIn, type Lang } from '../reporting/i18n.ts'
import type { Results } from '../reporting/types.ts'

export const OBSERVE_TEXTS = {
  'listening': ['Observing: point the application\'s base URL at {base} and its gateway URL at {gateway}', 'Observando: aponte a URL base da aplicação para {base} e a URL do gateway para {gateway}'],
  'forwarding': ['  forwarding to {base} and {gateway}; SIGTERM or Ctrl-C writes the report to {dir}', '  encaminhando para {base} e {gateway}; SIGTERM ou Ctrl-C escreve o relatório em {dir}'],
  'relay': ['  have the provider deliver notifications to {relay} (the relay forwards them to {url})', '  faça o provedor entregar as notificações em {relay} (o relay as encaminha para {url})'],
  'verifyReads': ['  with read-only look-ups of its own (GET, as {client}), at most {rps} a second', '  com consultas próprias somente de leitura (GET, como {client}), no máximo {rps} por segundo'],
  'idleWindow': ['observe: window ended with no exchange of the interface: not recorded', 'observe: janela encerrada sem nenhuma troca da interface: não registrada'],
  'windowEnded': ['observe: window ended: {headline}  ({dir})', 'observe: janela encerrada: {headline}  ({dir})'],
  'windowNotRecorded': ['observe: the window could not be recorded ({why})', 'observe: a janela não pôde ser registrada ({why})'],
  'unreachable': ['observe: {n} requests could not reach the provider (answered 502, not judged)', 'observe: {n} requisições não alcançaram o provedor (respondidas com 502, não julgadas)'],
  'unreachable.1': ['observe: 1 request could not reach the provider (answered 502, not judged)', 'observe: 1 requisição não alcançou o provedor (respondida com 502, não julgada)'],
  'notRecorded': ['observe: --db: the verdicts were reported but not recorded in the history ({why})', 'observe: --db: os vereditos foram relatados, mas não registrados no histórico ({why})'],
  'reportDir': ['observe: --report-dir: cannot write reports under {dir} ({why})', 'observe: --report-dir: não é possível escrever relatórios em {dir} ({why})'],
  'messagesNote': ['', '  (o que cada regra viu quebrado fica em inglês, como a escreveu: esperado/obtido)'],
  'baseline': ['observe: window {seq} is the history\'s baseline; changes from here on are alerted', 'observe: a janela {seq} é a referência do histórico; as mudanças a partir daqui são alertadas'],
  'confirmNext': ['observe: {clauses} failed after passing; the next window confirms it before an alert', 'observe: {clauses} reprovou depois de aprovar; a próxima janela confirma antes de um alerta'],
  'notSent': ['observe: the alert could not be sent to {url}: {detail}', 'observe: o alerta não pôde ser enviado a {url}: {detail}'],
  'report': ['Report: {dir}  (report.html, results.json, junit.xml{har})', 'Relatório: {dir}  (report.html, results.json, junit.xml{har})'],
} as const satisfies Record<string, Pair>

export const observeText = texts(OBSERVE_TEXTS)

/** `1 troca`, `2 trocas`: a count as the headline writes it (`1,203` too). */
const pl = (n: string, one: string, many: string): string => `${n} ${n === '1' ? one : many}`

// the headline and the head of a failure (report.ts) and observe's own flag errors (options.ts)
const PHRASES: readonly (readonly [RegExp, Replacement])[] = [
  [/^OBSERVED — /, 'OBSERVADO — '],
  [/(\S+) clauses? judged on (\S+) exchanges?, (\S+) failed \((\S+) not observed(?:; (\S+) kit errors?)?\)/,
    (_, judged: string, exchanges: string, failed: string, unobserved: string, errors?: string) =>
      `${pl(judged, 'cláusula julgada', 'cláusulas julgadas')} em ${pl(exchanges, 'troca', 'trocas')}, ${pl(failed, 'reprovada', 'reprovadas')} (${pl(unobserved, 'não observada', 'não observadas')}${errors ? `; ${pl(errors, 'erro do kit', 'erros do kit')}` : ''})`],
  [/: broken on (\d+) of (\d+) observations$/, ': quebrada em $1 de $2 observações'],
  [/^\+(\d+) more$/, '+$1 outras'],
  [/^kept on (\d+) observations?$/, (_, n: string) => `mantida em ${pl(n, 'observação', 'observações')}`],
  [/^the kit named a clause that is not in specs\/clauses\.yaml: (.+)$/, 'o kit citou uma cláusula que não está em specs/clauses.yaml: $1'],
  [/^is not a flag of observe \(see observe --help\)$/, 'não é uma flag de observe (veja observe --help)'],
  [/^is for --listen: a recording cannot be added to$/, 'é para --listen: não se pode acrescentar a uma gravação'],
  [/^caps --verify-reads: give --verify-reads too$/, 'limita --verify-reads: informe --verify-reads também'],
  [/^give --har FILE \(a recording\) or --listen PORT \(a live proxy\)$/, 'informe --har FILE (uma gravação) ou --listen PORT (um proxy ao vivo)'],
  [/^cannot be used with --har: observe judges either a recording or live traffic$/, 'não pode ser usado com --har: observe julga uma gravação ou o tráfego ao vivo'],
  [/^needs a third --listen port for the relay \(--listen PORT,PORT2,PORT3\)$/, 'exige uma terceira porta em --listen para o relay (--listen PORT,PORT2,PORT3)'],
  [/^a third port is the webhook relay's: give --relay-webhooks URL too$/, 'uma terceira porta é a do relay de webhooks: informe --relay-webhooks URL também'],
  [/^needs --db FILE \(the history it writes to\)$/, 'exige --db FILE (o histórico em que escreve)'],
  [/^is for --listen: a recording is judged as one window$/, 'é para --listen: uma gravação é julgada como uma só janela'],
  [/^the proxy needs the target settings \(PIX_BASE_URL, PIX_GATEWAY_URL\) to forward to$/, 'o proxy precisa das configurações do alvo (PIX_BASE_URL, PIX_GATEWAY_URL) para onde encaminhar'],
  [/^(".*") is not \[HOST:\]PORT\[,PORT2\[,PORT3\]\]$/, '$1 não é [HOST:]PORT[,PORT2[,PORT3]]'],
  [/^port (\d+) is above 65535$/, 'a porta $1 é maior que 65535'],
  [/^the base and gateway ports must differ \(or give one port for both\)$/, 'as portas da base e do gateway devem ser diferentes (ou informe uma só porta para as duas)'],
  [/^(".*") is not a duration of at least 1s \(30s, 15m, 1h\)$/, '$1 não é uma duração de ao menos 1s (30s, 15m, 1h)'],
  [/^(".*") is not an http\(s\) URL$/, '$1 não é uma URL http(s)'],
  [/^(".*") is not a number of look-ups a second above 0 and at most 50$/, '$1 não é um número de consultas por segundo acima de 0 e no máximo 50'],
  [/^cannot listen on (\S+) \(([^)]*)\)$/, 'não é possível escutar em $1 ($2)'],
  [/^needs a value$/, 'exige um valor'],
]

const phrase = byPattern(PHRASES)

/** Observe's headline in `lang`: `OBSERVADO — …`, or the verdict word of a failed session. */
export function observeHeadlineIn(lang: Lang, headline: string): string {
  if (lang === 'en') return headline
  const dash = headline.indexOf(' — ')
  if (dash < 0) return headline
  const head = headline.slice(0, dash)
  const rest = phrase(headline.slice(dash + 3), lang)
  return `${head === 'OBSERVED' ? 'OBSERVADO' : labelIn(lang, head)} — ${rest}`
}

/** One line observe wrote (a failure's head, an error of its flags: `--flag: …`) in `lang`. */
export function observeLineIn(lang: Lang, line: string): string {
  if (lang === 'en') return line
  const flag = /^(--[\w-]+|-h): (.*)$/.exec(line)
  return flag ? `${flag[1]}: ${phrase(flag[2]!, lang)}` : phrase(line, lang)
}

/**
 * The results as report.html shows them in `lang`: each check's title (`<clause>: <statement>`)
 * with the translated statement, the head of its message translated; what a rule saw stays.
 */
export function observeResultsIn<R extends Results>(lang: Lang, r: R): R {
  if (lang === 'en') return r
  return {
    ...r,
    checks: r.checks.map((c) => {
      const clause = c.clauses[0]
      const statement = clause && c.title.startsWith(`${clause}: `) ? c.title.slice(clause.length + 2) : undefined
      const [head = '', ...rest] = (c.message ?? '').split('\n')
      return {
        ...c,
        ...(clause && statement !== undefined ? { title: `${clause}: ${statementIn(lang, { id: clause, statement })}` } : {}),
        ...(c.message !== undefined ? { message: [observeLineIn(lang, head), ...rest.map((l) => observeLineIn(lang, l))].join('\n') } : {}),
      }
    }),
    errors: r.errors.map((e) => observeLineIn(lang, e)),
    verdict: { ...r.verdict, headline: observeHeadlineIn(lang, r.verdict.headline) },
  }
}
