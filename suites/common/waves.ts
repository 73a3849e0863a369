// Independent requests sent side by side (a distant target makes every round trip count): as many
// at once as the kit's pool puts on the wire to one origin (harness/http.ts CONNECTIONS_PER_ORIGIN),
// each wave one round trip and counted as one (a wider wave would wait for connections, two round
// trips counted as one); and reads already running, awaited in the order a check judges them. Not
// a suite file: it declares no check.
import { CONNECTIONS_PER_ORIGIN } from '../../harness/http.ts'

/** `fn` over `items`, a wave at a time; the results in the items' order. */
export async function inWaves<T, R>(items: readonly T[], fn: (item: T, index: number) => Promise<R>, width = CONNECTIONS_PER_ORIGIN): Promise<R[]> {
  const results: R[] = []
  for (let from = 0; from < items.length; from += width) {
    results.push(...(await Promise.all(items.slice(from, from + width).map((item, i) => fn(item, from + i)))))
  }
  return results
}

/**
 * Promises already running side by side, awaited in the order given: the first to fail in that
 * order is the one thrown, as one request after another would have thrown it.
 */
export async function inOrder<T extends unknown[]>(...promises: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  for (const p of promises) p.catch(() => {})
  const values: unknown[] = []
  for (const p of promises) values.push(await p)
  return values as T
}

/** A promise started now and awaited later: its rejection is not unhandled meanwhile (it is thrown where it is awaited). */
export function running<T>(p: Promise<T>): Promise<T> {
  p.catch(() => {})
  return p
}
