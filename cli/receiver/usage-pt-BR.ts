// `pix-conformance receiver --help` in Portuguese (pt-BR), flag by flag as options.ts lists them;
// test/unit/cli/pt-br-consoles.test.ts holds both texts to the same flags.
import { MAX_SEED } from '../flags.ts'
import type { Lang } from '../reporting/i18n.ts'
import { DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS } from './options.ts'

const FLAGS_PT: readonly [flag: string, help: string][] = [
  ['--url URL', 'o endpoint de webhook do receptor (http ou https), obrigatório'],
  ['--probe-url URL', 'um endpoint GET seu que informa o que o receptor registrou:\n{ "recorded": [ { "id": "<id do pagamento>", "count": N } ] } (docs/RECEIVER.md)'],
  ['--env-out FILE', 'escreve ali o endereço da API e as credenciais do provedor, para o seu receptor\nconferir cada notificação (PIX_BASE_URL, PIX_CLIENT_ID, …); removido quando a execução termina'],
  ['--env FILE', 'um sandbox de provedor com API de controle (o arquivo de configurações de uma\ncertificação) em vez da referência embutida'],
  ['--path-suffix PATH', 'acrescentado ao caminho de --url em cada entrega (provedores que acrescentam /pix)'],
  ['--timeout MS', `tempo que o receptor tem para responder cada notificação (padrão ${DEFAULT_TIMEOUT_MS})`],
  ['--retries N', `reentregas de uma notificação não respondida com 2xx a tempo (padrão ${DEFAULT_RETRIES})`],
  ['--ca FILE', 'certificado(s) PEM em que confiar para um receptor https (e a sonda)'],
  ['--client-cert FILE', 'certificado PEM a apresentar, como fazem os provedores que entregam por mTLS'],
  ['--client-key FILE', 'a sua chave privada (PEM); informada junto com --client-cert'],
  ['--report-dir DIR', 'onde fica reports/<run-id>/ (padrão: reports/)'],
  ['--seed N', `semente dos valores e nomes dos pagamentos (0..${MAX_SEED}); os ids são novos a cada execução`],
  ['--lang LANG', 'en ou pt-BR: o idioma do console e do report.html (padrão: PIX_LANG, senão en)'],
]

const flagLines = FLAGS_PT.map(([flag, help]) => {
  const [first, ...rest] = help.split('\n')
  return [`  ${flag.padEnd(20)}${first}`, ...rest.map((l) => `${' '.repeat(22)}${l}`)].join('\n')
}).join('\n')

const RECEIVER_USAGE_PT = `Uso: pix-conformance receiver --url URL [flags]
     (no repositório: npm run conformance -- receiver --url URL [flags])

Faz o papel de um provedor contra o SEU receptor de webhooks. O kit executa o provedor (a
referência embutida, ou o sandbox de --env), faz pagamentos reais nele e entrega as notificações
do provedor sobre eles: todo tipo do §6, depois duas vezes, atrasadas, fora de ordem, com campos
desconhecidos, devagar e de novo depois de deixar de esperar. Depois, notificações que o provedor
nunca enviou (um pagamento que não existe, um valor alterado, o pagamento de outra conta, uma
notificação antiga com o status alterado): um receptor que confere cada notificação com o
provedor (--env-out) não registra nenhuma delas. O relatório diz que receptor ele é: que confere
ou que confia. Guia: docs/RECEIVER.md.

${flagLines}
  --help              este texto

Códigos de saída: 0 nenhuma cláusula do receptor reprovada, 1 uma cláusula reprovada, 2 opções
erradas, ou o receptor, a sonda ou o provedor não puderam ser usados.`

/** The receiver's --help in `lang`; `english` as it is for English. */
export function receiverUsageIn(lang: Lang, english: string): string {
  return lang === 'pt-BR' ? RECEIVER_USAGE_PT : english
}
