// §6 and the conventions: a notification is an HTTP POST with a JSON body (RFC 8259), judged on what
// reached the capture server. Shared by the conventions and webhooks areas. Not a suite file: it
// declares no check.
import { show } from '../../harness/assertions.ts'
import type { CheckContext } from '../../harness/check.ts'
import type { Captured } from '../../harness/webhook-capture.ts'
import { duplicateNames, isJsonContentType, strictJsonProblem } from '../../generators/strict-json.ts'

export const POST_JSON = '6.http-post-json'

/**
 * A notification as §6 and the conventions send it: HTTP POST, Content-Type application/json (a
 * charset parameter allowed), a body that is JSON as RFC 8259 writes it. The capture server reads
 * bodies leniently (a byte order mark stripped) so the notification is found; this judges its text.
 */
export function expectJsonNotification(t: CheckContext, kind: string, c: Captured): void {
  t.expectEqual(POST_JSON, `${kind} notification method`, c.method, 'POST')
  const type = c.headers['content-type']
  t.expectThat(POST_JSON, `${kind} notification Content-Type`, isJsonContentType(type), 'application/json (charset allowed)', show(type ?? '(none)'))
  const problem = strictJsonProblem(c.raw)
  if (problem) t.fail(POST_JSON, `${kind} notification body`, 'one JSON value as RFC 8259 writes it', `${problem}: ${show(c.raw.slice(0, 80))}`)
  observeDuplicateNames(t, POST_JSON, c.raw)
}

/** RFC 8259 §4: member names SHOULD be unique; one written twice is still JSON, so it is observed, not failed. */
export function observeDuplicateNames(t: CheckContext, clause: string, text: string): void {
  const twice = duplicateNames(text)
  if (twice.length > 0) t.observe(clause, 'memberNamesTwice', twice)
}
