// The receiver run in the language of --lang (PIX_LANG): its console (console.ts, main.ts) and its
// report.html. The kit words the cases, their reasons and the verdict once, in English, and
// results.json keeps those (check ids are made of the titles); the console and report.html show
// them translated phrase by phrase here. Values — notification labels (V1 PAID), statuses, payment
// ids, URLs, flags — stay as they are. The clause statements come from specs/clauses.pt-BR.yaml.
import { statementIn } from '../../generators/clauses.ts'
import { consoleMessageIn } from '../console-messages-pt-BR.ts'
import { texts, type Pair, type Replacement } from '../reporting/i18n-tables.ts'
import { currentLang, labelIn, type Lang } from '../reporting/i18n.ts'
import type { Results } from '../reporting/types.ts'

export const RECEIVER_TEXTS = {
  'start': ['Making payments at {provider} and delivering its notifications to {url} as a provider would', 'Fazendo pagamentos {provider} e entregando as suas notificações a {url} como um provedor faria'],
  'line': ['seed {seed} · answer within {ms} ms · {retries} redeliveries · probe {probe} · run {run}', 'semente {seed} · resposta em até {ms} ms · {retries} reentregas · sonda {probe} · execução {run}'],
  'noProbe': ['(none: recorded-once and forgeries not checked)', '(nenhuma: registro único e falsificações não conferidos)'],
  'envOut': ['the provider\'s API and credentials for your receiver: {file}', 'a API e as credenciais do provedor para o seu receptor: {file}'],
  'envFile': ['your receiver checks notifications with the sandbox of {file}, as its primary account (PIX_CLIENT_ID)', 'o seu receptor confere as notificações com o sandbox de {file}, como a sua conta principal (PIX_CLIENT_ID)'],
  'noEnvOut': ['no --env-out: your receiver is not told the provider\'s API, so it cannot check a notification with it', 'sem --env-out: o seu receptor não recebe a API do provedor, então não pode conferir uma notificação com ela'],
  'forged': ['forged, delivered ({answer}); judged from the probe at the end', 'forjada, entregue ({answer}); julgada pela sonda no fim'],
  'httpIn': ['HTTP {status} in {ms} ms', 'HTTP {status} em {ms} ms'],
  'allAnswered': ['{n} × 200, last in {ms} ms', '{n} × 200, a última em {ms} ms'],
  'failures': ['Failures ({n}):', 'Falhas ({n}):'],
  'report': ['Report: {dir}  (report.html, results.json, junit.xml)', 'Relatório: {dir}  (report.html, results.json, junit.xml)'],
} as const satisfies Record<string, Pair>

export const receiverText = texts(RECEIVER_TEXTS)

type Rule = readonly [RegExp, Replacement]

const times = (n: string): string => (n === '1' ? '1 vez' : `${n} vezes`)

// longest and most particular first: a case title, then the parts messages are made of
const PHRASES: readonly Rule[] = [
  // case titles (cases.ts)
  [/V1 REFUND \(REFUND_IN and REFUND_OUT are notified as REFUND\)/g, 'V1 REFUND (REFUND_IN e REFUND_OUT são notificados como REFUND)'],
  [/the same (.+?) notification twice at once/g, 'a mesma notificação $1 duas vezes ao mesmo tempo'],
  [/the same (.+?) notification twice/g, 'a mesma notificação $1 duas vezes'],
  [/a V1 PAID notification resent after the others/g, 'uma notificação V1 PAID reenviada depois das outras'],
  [/bank slip PAID before its WAITING_PAYMENT/g, 'boleto PAID antes do seu WAITING_PAYMENT'],
  [/V1 PAID before PENDING of the same transaction/g, 'V1 PAID antes do PENDING da mesma transação'],
  [/a V1 PAID notification whose body arrives slowly/g, 'uma notificação V1 PAID cujo corpo chega devagar'],
  [/a V1 PAID notification delivered again after the sender stopped waiting/g, 'uma notificação V1 PAID entregue de novo depois que o remetente deixou de esperar'],
  [/a V1 PAID of a payment the provider does not have/g, 'um V1 PAID de um pagamento que o provedor não tem'],
  [/a V1 PAID whose value differs from the provider's record/g, 'um V1 PAID cujo valor difere do registro do provedor'],
  [/a V1 PAID of another account's payment/g, 'um V1 PAID do pagamento de outra conta'],
  [/an old V1 PENDING replayed as PAID/g, 'um antigo V1 PENDING reenviado como PAID'],
  [/: each payment recorded once/g, ': cada pagamento registrado uma vez'],
  [/each payment recorded exactly once/g, 'cada pagamento registrado exatamente uma vez'],
  [/asked the provider about the forged notifications/g, 'consultou o provedor sobre as notificações forjadas'],
  // why a forgery is false
  [/the provider has no transaction with this transactionId, businessTransactionId or endToEndId/g, 'o provedor não tem transação com este transactionId, businessTransactionId ou endToEndId'],
  [/the payment exists, for (\S+) less than the notification says/g, 'o pagamento existe, com $1 a menos do que a notificação diz'],
  [/the payment exists, in another account than the one whose credentials the receiver holds/g, 'o pagamento existe, numa conta diferente daquela cujas credenciais o receptor tem'],
  [/the cash-in is still PENDING at the provider; the kit changed the status of its earlier notification/g, 'o cash-in continua PENDING no provedor; o kit mudou o status da sua notificação anterior'],
  [/the provider could not make the payment this forgery needs/g, 'o provedor não conseguiu fazer o pagamento de que esta falsificação precisa'],
  // the steps (what was delivered)
  [/the first delivery of V1 PAID \(the kit stops waiting for its answer\)/g, 'a primeira entrega de V1 PAID (o kit deixa de esperar a resposta)'],
  [/the second delivery of the same /g, 'a segunda entrega da mesma notificação '],
  [/the first delivery of /g, 'a primeira entrega de '],
  [/the other of two simultaneous deliveries of /g, 'a outra de duas entregas simultâneas de '],
  [/one of two simultaneous deliveries of /g, 'uma de duas entregas simultâneas de '],
  [/the original V1 PAID/g, 'o V1 PAID original'],
  [/the resend of the same V1 PAID \(after the other notifications\)/g, 'o reenvio do mesmo V1 PAID (depois das outras notificações)'],
  [/bank slip PAID, sent before the slip was notified as registered/g, 'boleto PAID, enviado antes de o boleto ser notificado como registrado'],
  [/the bank slip WAITING_PAYMENT that arrives after its PAID/g, 'o boleto WAITING_PAYMENT que chega depois do seu PAID'],
  [/V1 PAID, sent first/g, 'V1 PAID, enviado primeiro'],
  [/the V1 PENDING of the same transaction, arriving after its PAID/g, 'o V1 PENDING da mesma transação, que chega depois do seu PAID'],
  [/V1 PAID sent slowly, in pieces/g, 'V1 PAID enviado devagar, em partes'],
  [/the redelivery of the same V1 PAID/g, 'a reentrega do mesmo V1 PAID'],
  [/the forged ((?:V\d|bank slip) [A-Z_]+(?: with unknown fields)?)/g, 'a notificação forjada $1'],
  [/the ((?:V\d|bank slip) [A-Z_]+(?: with unknown fields)?) notification/g, 'a notificação $1'],
  // answers and expectations (verdicts.ts, delivery.ts, probe.ts)
  [/answered (\d+) after (\d+) ms/g, 'respondeu $1 após $2 ms'],
  [/; expected 200 within (\d+) ms/g, '; esperado 200 em até $1 ms'],
  [/no answer within (\d+) ms of the first byte \(the body could not be sent\)/g, 'nenhuma resposta em até $1 ms do primeiro byte (o corpo não pôde ser enviado)'],
  [/no answer within (\d+) ms/g, 'nenhuma resposta em até $1 ms'],
  [/the kit stopped waiting (\d+) ms after sending, as a provider whose timeout ran out/g, 'o kit deixou de esperar $1 ms após o envio, como um provedor cujo tempo limite se esgotou'],
  [/the probe reports payment (\S+) recorded (\d+) times? after (\d+) deliver(?:y|ies) of it; expected exactly once/g, (_: string, id: string, n: string, d: string) => `a sonda informa o pagamento ${id} registrado ${times(n)} após ${d} ${d === '1' ? 'entrega' : 'entregas'} dele; esperado exatamente uma vez`],
  [/the probe reports payment (\S+) recorded (\d+) times?, but the provider never sent this notification: /g, (_: string, id: string, n: string) => `a sonda informa o pagamento ${id} registrado ${times(n)}, mas o provedor nunca enviou esta notificação: `],
  [/; a receiver that checks with the provider records nothing/g, '; um receptor que confere com o provedor não registra nada'],
  [/the probe \(--probe-url\) answered (\d+), not 200/g, 'a sonda (--probe-url) respondeu $1, não 200'],
  [/the probe \(--probe-url\) /g, 'a sonda (--probe-url) '],
  [/no delivery of payment (.+?) was answered 2xx, so the receiver need not have recorded it/g, 'nenhuma entrega do pagamento $1 foi respondida com 2xx, então o receptor não precisava tê-lo registrado'],
  [/no forged notification was delivered/g, 'nenhuma notificação forjada foi entregue'],
  [/the provider keeps no request log the kit can read \(GET \/control\/requests, optional\)/g, 'o provedor não mantém um log de requisições que o kit possa ler (GET /control/requests, opcional)'],
  [/needs --probe-url: a URL of yours that reports what the receiver recorded/g, 'exige --probe-url: uma URL sua que informa o que o receptor registrou'],
  [/the interface does not show the TRANSFER payload \(§6\.2\); the provider chose one, which this receiver may legitimately not know/g, 'a interface não mostra o payload de TRANSFER (§6.2); o provedor escolheu um, que este receptor pode legitimamente não conhecer'],
  // the provider could not make a case (payments.ts)
  [/the provider sent no (.+?) notification of the payment within (\d+) s/g, 'o provedor não enviou nenhuma notificação $1 do pagamento em $2 s'],
  [/the provider answered (.+?) with (\S+)/g, 'o provedor respondeu a $1 com $2'],
  [/the provider's control API refused (.+?): /g, 'a API de controle do provedor recusou $1: '],
  [/no second account \(PIX_OTHER_CLIENT_ID\) to make another account's payment in/g, 'nenhuma segunda conta (PIX_OTHER_CLIENT_ID) em que fazer o pagamento de outra conta'],
  // the verdict (verdicts.ts receiverVerdict)
  [/verifying receiver \(it refused every forged notification\)/g, 'receptor que confere (recusou toda notificação forjada)'],
  [/trusting receiver \(it recorded a notification the provider never sent\)/g, 'receptor que confia (registrou uma notificação que o provedor nunca enviou)'],
  [/profile undetermined \(the forged notifications, or the recording of the genuine ones, were not judged\)/g, 'perfil indeterminado (as notificações forjadas, ou o registro das genuínas, não foram julgados)'],
  [/(\d+) of (\d+) receiver clauses verified/g, '$1 de $2 cláusulas do receptor verificadas'],
  [/(R\.[\w-]+(?:, R\.[\w-]+)*) failed(?=;|\))/g, (_: string, ids: string) => `${ids} ${ids.includes(',') ? 'reprovadas' : 'reprovada'}`],
  [/(\d+) not reached/g, (_: string, n: string) => `${n} ${n === '1' ? 'não alcançada' : 'não alcançadas'}`],
  [/(\d+) inconclusive/g, (_: string, n: string) => `${n} ${n === '1' ? 'inconclusiva' : 'inconclusivas'}`],
  [/(\d+) blocked/g, (_: string, n: string) => `${n} ${n === '1' ? 'bloqueada' : 'bloqueadas'}`],
  [/(\d+) need --probe-url/g, (_: string, n: string) => `${n} ${n === '1' ? 'exige' : 'exigem'} --probe-url`],
  [/(\d+) without a check/g, '$1 sem verificação'],
  // the provider and its setup (provider.ts)
  // the provider where payments are made (the start line says "at" in English: "na", "no" here)
  [/^the embedded reference$/g, 'na referência embutida'],
  [/^the sandbox of (.+)$/g, 'no sandbox de $1'],
  [/cannot write (\S+) \(([^)]*)\)/g, 'não é possível escrever $1 ($2)'],
  [/PIX_CONTROL_URL is not set: the kit makes its payments through the sandbox control API \(specs\/control\.yaml\)/g, 'PIX_CONTROL_URL não está definido: o kit faz os seus pagamentos pela API de controle do sandbox (specs/control.yaml)'],
  [/; the provider's notifications come to the kit first/g, '; as notificações do provedor chegam primeiro ao kit'],
  [/the provider's control API could not be used: /g, 'a API de controle do provedor não pôde ser usada: '],
  [/the receiver (\S+) cannot be reached: /g, 'o receptor $1 não pode ser alcançado: '],
  [/the probe (\S+) answered (\d+), not 200/g, 'a sonda $1 respondeu $2, não 200'],
  [/\(it must answer 200 with (.+)\)$/g, '(ela deve responder 200 com $1)'],
  [/is required: the receiver's webhook endpoint/g, 'é obrigatório: o endpoint de webhook do receptor'],
  [/is needed with the other: a certificate is presented with its key/g, 'é exigido junto com o outro: um certificado é apresentado com a sua chave'],
  [/(".*?") must be a path that starts with \//g, '$1 deve ser um caminho que começa com /'],
  // a notification's label
  [/\bbank slip\b/g, 'boleto'],
  [/ with unknown fields/g, ' com campos desconhecidos'],
]

/** A text the receiver run wrote (a title, a reason, a message's specifics, its headline) in `lang`. */
export function receiverIn(lang: Lang, text: string): string {
  if (lang === 'en') return text
  let out = text
  for (const [pattern, pt] of PHRASES) out = out.replace(pattern, pt as string)
  return consoleMessageIn(lang, out)  // a network error (harness/http.ts), a flag's value
}

/** The headline: its verdict word as i18n.ts words it, the rest phrase by phrase. */
export function receiverHeadlineIn(lang: Lang, headline: string): string {
  if (lang === 'en') return headline
  const dash = headline.indexOf(' — ')
  return dash < 0 ? receiverIn(lang, headline) : `${labelIn(lang, headline.slice(0, dash))} — ${receiverIn(lang, headline.slice(dash + 3))}`
}

/**
 * A failure message (`<clause> — <statement>\n<specifics>`) in `lang`: the statement from the
 * clause catalogue's translation, the specifics phrase by phrase.
 */
function messageIn(lang: Lang, message: string): string {
  const [head = '', ...rest] = message.split('\n')
  const m = /^(R\.[\w-]+)(?: — (.*))?$/.exec(head)
  const first = m ? `${m[1]}${m[2] ? ` — ${statementIn(lang, { id: m[1]!, statement: m[2] })}` : ''}` : receiverIn(lang, head)
  return [first, ...rest.map((l) => receiverIn(lang, l))].join('\n')
}

/** The results as a person reads them in `lang` (report.html, the console); ids and values kept. */
export function receiverResultsIn(lang: Lang = currentLang(), r: Results): Results {
  if (lang === 'en') return r
  return {
    ...r,
    checks: r.checks.map((c) => ({
      ...c,
      title: receiverIn(lang, c.title),
      ...(c.message !== undefined ? { message: messageIn(lang, c.message) } : {}),
      ...(c.reason !== undefined ? { reason: receiverIn(lang, c.reason) } : {}),
      ...(c.skipReason !== undefined ? { skipReason: receiverIn(lang, c.skipReason) } : {}),
    })),
    verdict: { ...r.verdict, headline: receiverHeadlineIn(lang, r.verdict.headline) },
  }
}
