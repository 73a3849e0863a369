// The certification's flags in Portuguese (pt-BR), keyed by flag name: `--help --lang pt-BR`
// (or PIX_LANG=pt-BR) prints these instead of cli/flags.ts's English help. A flag added to FLAGS
// without its row here fails test/unit/cli/pt-br-consoles.test.ts.
import { DEFAULT_READONLY_MAX_IN_FLIGHT, DEFAULT_READONLY_MAX_RPS, DEFAULT_WORKERS, DEFAULT_WORKERS_DISTANT, DISTANT_TARGET_MS, MAX_CONCURRENCY, MAX_NUM_RUNS, MAX_TIMEOUT_MS, MAX_WORKERS } from '../harness/config.ts'
import { DEFAULTS, MAX_RETRIES, MAX_SEED, type FLAGS } from './flags.ts'

type FlagName = (typeof FLAGS)[number]['flag']  // `--${string}`: the test, not the type, holds every flag to a row

export interface FlagText {
  help: string
  /** The default in words, when the English one has words (a number or `en` is the same in both). */
  default?: string
}

/** DEFAULTS, in Portuguese. */
export const DEFAULTS_PT: Record<keyof typeof DEFAULTS, string> = {
  profile: 'readonly contra um alvo que você configura (nenhuma requisição que altere estado, exceto aos endpoints de token); sandbox (todas as verificações) só para a referência embutida; --profile sandbox ou PIX_PROFILE=sandbox o pede',
  workers: `${DEFAULT_WORKERS} arquivos de suíte lado a lado, ${DEFAULT_WORKERS_DISTANT} quando nenhuma resposta do alvo ao preflight é mais rápida que ${DISTANT_TARGET_MS} ms, 1 quando PIX_WEBHOOK_LISTEN ou PIX_WEBHOOK_PUBLIC_URL está definido`,
  depth: 'padrão: 50 casos aleatórios por verificação de propriedade (quick 10, deep 500); os casos-limite que decidem uma cláusula sempre rodam por inteiro',
  rate: `readonly contra um alvo que você configura: no máximo ${DEFAULT_READONLY_MAX_RPS} requisições por segundo e ${DEFAULT_READONLY_MAX_IN_FLIGHT} em andamento, divididas entre os workers; sandbox e a referência embutida: sem limite; --max-rps / --max-in-flight N o definem (0: nenhum)`,
}

export const FLAG_HELP_PT: Partial<Record<FlagName, FlagText>> = {
  '--env': { help: 'arquivo dotenv com as configurações PIX_* do alvo (`pix-conformance init` escreve um); sem ele e sem nenhuma configuração de alvo no ambiente, a referência embutida é certificada' },
  '--profile': { help: 'readonly (seguro em produção) ou sandbox (todas as verificações; contra um alvo sem PIX_CONTROL_URL exige --yes-mutate)' },
  '--yes-mutate': { help: 'confirma o perfil sandbox contra um alvo que parece de produção (sem API de controle)' },
  '--reset': { help: 'permite as verificações que reiniciam o sandbox pela API de controle (sem isso, uma execução deixa o estado do alvo como o encontrou)', default: 'desligado contra um alvo que você configura, ligado para a referência embutida' },
  '--area': { help: 'executa só suites/NAME/ (repita, ou uma lista separada por vírgulas: --area auth,balance)' },
  '--file': { help: 'executa só este arquivo de suíte, relativo a suites/ (repita, ou uma lista separada por vírgulas: --file auth/tokens.test.ts)' },
  '--check': { help: 'executa as verificações cujo id (área/arquivo::título, como --list o imprime) começa com ID, ou cujo título casa com o padrão ID; informe --seed para repetir uma execução exatamente' },
  '--tag': { help: 'executa só as verificações com uma destas tags: uma área, uma gravidade, uma necessidade (control, webhooks, mutating…) ou uma tag própria da verificação (repita, ou uma lista separada por vírgulas); combina com --area, --file e --check' },
  '--exclude-tag': { help: 'deixa de fora as verificações com qualquer destas tags (repita, ou uma lista separada por vírgulas)' },
  '--suites': { help: 'acrescenta suas próprias verificações (*.test.ts em DIR, docs/EXTENDING.md) à execução; exige --clauses' },
  '--clauses': { help: 'seu catálogo de cláusulas (namespace x-<fornecedor>, os campos de specs/clauses.yaml): os vereditos dele aparecem numa seção própria' },
  '--list': { help: 'imprime as verificações (id, cláusulas, necessidades, tags, gravidade) que as outras flags selecionam; não executa nada' },
  '--seed': { help: `semente das verificações de propriedade (0..${MAX_SEED}); repete uma execução`, default: 'uma semente aleatória, impressa' },
  '--depth': { help: 'quick, default ou deep: casos aleatórios por verificação de propriedade' },
  '--num-runs': { help: `casos aleatórios de cada verificação de propriedade (1..${MAX_NUM_RUNS}); prevalece sobre --depth` },
  '--strict-depth': { help: 'uma propriedade interrompida pelo limite de tempo antes de seus casos reprova a execução' },
  '--slow': { help: 'inclui as verificações lentas (expiração de token, janelas de limite de taxa)' },
  '--timeout': { help: `limite de tempo de cada requisição (1..${MAX_TIMEOUT_MS})` },
  '--workers': { help: `arquivos de suíte executados lado a lado (1..${MAX_WORKERS})` },
  '--concurrency': { help: `verificações de um arquivo em andamento ao mesmo tempo (1..${MAX_CONCURRENCY}); as verificações declaradas isoladas rodam depois das demais, uma de cada vez` },
  '--max-rps': { help: 'requisições por segundo que a execução pode enviar ao alvo, todos os workers juntos (0: sem limite)' },
  '--max-in-flight': { help: 'requisições que a execução pode ter em andamento ao mesmo tempo, todos os workers juntos (0: sem limite); nunca menos que uma por worker: os workers são reduzidos a N' },
  '--retries': { help: `executa uma verificação reprovada mais N vezes (0..${MAX_RETRIES}) antes de relatá-la; a que passa numa nova tentativa é relatada como instável, com a evidência de cada tentativa` },
  '--fail-on-flaky': { help: 'uma verificação instável reprova a execução' },
  '--bail': { help: 'para na primeira verificação reprovada' },
  '--require-verified': { help: 'sai com 1 quando menos de P% das cláusulas obrigatórias testáveis foram verificadas' },
  '--report-dir': { help: 'onde fica reports/<run-id>/; conferido antes da execução', default: 'reports/ na pasta de trabalho' },
  '--shard': { help: 'executa a I-ésima de N frações dos arquivos de suíte (dê a mesma --seed a todas as frações)' },
  '--merge': { help: 'combina os results.json de execuções em frações num só relatório (nenhuma execução)' },
  '--waivers': { help: 'falhas aceitas por cláusula (docs/ci/README.md "Waivers"): uma falha dispensada continua reprovada, mas a execução é APROVADO COM RESSALVAS (saída 0) até a dispensa expirar' },
  '--write-waivers': { help: 'esboça um arquivo de dispensas a partir das cláusulas reprovadas desta execução' },
  '--compare': { help: 'um results.json anterior (ou sua pasta): imprime primeiro o que mudou por cláusula e o acrescenta ao report.html e ao junit.xml' },
  '--certificate': { help: 'escreve um certificado assinado da execução (chave: PIX_SIGNING_KEY_FILE; sem ela, uma chave descartável cuja chave pública é impressa)' },
  '--har': { help: 'escreve as trocas da execução, com segredos ocultados, em HAR 1.2' },
  '--fail-on': { help: 'só falhas destas gravidades (money,security,data,protocol) reprovam a execução; as outras são relatadas (as dispensas continuam valendo)' },
  '--require-coverage': { help: 'sai com 1 quando a execução observou menos de P% dos status e códigos de erro documentados (§7 e specs/openapi.yaml, por operação)' },
  '--otlp-endpoint': { help: 'envia a execução como spans OpenTelemetry (OTLP/HTTP JSON) a um coletor' },
  '--lang': { help: 'idioma do console (progresso, resumo, mensagens de configuração), do --help, do report.html, do bloco legível do certificado e dos alertas do monitor: en ou pt-BR (enunciados das cláusulas de specs/clauses.pt-BR.yaml, o que as verificações escrevem de specs/messages.pt-BR.yaml; results.json, JUnit e evidências HTTP ficam como registrados)' },
  '--version': { help: 'imprime a versão do kit e o hash das suas specs ("specHash" do results.json); não executa nada' },
  '--help': { help: 'este texto' },
}
