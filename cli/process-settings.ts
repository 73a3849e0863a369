// The memory settings of every process of a run (V8 flags and environment defaults), for the
// modules of cli/: they live in bin/small-heap.js, plain JavaScript, because the bin reads them
// before any TypeScript loads.
export { SMALL_HEAP_ENV, SMALL_HEAP_FLAGS } from '../bin/small-heap.js'
