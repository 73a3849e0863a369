// Semantics-preserving variants (the self-check's other half): transformations of the target's
// answers and notifications that any conforming client must take in its stride. A clean run
// through each one must still pass every check; a check that fails here is over-specified.
import type { ProxyHooks, ProxyRequest, ProxyResponse, WebhookDelivery } from './fault.ts'

export interface Variant extends ProxyHooks {
  id: string
  description: string
}

export const defineVariant = (v: Variant): Variant => v
