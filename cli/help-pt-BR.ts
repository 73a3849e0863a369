// `--help` in Portuguese (pt-BR): the certification's usage, made from FLAGS with the descriptions
// of cli/flags.pt-BR.ts, and each subcommand's. `helpIn(lang, name, english)` gives the English text
// back unless pt-BR is asked (`--lang pt-BR` on the command line, else PIX_LANG). This file imports
// no usage text (cli/args.ts imports it): the English ones are passed in.
import { MAX_TIMEOUT_MS } from '../harness/config.ts'
import { HELP_INDENT, HELP_WIDTH, wrap } from './args.ts'
import { DEFAULTS, FLAGS, flagSyntax, type FlagRow } from './flags.ts'
import { DEFAULTS_PT, FLAG_HELP_PT } from './flags.pt-BR.ts'
import { langOf, type Lang } from './reporting/i18n.ts'
import type { Subcommand } from './subcommand.ts'

/** The language a command line asks for: its `--lang` (`--lang=`), else PIX_LANG. */
export function langOfArgv(argv: readonly string[], env: string | undefined = process.env.PIX_LANG): Lang {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!
    if (word === '--lang' && argv[i + 1] !== undefined) return langOf(argv[i + 1])
    if (word.startsWith('--lang=')) return langOf(word.slice('--lang='.length))
  }
  return langOf(env)
}

// the layout of cli/args.ts's --help: the same widths and wrapping, so both languages line up alike

/** A flag's Portuguese help with its default: "… (padrão: …)". */
export function flagHelpPt(r: Pick<FlagRow, 'flag' | 'help' | 'default'>): string {
  // a flag without its row (test/unit/cli/pt-br-consoles.test.ts fails on it) keeps its English help
  const text = FLAG_HELP_PT[r.flag] ?? { help: r.help }
  // the defaults of DEFAULTS are stated once, under "Padrões", as the English help does
  const given = r.default === undefined ? undefined : (Object.values(DEFAULTS) as string[]).includes(r.default) ? 'veja Padrões' : (text.default ?? r.default)
  return `${text.help}${given ? ` (padrão: ${given})` : ''}`
}

function flagLinesPt(r: FlagRow): string[] {
  const head = `  ${flagSyntax(r)}`
  const body = wrap(`${flagHelpPt(r)}${r.env ? ` [${r.env}]` : ''}`, HELP_WIDTH - HELP_INDENT)
  const first = head.length < HELP_INDENT - 1 ? [`${head.padEnd(HELP_INDENT)}${body.shift() ?? ''}`] : [head]
  return [...first, ...body.map((l) => `${' '.repeat(HELP_INDENT)}${l}`)]
}

function certifyUsagePt(table: readonly Subcommand[]): string {
  const certify = table.find((c) => c.name === 'certify')
  return [
    `Uso: pix-conformance ${certify?.synopsis ?? '[certify] [flags]'}     ${certify?.summaryPt ?? ''}`,
    ...table.filter((c) => c !== certify).map((c) => `       pix-conformance ${c.synopsis.length <= 24 ? c.synopsis.padEnd(26) : `${c.synopsis}   `}${c.summaryPt}`),
    '       (cada subcomando tem o seu próprio --help)',
    '',
    'Certifica um serviço PIX contra a interface. Sem arquivo --env e sem nenhuma configuração de alvo',
    'no ambiente (PIX_BASE_URL, PIX_GATEWAY_URL, credenciais, arquivos de certificado, …), inicia o',
    'alvo de referência embutido e o certifica; com qualquer um deles, PIX_BASE_URL é obrigatório. As',
    'flags prevalecem sobre o arquivo --env, que prevalece sobre o ambiente; [PIX_…] é a configuração',
    'que uma flag representa.',
    '',
    'Padrões:',
    ...Object.entries(DEFAULTS_PT).flatMap(([name, text]) => wrap(`${DEFAULT_NAMES_PT[name as keyof typeof DEFAULTS_PT]}: ${text}`, HELP_WIDTH - 6).map((w, i) => `${i === 0 ? '  ' : '      '}${w}`)),
    '',
    ...FLAGS.flatMap((r) => flagLinesPt(r)),
    '',
    'Códigos de saída: 0 nenhuma verificação reprovada (a manchete diz quanto foi verificado: APROVADO,',
    'ou INCOMPLETO quando verificações ficaram bloqueadas ou inconclusivas), 1 uma verificação reprovou',
    '(ou foi verificado menos do que --require-verified pede), 2 o alvo não pôde ser alcançado ou a',
    'configuração está errada.',
  ].join('\n')
}

const DEFAULT_NAMES_PT: Record<keyof typeof DEFAULTS_PT, string> = { profile: 'perfil', workers: 'workers', depth: 'profundidade', rate: 'taxa' }

const CHECK_DRIVER_PT = `Uso: pix-conformance check-driver --env FILE [--timeout MS]
     (no repositório: npm run conformance -- check-driver --env FILE)

Confere a API de controle de um sandbox (PIX_CONTROL_URL) contra specs/control.yaml: cada rota é
oferecida, recusada (501, 404, 405: o driver não a oferece), errada (uma resposta fora do
contrato) ou não conferida (a sua preparação falhou). Altera o sandbox: reinicia-o no começo e no
fim, e faz pagamentos, cobranças e boletos na conta principal.

  --env FILE          arquivo dotenv com PIX_CONTROL_URL e as configurações PIX_* do alvo
  --timeout MS        limite de tempo de cada requisição (1..${MAX_TIMEOUT_MS})
  --help              este texto

Códigos de saída: 0 toda rota que um fornecedor deve oferecer é oferecida, 1 caso contrário,
2 configuração errada.`

const DIFF_PT = `Uso: pix-conformance diff OLD NEW
     (no repositório: npm run conformance -- diff OLD NEW)

O que mudou por cláusula entre duas execuções (arquivos results.json ou suas pastas de relatório):
novas reprovações, novas aprovações, reprovadas por outro motivo, novas puladas, bloqueadas ou
inconclusivas; com um aviso quando as execuções diferem em versão do kit, specs, perfil,
profundidade, alvo ou escopo.

Códigos de saída: 0 nenhuma cláusula passou a reprovar, 1 alguma passou, 2 um arquivo falta ou
não é um results.json.`

const VERIFY_PT = `Uso: pix-conformance verify FILE [--key PUBKEY] [--results DIR]
     (no repositório: npm run conformance -- verify FILE)

Confere um certificado offline e imprime o que ele declara: a sua assinatura Ed25519 (com a chave
pública que embute, ou a informada) e, com --results, os vereditos e os resumos das evidências
contra o results.json daquela execução.

  --key PUBKEY        arquivo PEM da chave pública com que o certificado deve estar assinado
  --results DIR       a pasta de relatório da execução (ou o seu results.json)
  --help              este texto

Códigos de saída: 0 verificado, 1 um problema foi encontrado (cada um é listado), 2 uso incorreto.`

const INIT_PT = `Uso: pix-conformance init [--file target.env] [--force]
     (no repositório: npm run conformance -- init)

Escreve um arquivo dotenv comentado com todas as configurações PIX_*, as obrigatórias primeiro, e
diz quais verificações cada configuração opcional habilita. Nunca sobrescreve um arquivo, a menos
que --force seja informado.

  --file FILE         onde escrever (padrão target.env)
  --force             sobrescreve um arquivo existente
  --help              este texto`

const REPRO_PT = `Uso: pix-conformance repro <check-id> --from <run-dir> [--out FILE]
     (no repositório: npm run conformance -- repro <check-id> --from reports/<run-id>)

Escreve um script Node independente (nenhum pacote necessário) que repete as requisições da
verificação reprovada contra o alvo e afirma a regra que ela quebrou: sai com 1 enquanto o alvo
ainda a quebra, 0 quando ela vale, 2 quando não conseguiu chegar até lá. Lê PIX_BASE_URL,
PIX_GATEWAY_URL, PIX_CLIENT_ID, PIX_CLIENT_SECRET, PIX_API_KEY (…) do ambiente; o arquivo não
guarda nenhum segredo.

  <check-id>          o id da verificação como o relatório o indica (área/arquivo::título), o seu
                      hash, ou uma parte dele que indique uma só verificação reprovada
  --from DIR          a pasta de relatório da execução (ou o seu results.json)
  --out FILE          onde escrever (padrão <run-dir>/repro/<hash>.mjs)
  --help              este texto

Códigos de saída: 0 escrito, 2 uso incorreto ou verificação reprovada inexistente.`

/** The subcommands whose usage this file translates. */
export const HELP_NAMES = ['certify', 'check-driver', 'diff', 'verify', 'init', 'repro'] as const
export type HelpName = (typeof HELP_NAMES)[number]

/** A command's --help in `lang`; `english` is returned as it is for English. */
export function helpIn(lang: Lang, name: HelpName, english: string, table: readonly Subcommand[] = []): string {
  if (lang === 'en') return english
  if (name === 'certify') return certifyUsagePt(table)
  return { 'check-driver': CHECK_DRIVER_PT, diff: DIFF_PT, verify: VERIFY_PT, init: INIT_PT, repro: REPRO_PT }[name]
}
