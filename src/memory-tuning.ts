// V8's heap sizing for a node that runs for days and should stay small. Imported first by the CLI,
// so it applies before anything else is loaded (V8 reads these flags as it sizes the heap).
//
// Measured while growing a chain to 2,500 blocks and reading it (resident memory after the run,
// node CPU for all of it): V8's defaults 329 MB; the old generation grown by 1.5x its live size
// after a full collection (V8 otherwise picks up to 4x) 234 MB, same CPU.
//
// The young generation: V8 doubles its semi-spaces from 1 MB up to 16 MB when many objects survive
// a collection, and never gives the memory back. Start-up alone (modules, the contract's
// validators) doubled it twice, to 4 MB semi-spaces no request had asked for. So it stays at 1 MB
// until the node serves (idle 74 → 69.5 MiB, start-up unchanged at ~185 ms), then grows under load
// up to 8 MB semi-spaces (after a peerbench run, 187 → 178 MiB; node CPU over W2, W3, W4 and W8
// 17.7–18.1 s at 16 MB, 17.3–17.6 s at 8 MB, 18.8 s at 4 MB). Pinned at 1 MB for good it saved
// ~35 MB after a peerbench run but cost node CPU per operation: ETH transfers +8–17 %, ERC-20
// transfers +5–23 %, eth_call +5–10 %, pool admission +50–65 % — every message the EVM runs
// allocates, and a small young generation collects (and promotes) far more often.
//
// The semi-space size itself is fixed when V8 sets up the heap, before any of this runs; the
// growth factor is read at each growth, so it is what stops and restarts growth here.
import { performance, PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** The largest young generation the node grows to under load: two semi-spaces of 8 MB. */
export const YOUNG_GENERATION_MAX_BYTES = 16 * 1024 * 1024;

setFlagsFromString('--heap-growing-percent=50');
setFlagsFromString('--semi-space-growth-factor=1');

const youngGenerationBytes = (): number => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;

/**
 * From now on the young generation grows as V8 decides (doubling), until it reaches
 * {@link YOUNG_GENERATION_MAX_BYTES}: each collection is checked, and growth stops there. The check runs
 * after the collection, between tasks, so one long synchronous task that collects twice could still
 * double it once past the cap (to V8's own limit); the peerbench runs ended at the cap.
 */
let growing: PerformanceObserver | undefined;

export function letYoungGenerationGrow(): void {
  if (growing !== undefined || youngGenerationBytes() >= YOUNG_GENERATION_MAX_BYTES) return;
  setFlagsFromString('--semi-space-growth-factor=2');
  const watch = new PerformanceObserver(() => {
    if (youngGenerationBytes() < YOUNG_GENERATION_MAX_BYTES) return;
    setFlagsFromString('--semi-space-growth-factor=1');
    watch.disconnect();
    growing = undefined;
  });
  growing = watch;
  watch.observe({ entryTypes: ['gc'] });
}

/** How often an idle node looks for garbage it keeps, below what event-loop use it counts as idle, and past what growth it collects. */
const IDLE_CHECK_MS = 1_000;
const IDLE_UTILIZATION = 0.05;
const IDLE_GROWTH_BYTES = 16 * 1024 * 1024;
/** Quiet seconds after such a collection before the next: V8 gives the young generation back only once it sees ~5 s of little allocation. */
const SHRINK_AFTER_QUIET_SECONDS = 8;

/**
 * Garbage is collected as the node allocates; once it goes quiet nothing allocates, and what the
 * last requests left stays. After a struct trace stopped at its 128 MiB budget the node held
 * 369 MiB resident, idle, for good; after twenty eth_calls of 1 MB each, 118 MiB where it had held
 * 60. So once a second the heap (and the memory it owns outside it, such as large strings) is
 * compared with the least it held since the last collection: when it has grown by 16 MiB and the
 * event loop was busy under 5 % of that second, it is collected, fully (V8's gc, exposed through its
 * flag). Eight quiet seconds later it is collected once more: V8 then finds allocation slow and
 * shrinks the young generation the requests grew (32 MB committed, where an idle node needs 2),
 * which grows again under load as {@link letYoungGenerationGrow} lets it. A node under load never
 * gets here; V8 collects as it goes. Answers a function that stops it.
 */
export function collectWhenIdle(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const held = () => {
    const heap = getHeapStatistics();
    return heap.total_physical_size + heap.external_memory;
  };
  let least = held();
  let last = performance.eventLoopUtilization();
  /** quiet seconds in a row since the last collection here, while one to shrink the young generation is due */
  let quiet: number | undefined;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization > IDLE_UTILIZATION;
    last = now;
    const bytes = held();
    least = Math.min(least, bytes);
    if (busy) {
      if (quiet !== undefined) quiet = 0;
      return;
    }
    if (bytes - least >= IDLE_GROWTH_BYTES) {
      gc();
      least = held();
      quiet = 0;
    } else if (quiet !== undefined && ++quiet >= SHRINK_AFTER_QUIET_SECONDS) {
      gc();
      least = held();
      quiet = undefined;
      letYoungGenerationGrow();
    }
  }, IDLE_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
