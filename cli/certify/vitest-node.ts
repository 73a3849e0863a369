// How this process loads vitest/node. The CLI's launcher (bin/pix-conformance.js) registers tsx for
// the kit's own modules only, and hands over an import of its own: made from plain JS, outside
// tsx's reach, it loads vitest's several hundred modules without tsx resolving each one (about
// 1.4 s of CPU). A run that stops before any vitest (bad config, unreachable target) never loads it.
type VitestNode = typeof import('vitest/node')

let load: () => Promise<VitestNode> = () => import('vitest/node')

export function useVitestNodeLoader(loader: () => Promise<VitestNode>): void {
  load = loader
}

export const loadVitestNode = (): Promise<VitestNode> => load()
