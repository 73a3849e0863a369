// Declarative builders for the faults that only edit one operation's answer: each fault then reads as its
// metadata, one line of bug (description) and one line of rewrite. Built on answerOf/rewriteAnswer (fault.ts).
import { defineFault, type Fault, type ProxyRequest, type ProxyResponse } from '../../fault.ts'
import { okAnswerOf, type Obj } from './outsider.ts'

export type FaultMeta = Omit<Fault, 'onRequest' | 'onResponse' | 'onWebhook'>

/**
 * The 2xx JSON object answer of operation `operationId`, edited in place (`edit` sees it only then).
 * Every other exchange passes unchanged; `rewriteAnswer` is the same for answers of any status.
 */
export function rewriteOk(operationId: string, edit: (body: Obj, req: ProxyRequest, res: ProxyResponse) => void, meta: FaultMeta): Fault {
  return defineFault({
    ...meta,
    onResponse(req, res) {
      const body = okAnswerOf(req, res, operationId)
      if (body) edit(body, req, res)
      return undefined
    },
  })
}
