// The one place where refusals become HTTP: the HTTP layer's own HttpError, and each kind of the
// model's domain errors with its §7 status (the body is the §7 error body, built by the router;
// the gateway adds the code).
import { STATUS_CODES } from 'node:http'
import type { Context } from '../context.ts'
import { DomainError, type DomainErrorKind } from '../model/errors.ts'
import { reasonPhrase } from '../readings.ts'

/** Thrown by the HTTP layer (auth, rate limits, routing) to answer with the interface's error body; `code` is added on the gateway. The model throws DomainErrors instead (asHttpError maps them). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message)
  }
}

/** Node's reason phrase of `status` (node:http STATUS_CODES), the default of RouterOptions.phrase. */
export const nodePhrase = (status: number): string => STATUS_CODES[status] ?? 'Error'

const STATUS_OF: Record<DomainErrorKind, number> = {
  invalid: 400,
  'not-found': 404,
  conflict: 409,
  refused: 422,
  gone: 410,
}

/** An HttpError as is; a DomainError as its §7 status; anything else is not an answer (undefined). */
export function asHttpError(err: unknown): HttpError | undefined {
  if (err instanceof HttpError) return err
  if (err instanceof DomainError) return new HttpError(STATUS_OF[err.kind], err.message, err.code)
  return undefined
}

/** The §7 `error` of the interface's APIs: the reason phrase of the reading in force (reference/readings.ts). */
export function phraseOf(ctx: Context): (status: number) => string {
  return (status) => reasonPhrase(status, ctx.world.config.readings, nodePhrase(status))
}
