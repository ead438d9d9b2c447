// What this process holds after full garbage collections: a measure of memory kept reachable that
// does not depend on when V8 chooses to collect or on what the allocator gives back to the system.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Bytes reachable in this process (V8 heap and memory outside it, such as Buffers) after full collections. */
export function liveBytes(): number {
  gc();
  gc();
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

export const MiB = 1024 * 1024;
