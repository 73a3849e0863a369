import { relative } from 'node:path'
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { SMALL_HEAP_FLAGS } from './bin/small-heap.js'
import { DEFAULT_CONCURRENCY, DEFAULT_WORKERS, aloneWorkers } from './harness/config.ts'
import { SHARED_PHASE_REASONS, suiteFilesDeclaringAlone } from './harness/suite-files.ts'

/**
 * The suite files that declare a check alone (`alone: ALONE.…`) for a reason that runs in the alone
 * phase (not only `ALONE.accountEvents`, whose checks run in the shared phase): the only ones the
 * alone phase collects. A run whose selection has none starts no worker for that phase, and a full
 * run imports a fraction of the suites there instead of all (test/selfcheck/coverage.test.ts holds
 * the list to what vitest collects).
 */
export const ALONE_SUITE_FILES: string[] = suiteFilesDeclaringAlone(undefined, SHARED_PHASE_REASONS)

/** A provider's own suites (--suites DIR, docs/EXTENDING.md), in both phases beside the kit's. */
const EXTENSION_SUITES: string[] = process.env.PIX_EXTENSION_SUITES ? [`${process.env.PIX_EXTENSION_SUITES.split('\\').join('/')}/**/*.test.ts`] : []

/** Ends a worker process whose CLI is gone (harness/worker-exit.ts). */
const WORKER_EXIT = './harness/worker-exit.ts'

/**
 * The suites, one file and one check at a time, every check in: --list and the fault self-check's
 * batch runs. One worker, a thread (unlike the certification's phases below): it never holds more
 * than one isolate beside its process's, and a batch of the fault self-check runs hundreds of rounds in it.
 */
export const conformanceProject = {
  test: {
    name: 'conformance',
    pool: 'threads',
    include: ['suites/**/*.test.ts', ...EXTENSION_SUITES],
    fileParallelism: false,
    isolate: false,
    testTimeout: 30_000,
  },
} satisfies TestProjectInlineConfiguration

// A certification's two phases (harness/schedule.ts): the CLI runs both projects; the shared one first.
const positive = (value: string | undefined, fallback: number) => (Number(value) >= 1 ? Math.floor(Number(value)) : fallback)

// Worker processes (vitest's forks), not threads, so that no process of a certification holds every
// isolate: as threads of the CLI's process, the workers (about 60 MB each) made it the largest
// process, 444–460 MB (547 MB on a cold module cache); as processes the CLI peaks at 251–266 MB (the
// embedded reference still in it; 238–242 MB since it has a process of its own) and each worker at 116–128 MB (seed 42, 4 workers, four pairs on this machine, bench/README.md). The
// tree's proportional set grows by 10–35 MB, and a worker costs a node start: about 0.15 s of CPU
// each, 1.0–1.9 s more CPU in a certification (8–15 %), up to a few tenths of a second of a short
// run's wall time on a loaded machine (none measurable at load 4).
// Each worker gets the CLI's memory settings (bin/small-heap.js) on its command line and ends when
// the CLI is gone (harness/worker-exit.ts). The harness keeps no process-wide state the workers
// would need to share: their locks, claims and pacing logs are files, capture servers, sockets and
// config are per worker, and the CLI hands them their settings through the environment (PIX_*) and
// vitest's provide/inject.
const sharedPhase = {
  test: {
    name: 'conformance-shared',
    pool: 'forks',
    execArgv: SMALL_HEAP_FLAGS,
    setupFiles: [WORKER_EXIT],
    include: ['suites/**/*.test.ts', ...EXTENSION_SUITES],
    isolate: false,
    testTimeout: 30_000,
    maxWorkers: positive(process.env.PIX_WORKERS, DEFAULT_WORKERS),
    maxConcurrency: positive(process.env.PIX_CONCURRENCY, DEFAULT_CONCURRENCY),
    provide: { pixPhase: 'shared' },
    sequence: { groupOrder: 0 },
  },
} satisfies TestProjectInlineConfiguration

const alonePhase = {
  test: {
    name: 'conformance-alone',
    pool: 'forks',
    execArgv: SMALL_HEAP_FLAGS,
    setupFiles: [WORKER_EXIT],
    include: [...ALONE_SUITE_FILES, ...EXTENSION_SUITES],
    isolate: false,
    testTimeout: 30_000,
    // the clock group's checks side by side in these workers, the others one at a time (harness/clock-barrier.ts)
    maxWorkers: aloneWorkers(positive(process.env.PIX_WORKERS, DEFAULT_WORKERS)),
    maxConcurrency: positive(process.env.PIX_CONCURRENCY, DEFAULT_CONCURRENCY),
    provide: { pixPhase: 'alone' },
    sequence: { groupOrder: 1 },
  },
} satisfies TestProjectInlineConfiguration

/**
 * Files started first in each project, so that their waits overlap with other files' work instead
 * of ending the run (vitest's own order, files never run before and then the larger or the slower
 * first, measures none of this):
 * - a certification's shared phase: the suite files whose check holds a balance account longest.
 *   The ledger model's in-order chain is that phase's floor on a distant target, and started after
 *   other files it began seconds late, behind the short checks that had taken its account.
 * - a certification's alone phase: the clock group's files (below).
 * - the kit's own tests: the files that take longest, most of it waiting on their certification
 *   children (webhook deadlines, late answers, hung targets), each beside a file that keeps the CPU
 *   busy (the fault rounds beside the variants run, the configuration runs beside the hostile targets).
 */
const START_FIRST: Record<string, string[]> = {
  'conformance-shared': suiteFilesDeclaringAlone(['accountReset']),
  // the clock group's files, its longest chains first (the ledger model with the clock, the rate
  // windows queueing for the balance accounts): started behind a file whose exclusive check waits
  // for the group to end, they began seconds late
  'conformance-alone': [...new Set(['suites/model/ledger.test.ts', ...suiteFilesDeclaringAlone(['rateWindow']), ...suiteFilesDeclaringAlone(['clock'])])],
  robustness: ['test/hostile/hostile.test.ts', 'test/foreign/configuration.test.ts', 'test/profiles/delivery-audit.test.ts'],
  selfcheck: ['test/selfcheck/faults.test.ts', 'test/selfcheck/variants.test.ts', 'test/selfcheck/balance-account.test.ts', 'test/selfcheck/flaky.test.ts'],
}

class LongestChainsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const projectRank = new Map<string, number>()
    sorted.forEach((spec, i) => projectRank.has(spec.project.name) || projectRank.set(spec.project.name, i))
    const rank = (spec: TestSpecification) => {
      const first = START_FIRST[spec.project.name] ?? []
      const i = first.indexOf(relative(spec.project.config.root, spec.moduleId))
      return i < 0 ? first.length : i
    }
    // Stable: the projects keep vitest's order (they run one after the other), the rest of each its order.
    return sorted
      .map((spec, i) => ({ spec, i }))
      .sort((a, b) => projectRank.get(a.spec.project.name)! - projectRank.get(b.spec.project.name)! || rank(a.spec) - rank(b.spec) || a.i - b.i)
      .map(({ spec }) => spec)
  }
}

export default defineConfig({
  test: {
    // Three files at a time on the two cores: most self-check and robustness files wait on their
    // certification children (webhook deadlines, late answers, hung targets), and with two at a
    // time a clean clone's run left about a sixth of the CPU idle (7:05 against 6:20 with three).
    maxWorkers: 3,
    sequence: { sequencer: LongestChainsFirst },
    // Transformed modules are kept under node_modules/.experimental-vitest-cache, keyed by content:
    // every certification is a vitest process of its own (the CLI's, and those the self-check's
    // clean and variant runs and the robustness project start), and each transformed the same
    // harness and suites again (about 1 s of the main process's CPU per run).
    experimental: { fsModuleCache: true },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          testTimeout: 30_000,
          // One worker process serves many files: a fresh process per file cost more CPU than the
          // tests themselves (about 70 s of a full run's CPU). No unit file leaves global state
          // behind (the one that sets process.env restores it).
          isolate: false,
        },
      },
      {
        // Fault injection and variants (test/selfcheck/): each test runs the CLI in a child process
        // against a reference (and proxy) of its own, so these files too run two at a time.
        test: {
          name: 'selfcheck',
          include: ['test/selfcheck/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 60_000,
          isolate: false,
          // Fault runs mostly wait (for notifications a fault dropped): four overlap well on two cores.
          maxConcurrency: 4,
        },
      },
      {
        // Hostile targets (test/hostile/), targets that are not the reference (test/foreign/), the
        // profile proofs (test/profiles/) and the packed kit (test/package/): each test runs the CLI
        // in a child process against a target of its own, so these files run beside the unit files
        // (two at a time: the machine has two cores) instead of after them.
        test: {
          name: 'robustness',
          include: ['test/hostile/**/*.test.ts', 'test/profiles/**/*.test.ts', 'test/package/**/*.test.ts', 'test/foreign/**/*.test.ts', 'test/monitor/**/*.test.ts', 'test/observe/**/*.test.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
          isolate: false,
          maxConcurrency: 2,
        },
      },
      conformanceProject,
      sharedPhase,
      alonePhase,
    ],
  },
})
