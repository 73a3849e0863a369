// The one place where the model's refusals become HTTP: each kind of domain error gets its §7
// status (the body is the §7 error body, built by the router; the gateway adds the code).
import { DomainError, type DomainErrorKind } from '../model/errors.ts'
import { HttpError } from './router.ts'

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
