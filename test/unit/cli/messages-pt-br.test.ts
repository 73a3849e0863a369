// What the checks write, in pt-BR (cli/reporting/messages.ts): every text scripts/messages-extract.ts
// finds in suites/ and harness/ has its translation in specs/messages.pt-BR.yaml (the failure lists
// the missing ones, to paste: `npx tsx scripts/messages-extract.ts`), and a written text is rendered
// from its template with its values kept as they are. English stays the default.
import { describe, expect, test } from 'vitest'
import { extractMessages, isPhrase } from '../../../scripts/messages-extract.ts'
import { checkIdIn, loadMessages, missingTranslations, translateText } from '../../../cli/reporting/messages.ts'
import { clauseById, statementIn } from '../../../generators/clauses.ts'
import { englishSentences } from './english.ts'

describe('the pt-BR catalogue of what checks write', () => {
  const extracted = extractMessages()

  test('finds the check titles and the messages of the suites and the harness', () => {
    const texts = new Set(extracted.map((m) => m.text))
    expect(texts).toContain('public balance: 200 with grossBalance, blockedBalance, netBalance and consultedAt')
    expect(texts).toContain('{}: expected {}, got {}')
    expect(texts).toContain('blocked: {} failed ({}){}')
    expect(texts).toContain('public netBalance')
    expect(extracted.length).toBeGreaterThan(1000)
  })

  test('every text found has its translation', () => {
    const missing = missingTranslations(extracted).map((m) => `${m.where}: ${JSON.stringify(m.text)}`)
    expect(missing, `add these to specs/messages.pt-BR.yaml (npx tsx scripts/messages-extract.ts prints them):\n${missing.join('\n')}`).toEqual([])
  })

  test('no translation is left in English', () => {
    const english = [...loadMessages('pt-BR')].filter(([, pt]) => englishSentences(pt).length > 0)
    expect(english).toEqual([])
  })

  test.each([
    ['a value', 'Kit Auth Payer', false],
    ['an operationType', 'Refund in', false],
    ['a field name', 'netBalance', false],
    ['a label beside a field name', 'public netBalance', true],
    ['a sentence', 'the limited key', true],
  ])('%s is %s a msgid', (_, text, phrase) => {
    expect(isPhrase(text)).toBe(phrase)
  })
})

describe('a written text in pt-BR', () => {
  test.each([
    // the harness's structure around the suites' words; values kept as they are
    ['id: expected a string (the account id), got undefined (absent)', 'id: esperado uma string (o id da conta), obtido undefined (ausente)'],
    ['public netBalance = central-bank-style available: expected 9.10, got 9.11 (public {"a":"(x"}, central-bank-style {"b":1}, gateway {"c":2})',
      'netBalance público = available no estilo do Banco Central: esperado 9.10, obtido 9.11 (público {"a":"(x"}, no estilo do Banco Central {"b":1}, gateway {"c":2})'],
    ['blocked: the public balance (GET /api/balance) failed (HTTP 500; status: expected HTTP 200, got HTTP 500)', 'bloqueada: o saldo público (GET /api/balance) falhou (HTTP 500; status: esperado HTTP 200, obtido HTTP 500)'],
    ['request: GET http://127.0.0.1:4000/api/balance', 'requisição: GET http://127.0.0.1:4000/api/balance'],
    ['(failed again on retry; +2 more errors)', '(falhou de novo na nova tentativa; +2 outros erros)'],
    ['no second account (PIX_OTHER_CLIENT_ID/PIX_OTHER_CLIENT_SECRET or PIX_OTHER_API_KEY)', 'sem segunda conta (PIX_OTHER_CLIENT_ID/PIX_OTHER_CLIENT_SECRET ou PIX_OTHER_API_KEY)'],
    // a translation that names its values leaves out the English plural s
    ["none (1 other notification reached this check's channels)", 'nenhuma (1 outra(s) notificação(ões) chegou(aram) nos canais desta verificação)'],
    ['3 items', '3 itens'],
    ['a text no check writes', 'a text no check writes'],
  ])('%s', (en, pt) => {
    expect(translateText(en, 'pt-BR')).toBe(pt)
    expect(translateText(en, 'en')).toBe(en)
  })

  test('the first line names the clause by its Portuguese statement', () => {
    const clause = clauseById('4.10.txid-length')!
    const text = translateText(`${clause.id} — ${clause.statement}\nstatus: expected HTTP 400, got HTTP 201`, 'pt-BR')
    expect(text).toBe(`${clause.id} — ${statementIn('pt-BR', clause)}\nstatus: esperado HTTP 400, obtido HTTP 201`)
    expect(statementIn('pt-BR', clause)).not.toBe(clause.statement)
  })

  test('a check id keeps its file and gets its title in Portuguese', () => {
    expect(checkIdIn('balance/shapes::gateway balance: totalBalance = availableBalance + blockedBalance', 'pt-BR')).toBe('balance/shapes::saldo do gateway: totalBalance = availableBalance + blockedBalance')
    expect(checkIdIn('balance/shapes::x', 'en')).toBe('balance/shapes::x')
  })
})
