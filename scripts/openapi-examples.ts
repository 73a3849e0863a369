// Generates the `examples` of specs/openapi.yaml (request bodies and path parameters) with the
// kit's own generators, once: `npx tsx scripts/openapi-examples.ts` prints them as YAML flow
// mappings to paste into the document. test/unit/specs/openapi-examples.test.ts validates what was
// pasted against its schemas, so a hand edit that breaks an example fails there. Webhook URLs use
// the reserved .invalid domain: a tool sending the examples never makes a server deliver anywhere.
import { fromCents, reaisOf } from '../generators/amounts.ts'
import { randomCnpj, randomCpf } from '../generators/documents.ts'
import { buildPixCode } from '../generators/emv.ts'
import { newE2eId, newObjectId, newTxid, newUuid } from '../generators/ids.ts'

const ISPB = '00000000'
const receivedAt = new Date(Date.UTC(2026, 10, 20, 14, 30))
const evpKey = newUuid()
const payoutCents = 4590

const examples = {
  createCertToken: { body: { clientId: 'my-client-id', clientSecret: 'my-client-secret' } },
  createOauthToken: { body: { clientId: 'my-client-id', clientSecret: 'my-client-secret' } },
  getTransaction: { id: { byId: '1042', byExternalId: 'order-2026-1042' } },
  listTransactionsByPixKey: { pixKey: { evp: evpKey, email: 'merchant@example.com', cpf: randomCpf() } },
  createCashIn: {
    body: {
      transaction: { value: reaisOf(15075), description: 'Order 1042', externalId: 'order-2026-1042', expirationTime: 3600, generateQrCode: true },
      payer: { fullName: 'Maria da Silva', document: randomCpf() },
      additionalInfo: { orderId: '1042', channel: 'web' },
    },
  },
  createCashOutQrCode: {
    body: {
      value: reaisOf(payoutCents),
      qrCode: buildPixCode({ key: evpKey, amount: fromCents(payoutCents), merchantName: 'LOJA EXEMPLO', merchantCity: 'SAO PAULO', txid: newTxid().slice(0, 25) }),
      externalId: 'payout-2026-0042',
      description: 'Supplier payout 42',
    },
  },
  putCob: {
    txid: newTxid(),
    body: {
      calendario: { expiracao: 3600 },
      devedor: { cpf: randomCpf(), nome: 'Maria da Silva' },
      valor: { original: fromCents(12345), modalidadeAlteracao: 0 },
      chave: 'merchant@example.com',
      solicitacaoPagador: 'Invoice 2026-77',
      infoAdicionais: [{ nome: 'Invoice', valor: '2026-77' }],
    },
  },
  putDevolucao: {
    e2eid: newE2eId(ISPB, receivedAt),
    id: 'return-2026-0001',
    body: { valor: fromCents(1000), natureza: 'ORIGINAL', descricao: 'Partial return of order 1042' },
  },
  resendWebhook: { transactionId: { uuid: newUuid(), objectId: newObjectId(receivedAt) }, body: { url: 'https://hooks.example.invalid/pix' } },
  refundPayment: { id: '1042', body: { value: reaisOf(1000), description: 'Customer asked for a partial refund' } },
  createBankSlip: {
    body: {
      amount: reaisOf(25990), dueDate: '2030-12-10', description: 'Invoice 2030-12', externalId: 'slip-2030-0012',
      payer: {
        name: 'Comercio Exemplo Ltda', document: randomCnpj(), city: 'Brasilia', state: 'DF', number: '100',
        postalCode: '70040010', neighborhood: 'Asa Norte', address: 'SBN Quadra 1',
      },
    },
  },
  generateBankSlipPdf: { id: { byId: newUuid(), byExternalId: 'slip-2030-0012' } },
  getBuyer: { buyerUuid: newUuid() },
  setAccountWebhook: { body: { pixWebhookUrl: 'https://hooks.example.invalid/pix' } },
}

for (const [operationId, parts] of Object.entries(examples)) {
  console.log(`# ${operationId}`)
  for (const [name, value] of Object.entries(parts)) console.log(`  ${name}: ${JSON.stringify(value)}`)
}
