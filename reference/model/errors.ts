// What the model says when it refuses something, without HTTP: the kind of refusal, a message, and
// (where the interface names one, §7) a code. http/errors.ts turns each kind into the §7 answer.

export type DomainErrorKind =
  /** The request breaks a rule of the interface (or a not-shown choice of the reference). */
  | 'invalid'
  /** No such object, or not one the caller may see. */
  | 'not-found'
  /** The object exists but its state (or an id already taken) forbids the request. */
  | 'conflict'
  /** A well-formed request the business rules refuse (deadline passed, balance short, …). */
  | 'refused'
  /** A temporary link past its life. */
  | 'gone'

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** The §7 code (gateway), or the reference's own code where §7 names none. */
    readonly code?: string,
  ) {
    super(message)
    this.name = 'DomainError'
  }
}

export const invalid = (message: string, code = 'VALIDATION_ERROR'): DomainError => new DomainError('invalid', message, code)
export const notFound = (message: string, code?: string): DomainError => new DomainError('not-found', message, code)
export const conflict = (message: string, code?: string): DomainError => new DomainError('conflict', message, code)
export const refused = (message: string, code?: string): DomainError => new DomainError('refused', message, code)
export const gone = (message: string, code?: string): DomainError => new DomainError('gone', message, code)
