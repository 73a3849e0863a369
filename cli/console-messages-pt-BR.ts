// The messages a person sees before a run can start or beside it — a bad flag (cli/flags.ts,
// cli/args.ts), a config error (harness/config.ts, cli/setting-names.ts), a preflight refusal or
// warning (cli/preflight.ts, cli/url-mistakes.ts, cli/clock-skew.ts), "did you mean" — in
// Portuguese. Those are worded once, in English, where they are decided and composed of parts; the
// parts are translated here, phrase by phrase, longest first. Values (settings, flags, URLs,
// statuses, file names) are captured and kept as they are. A phrase not listed stays in English.
import type { Lang } from './reporting/i18n.ts'

const V = String.raw`("[^"]*"|\S+)`  // a value as the messages quote it

const PHRASES: readonly (readonly [RegExp, string | ((...m: string[]) => string)])[] = [
  // did-you-mean and the flags' parsers
  [/; did you mean (\S+)\?/g, '; você quis dizer $1?'],
  [/unknown flag of (\S+)/g, 'flag desconhecida de $1'],
  [/unknown flag for (\S+)/g, 'flag desconhecida de $1'],
  [/unknown flag/g, 'flag desconhecida'],
  [/unknown command/g, 'comando desconhecido'],
  [/\(the commands: ([^;]+); flags start with --; see --help\)/g, '(os comandos: $1; as flags começam com --; veja --help)'],
  [/unexpected argument to (\S+) \(see (\S+) --help\)/g, 'argumento inesperado para $1 (veja $2 --help)'],
  [/unexpected argument \(flags start with --; see --help\)/g, 'argumento inesperado (as flags começam com --; veja --help)'],
  [/unexpected argument \(see --help\)/g, 'argumento inesperado (veja --help)'],
  [/\(see (\S+) --help\)/g, '(veja $1 --help)'],
  [/\(see --help\)/g, '(veja --help)'],
  [/needs at least one report folder/g, 'exige ao menos uma pasta de relatório'],
  [/needs a value/g, 'exige um valor'],
  [/takes no value/g, 'não aceita valor'],
  [new RegExp(`${V} is not a whole number`, 'g'), '$1 não é um número inteiro'],
  [new RegExp(`${V} is not an integer`, 'g'), '$1 não é um número inteiro'],
  [/(\S+) must be between (\S+) and (\S+)/g, '$1 deve estar entre $2 e $3'],
  [new RegExp(`${V} must be (.+?) or (\\S+)$`, 'gm'), '$1 deve ser $2 ou $3'],
  [new RegExp(`${V} is not an area name \\(a folder under suites/\\)`, 'g'), '$1 não é um nome de área (uma pasta em suites/)'],
  [/needs an area name/g, 'exige um nome de área'],
  [new RegExp(`${V} is not a suite file \\(<area>/<name>\\.test\\.ts, relative to suites/\\)`, 'g'), '$1 não é um arquivo de suíte (<área>/<nome>.test.ts, relativo a suites/)'],
  [/needs a suite file/g, 'exige um arquivo de suíte'],
  [new RegExp(`${V} is not a tag \\(letters, digits, \\. : _ -\\)`, 'g'), '$1 não é uma tag (letras, dígitos, . : _ -)'],
  [/needs a tag/g, 'exige uma tag'],
  [new RegExp(`no check carries the tag ${V}`, 'g'), 'nenhuma verificação tem a tag $1'],
  [/\(the tags: ([^)]*)\)/g, '(as tags: $1)'],
  [new RegExp(`${V} must be I/N with 1 <= I <= N, for example 1/3`, 'g'), '$1 deve ser I/N com 1 <= I <= N, por exemplo 1/3'],
  [new RegExp(`${V} is not a URL`, 'g'), '$1 não é uma URL'],
  [/must be an http or https URL, got (\S+)/g, 'deve ser uma URL http ou https, recebido $1'],
  [new RegExp(`${V} must be an http or https URL`, 'g'), '$1 deve ser uma URL http ou https'],
  [/needs two results files \(or report folders\)/g, 'exige dois arquivos de resultados (ou pastas de relatório)'],
  [/needs one certificate file/g, 'exige um arquivo de certificado'],
  [/cannot write reports under (\S+) \(it is not a folder\)/g, 'não é possível escrever relatórios em $1 (não é uma pasta)'],
  [/cannot write reports under (\S+)/g, 'não é possível escrever relatórios em $1'],

  // the selection flags (cli/conformance.ts, cli/list.ts, cli/extension.ts)
  [/unknown area ("[^"]*") \(known: ([^)]*)\)/g, 'área desconhecida $1 (as conhecidas: $2)'],
  [/no suite file (\S+?)(?:; the closest: (.+))?$/gm, (_, file: string, closest?: string) => `nenhum arquivo de suíte ${file}${closest ? `; os mais próximos: ${closest}` : ''}`],
  [/(\S+) is not in the areas given by --area \(([^)]*)\)/g, '$1 não está nas áreas dadas por --area ($2)'],
  [/("[^"]*") matches no check id: there is no (\S+); the closest ids: (.+) \(--list prints them all\)/g, '$1 não corresponde a nenhum id de verificação: não existe $2; os ids mais próximos: $3 (--list imprime todos)'],
  [/("[^"]*") matches no check id or title; the closest ids: (.+) \(--list prints them all\)/g, '$1 não corresponde a nenhum id ou título de verificação; os ids mais próximos: $2 (--list imprime todos)'],
  [/("[^"]*") matches no check id or title \(--list prints them all\)/g, '$1 não corresponde a nenhum id ou título de verificação (--list imprime todos)'],
  [/needs --clauses FILE: the catalogue of the clauses its checks name/g, 'exige --clauses FILE: o catálogo das cláusulas que as suas verificações citam'],
  [/(\S+) is not a folder/g, '$1 não é uma pasta'],
  [/no \*\.test\.ts file under (\S+)/g, 'nenhum arquivo *.test.ts em $1'],
  [/: clause (\S+) is in neither specs\/clauses\.yaml nor (\S+)/g, ': a cláusula $1 não está nem em specs/clauses.yaml nem em $2'],

  // report folders given to --compare, diff, --merge, --waivers (cli/reporting/diff.ts, merge.ts, waivers.ts)
  [/no results\.json (?:at|in) (\S+)/g, 'nenhum results.json em $1'],
  [/(\S+) is not readable JSON \((.*)\)$/gm, '$1 não é um JSON legível ($2)'],
  [/(\S+) is not valid JSON \((.*)\)$/gm, '$1 não é um JSON válido ($2)'],
  [/(\S+) is not a conformance results\.json/g, '$1 não é um results.json de conformidade'],
  [/give at least one report folder/g, 'informe ao menos uma pasta de relatório'],
  [/(\S+) certified (\S+), (\S+) certified (\S+)/g, '$1 certificou $2, $3 certificou $4'],
  [/(\S+) ran profile (\S+), (\S+) ran (\S+)$/gm, '$1 executou o perfil $2, $3 executou $4'],
  [/(\S+) ran seed (\S+), (\S+) ran seed (\S+): shards of one run share a seed/g, '$1 executou a semente $2, $3 executou a semente $4: as frações de uma execução compartilham a semente'],
  [/(\S+) ran kit (\S+) \(specs (\S+)\), (\S+) ran kit (\S+) \(specs (\S+)\)/g, '$1 executou o kit $2 (specs $3), $4 executou o kit $5 (specs $6)'],
  [/the shards split the run differently \(([^)]*)\)/g, 'as frações dividem a execução de modos diferentes ($1)'],
  [/cannot read (\S+) \(([^)]*)\)/g, 'não é possível ler $1 ($2)'],

  // the monitor's and history's own flags (cli/monitor/options.ts)
  [/("[^"]*") is not a duration \(for example 30s, 15m, 1h, 30d\)/g, '$1 não é uma duração (por exemplo 30s, 15m, 1h, 30d)'],
  [/("[^"]*") is not a port or HOST:PORT/g, '$1 não é uma porta nem HOST:PORT'],
  [/is not for a monitor \(each run is a whole certification of its own\)/g, 'não é para um monitor (cada execução é uma certificação completa)'],
  [/("[^"]*") is not a positive integer/g, '$1 não é um número inteiro positivo'],
  [/("[^"]*") is not an http\(s\) URL/g, '$1 não é uma URL http(s)'],
  [/no history at (\S+) \(a monitor writes it; --db names another\)/g, 'nenhum histórico em $1 (um monitor o escreve; --db indica outro)'],

  // harness/config.ts and the setting names
  [/is required but not set \(the --env file (\S+) does not set it\)/g, 'é obrigatório, mas não está definido (o arquivo --env $1 não o define)'],
  [/is required but not set \((.+?) (is|are) set, so a target is meant\)/g, (_, names: string, verb: string) => `é obrigatório, mas não está definido (${names} ${verb === 'is' ? 'está definido' : 'estão definidos'}, então se pretende certificar um alvo)`],
  [/; the embedded reference is certified only without --env and without any target setting/g, '; a referência embutida só é certificada sem --env e sem nenhuma configuração de alvo'],
  [/is required but not set/g, 'é obrigatório, mas não está definido'],
  [/is required by check-driver but not set/g, 'é exigido por check-driver, mas não está definido'],
  [/is required with the other: the capture server needs both its certificate and its key/g, 'é exigido junto com o outro: o servidor de captura precisa do certificado e da chave'],
  [/is required with (.+?): a balance account needs its client id, secret and API key/g, 'é exigido com $1: uma conta de saldo precisa do client id, do secret e da chave de API'],
  [/is the same as (\S+): a balance account must be one that no other check uses/g, 'é igual a $1: uma conta de saldo deve ser uma que nenhuma outra verificação usa'],
  [/is required with PIX_CERT_MODE=transport \(the certificate and key the kit presents at the socket\)/g, 'é exigido com PIX_CERT_MODE=transport (o certificado e a chave que o kit apresenta no socket)'],
  [/must be an https:\/\/ URL \(resend delivers only to HTTPS, §4\.12\), got (\S+)/g, 'deve ser uma URL https:// (o reenvio entrega só por HTTPS, §4.12), recebido $1'],
  [new RegExp(`must be (.+?), got ${V}`, 'g'), (_, choices: string, got: string) => `deve ser ${choices.replace(/ or /g, ' ou ')}, recebido ${got}`],
  [/must be a JSON object of reasons by need \(the CLI writes it\)/g, 'deve ser um objeto JSON de motivos por necessidade (a CLI o escreve)'],
  [new RegExp(`${V} must be 1/true or 0/false`, 'g'), '$1 deve ser 1/true ou 0/false'],
  [/file (\S+) does not exist/g, 'o arquivo $1 não existe'],
  [/file (\S+) cannot be read \(([^)]*)\)/g, 'o arquivo $1 não pode ser lido ($2)'],
  [/file (\S+) is not a PEM certificate \(no BEGIN CERTIFICATE block\)/g, 'o arquivo $1 não é um certificado PEM (sem bloco BEGIN CERTIFICATE)'],
  [/file (\S+) is not a PEM private key/g, 'o arquivo $1 não é uma chave privada PEM'],
  [/file (\S+) holds no private key: PIX_CERT_MODE=transport presents it at the socket, so the file must hold the certificate and its key/g, 'o arquivo $1 não contém chave privada: PIX_CERT_MODE=transport o apresenta no socket, então o arquivo deve conter o certificado e a chave'],
  [/(\S+) is a directory, not a file/g, '$1 é uma pasta, não um arquivo'],
  [/(\S+) is not a regular file/g, '$1 não é um arquivo comum'],
  [/(\S+) sets a setting the kit does not know/g, '$1 define uma configuração que o kit não conhece'],
  [/\(pix-conformance init writes every setting; an extension's own begin PIX_X_\)/g, '(pix-conformance init escreve todas as configurações; as de uma extensão começam com PIX_X_)'],
  // harness/config.ts workerCountFor: why the run has the workers it has
  [/^no more than --max-in-flight (\S+)$/g, 'não mais que --max-in-flight $1'],
  [/^the target's fastest answer took (\S+) ms$/g, 'a resposta mais rápida do alvo levou $1 ms'],
  // harness/http.ts describeNetworkError: why a request got no answer
  [/\bconnection refused\b/g, 'conexão recusada'],
  [/\bconnection reset by the target\b/g, 'conexão reiniciada pelo alvo'],
  [/\bhost not found\b/g, 'host não encontrado'],
  [/\bhost lookup failed\b/g, 'falha ao resolver o host'],
  [/\bconnection timed out\b/g, 'tempo de conexão esgotado'],
  [/\bhost unreachable\b/g, 'host inalcançável'],
  [/\bconnection closed by the target\b/g, 'conexão fechada pelo alvo'],
  [/\bno response headers in time\b/g, 'nenhum cabeçalho de resposta a tempo'],
  [/\bresponse body stalled\b/g, 'corpo da resposta parado'],
  [/embedded reference did not start/g, 'a referência embutida não iniciou'],
  [/target unreachable/g, 'alvo inalcançável'],

  // the preflight (cli/preflight.ts, cli/url-mistakes.ts)
  [/\(with (\S+)\) is refused by/g, '(com $1) é recusado por'],
  [/ answer(?:ed|s) (\S+(?: \([^)]*\))?) and (GET|POST) /g, (w: string, status: string, method: string) => `${w.startsWith(' answered') ? ' respondeu' : ' responde'} ${status} e ${method} `],
  [/ is refused by /g, ' é recusado por '],
  [/ \(the route is there: without credentials it answers (\S+)\)/g, ' (a rota existe: sem credenciais ela responde $1)'],
  [/(\S+) and (\S+) are swapped: /g, '$1 e $2 estão trocados: '],
  [/(\S+) and (\S+) do not serve this interface: /g, '$1 e $2 não servem esta interface: '],
  [/(\S+) does not serve this interface: /g, '$1 não serve esta interface: '],
  [/ while the gateway answers /g, ' enquanto o gateway responde '],
  [/ while the token endpoint answers/g, ' enquanto o endpoint de token responde'],
  [/is a path prefix missing or extra \(the routes start at (\S+) and (\S+)\)\?/g, 'falta ou sobra um prefixo de caminho (as rotas começam em $1 e $2)?'],
  [/is a path prefix missing or extra/g, 'falta ou sobra um prefixo de caminho'],
  [/the path prefix (\S+) is extra: /g, 'o prefixo de caminho $1 está sobrando: '],
  [/the token endpoint answers at (\S+)'s address: /g, 'o endpoint de token responde no endereço de $1: '],
  [/the gateway's routes answer at (\S+)'s address: /g, 'as rotas do gateway respondem no endereço de $1: '],
  [/\(is (\S+) (\S+)\?\)/g, '($1 seria $2?)'],
  [/ \(its path is (\S+)\)/g, ' (o seu caminho é $1)'],
  [/, while /g, ', enquanto '],
  [/ without an access_token/g, ' sem access_token'],
  [/ answered /g, ' respondeu '],
  [/ answers /g, ' responde '],
  [/: every check that needs a bearer token will be blocked/g, ': toda verificação que precisa de um bearer token ficará bloqueada'],
  [/: the checks of the gateway will show it/g, ': as verificações do gateway vão mostrá-lo'],
  [/does not serve the sandbox driver of specs\/control\.yaml/g, 'não serve o driver de sandbox de specs/control.yaml'],
  [/; it is the driver's base \(its routes start \/control\/\), not the API's/g, '; é a base do driver (as suas rotas começam com /control/), não a da API'],
  [/: times are judged on the target's Date header instead/g, ': os horários são julgados pelo cabeçalho Date do alvo'],
  [/\(the contract: 200 with the simulated time, or 501 when not provided\)/g, '(o contrato: 200 com o horário simulado, ou 501 quando não oferecida)'],
  [/ without the simulated time/g, ' sem o horário simulado'],
  [/: the checks that need it are skipped/g, ': as verificações que a exigem são puladas'],
  [/: the checks meant for it run on the other balance accounts?/g, ': as verificações destinadas a ela rodam na(s) outra(s) conta(s) de saldo'],
  [/: the checks meant for it run alone on the main account instead/g, ': as verificações destinadas a ela rodam sozinhas na conta principal'],
  [/: the ledger model resets the whole sandbox, alone after the other checks/g, ': o modelo do extrato reinicia o sandbox inteiro, sozinho depois das outras verificações'],
  [/the sandbox driver does not reset one account/g, 'o driver de sandbox não reinicia uma só conta'],
  [/the sandbox driver refused a payment to (\S+):/g, 'o driver de sandbox recusou um pagamento para $1:'],
  [/a payment the sandbox driver made to (\S+) \(transaction (\S+)\) is not that account's: (.+?) with its credentials/g, 'um pagamento que o driver de sandbox fez para $1 (transação $2) não é dessa conta: $3 com as credenciais dela'],
  [/the target's clock is (.+?) ahead of this machine's \((.+?); more than the (\S+) min allowed\): every time is judged on the target's clock/g, 'o relógio do alvo está $1 adiantado em relação ao desta máquina ($2; mais que os $3 min permitidos): todo horário é julgado pelo relógio do alvo'],
  [/the target's clock is (.+?) behind this machine's \((.+?); more than the (\S+) min allowed\): every time is judged on the target's clock/g, 'o relógio do alvo está $1 atrasado em relação ao desta máquina ($2; mais que os $3 min permitidos): todo horário é julgado pelo relógio do alvo'],
  [/the Date header of its answers/g, 'o cabeçalho Date das suas respostas'],
  [/the sandbox clock was advanced by (.+?); it cannot be moved back \(only a reset of the sandbox, --reset, returns it to real time\)/g, 'o relógio do sandbox foi adiantado em $1; ele não pode voltar (só um reinício do sandbox, --reset, o devolve ao horário real)'],
  [/the collector cannot be reached \((.+?)\); the run goes on, and its spans are sent at the end only if it answers then/g, 'o coletor não pode ser alcançado ($1); a execução continua, e os seus spans são enviados no fim só se ele responder então'],
]


/** A message of the kit's console (an error, a warning) in `lang`, phrase by phrase. */
export function consoleMessageIn(lang: Lang, text: string): string {
  if (lang === 'en') return text
  let out = text
  for (const [pattern, pt] of PHRASES) out = out.replace(pattern, pt as string)
  return out
}

/** `warning:` and the other words that open a console line. */
export const WARNING_WORD: Record<Lang, string> = { en: 'warning', 'pt-BR': 'aviso' }
