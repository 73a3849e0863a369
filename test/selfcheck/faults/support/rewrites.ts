// Declarative builders for the common fault shapes (an answer, list item, listing metadata, request or
// notification edited in place; an answer given instead of the target's; a request rerouted; a fault with
// state of its own), and WPT-style tables of them: each fault then reads as its metadata, one line of bug
// (description) and one line of rewrite. Built on answerOf/rewriteAnswer (fault.ts); a shape only one file
// uses stays in that file.
import { defineFault, jsonObjectOf, rewriteAnswer, type Fault, type ProxyHooks, type ProxyRequest, type ProxyResponse, type WebhookDelivery } from '../../fault.ts'
import { listItems, ok2xx, type Obj } from './outsider.ts'
import { metadata } from './views-listings.ts'

export type FaultMeta = Omit<Fault, 'onRequest' | 'onResponse' | 'onWebhook'>

/**
 * The 2xx JSON object answer of operation `operationId`, edited in place (`edit` sees it only then).
 * Every other exchange passes unchanged; `rewriteAnswer` is the same for answers of any status.
 */
export function rewriteOk(operationId: string, edit: (body: Obj, req: ProxyRequest, res: ProxyResponse) => void, meta: FaultMeta): Fault {
  return rewriteAnswer(operationId, (body, req, res) => { if (ok2xx(res)) edit(body, req, res) }, meta)
}

/** Where `when(req)` holds, the kit is answered `by(req)` on the target's behalf: the target never sees the request. */
export function answerForTarget(when: (req: ProxyRequest) => boolean, by: (req: ProxyRequest) => ProxyResponse, meta: FaultMeta): Fault {
  return defineFault({ ...meta, onRequest: (req) => (when(req) ? by(req) : undefined) })
}

/** Where `when(req, res)` holds, the target's answer is replaced by `by(req, res)`. */
export function replaceAnswer(when: (req: ProxyRequest, res: ProxyResponse) => boolean, by: (req: ProxyRequest, res: ProxyResponse) => ProxyResponse, meta: FaultMeta): Fault {
  return defineFault({ ...meta, onResponse: (req, res) => (when(req, res) ? by(req, res) : undefined) })
}

/** Every list item of the listings `test` picks, edited in place (any status: a listing's items are where they are). */
export function rewriteItems(test: (req: ProxyRequest, res: ProxyResponse) => boolean, edit: (item: Obj) => void, meta: FaultMeta): Fault {
  return defineFault({
    ...meta,
    onResponse(req, res) {
      if (test(req, res)) for (const item of listItems(res)) edit(item)
      return undefined
    },
  })
}

/** One listing-item fault per row, WPT-style: [id, clauses, description, edit], the rows sharing `test`, area and files. */
export function itemFaults(test: (req: ProxyRequest, res: ProxyResponse) => boolean, shared: Pick<FaultMeta, 'area' | 'files'>, rows: [string, string[], string, (item: Obj) => void][]): Fault[] {
  return rows.map(([id, clauses, description, edit]) => rewriteItems(test, edit, { id, ...shared, clauses, description }))
}

/** A row of an answer table: [id, clauses, operationId, description, edit]. */
export type AnswerRow = [string, string[], string, string, (body: Obj, req: ProxyRequest, res: ProxyResponse) => void]

/** One answer-rewrite fault per row (`rewriteAnswer`: answers of any status), the rows sharing area and files. */
export function answerFaults(shared: Pick<FaultMeta, 'area' | 'files'>, rows: AnswerRow[]): Fault[] {
  return rows.map(([id, clauses, operationId, description, edit]) => rewriteAnswer(operationId, edit, { id, ...shared, clauses, description }))
}

/** One 2xx-answer-rewrite fault per row (`rewriteOk`), the rows sharing area and files. */
export function okAnswerFaults(shared: Pick<FaultMeta, 'area' | 'files'>, rows: AnswerRow[]): Fault[] {
  return rows.map(([id, clauses, operationId, description, edit]) => rewriteOk(operationId, edit, { id, ...shared, clauses, description }))
}

/** Where `when(req, res)` holds and the answer is a JSON object, `edit` changes it in place (any operation, any status). */
export function editAnswer(when: (req: ProxyRequest, res: ProxyResponse) => boolean, edit: (body: Obj, req: ProxyRequest, res: ProxyResponse) => void, meta: FaultMeta): Fault {
  return defineFault({
    ...meta,
    onResponse(req, res) {
      const body = jsonObjectOf(res)
      if (body && when(req, res)) edit(body, req, res)
      return undefined
    },
  })
}

/** Where `when(req)` holds, the target is sent `to(req)` instead (another path or body): a fault of what the target does. */
export function rewriteRequest(when: (req: ProxyRequest) => boolean, to: (req: ProxyRequest) => ProxyRequest, meta: FaultMeta): Fault {
  return defineFault({ ...meta, onRequest: (req) => (when(req) ? to(req) : undefined) })
}

/** The `metadata` object of the listing answers `test` picks, edited in place (`res` for what the edit reads of the answer). */
export function rewriteMetadata(test: (req: ProxyRequest) => boolean, edit: (m: Obj, res: ProxyResponse) => void, meta: FaultMeta): Fault {
  return defineFault({
    ...meta,
    onResponse(req, res) {
      const m = metadata(res)
      if (m && test(req)) edit(m, res)
      return undefined
    },
  })
}

/**
 * A fault whose hooks share state of their own: `init` makes it once per fault (the proxy lives for a batch, so
 * the state is keyed by what is unique to one check), `hooks` closes over it.
 */
export function withState<S>(init: () => S, hooks: (state: S) => ProxyHooks, meta: FaultMeta): Fault {
  return defineFault({ ...meta, ...hooks(init()) })
}

/** The JSON object body of the requests `when` picks, edited in place before the target sees it. */
export function editRequest(when: (req: ProxyRequest) => boolean, edit: (body: Obj, req: ProxyRequest) => void, meta: FaultMeta): Fault {
  return defineFault({
    ...meta,
    onRequest(req) {
      const body = jsonObjectOf(req)
      if (body && when(req)) edit(body, req)
      return req
    },
  })
}

/** The JSON object body of every notification the target sends, edited in place (`edit` decides which it touches). */
export function rewriteNotification(edit: (body: Obj, d: WebhookDelivery) => void, meta: FaultMeta): Fault {
  return defineFault({
    ...meta,
    onWebhook(d) {
      const body = jsonObjectOf(d)
      if (body) edit(body, d)
      return d
    },
  })
}
