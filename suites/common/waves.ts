// Independent requests sent side by side, as many at once as the kit's pool puts on the wire to one
// origin (harness/http.ts CONNECTIONS_PER_ORIGIN): each wave is one round trip, and counted as one
// (a wider wave would wait for connections, two round trips counted as one). Not a suite file: it
// declares no check.
import { CONNECTIONS_PER_ORIGIN } from '../../harness/http.ts'

/** `fn` over `items`, a wave at a time; the results in the items' order. */
export async function inWaves<T, R>(items: readonly T[], fn: (item: T, index: number) => Promise<R>, width = CONNECTIONS_PER_ORIGIN): Promise<R[]> {
  const results: R[] = []
  for (let from = 0; from < items.length; from += width) {
    results.push(...(await Promise.all(items.slice(from, from + width).map((item, i) => fn(item, from + i)))))
  }
  return results
}
