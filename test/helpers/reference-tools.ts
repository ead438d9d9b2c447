// The OpenRPC ecosystem's own tools, run as a consumer of the contract runs them, each in a worker thread with a
// deadline and a heap cap: on a document they cannot handle (a `$ref` cycle) schema-utils-js's parseOpenRPCDocument
// never returns and grows to the heap limit, which would take the test process with it. The worker is terminated
// at the deadline, so such a regression fails its spec instead of hanging the suite.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const require = createRequire(import.meta.url);

/** What a bounded run reports: how long the tool took, what it printed, and its answer or error. */
export interface ToolRun<T> {
  ms: number;
  output: string[];
  value?: T;
  error?: string;
}

// CommonJS, evaluated in the worker. `task` is the body of an async function of `input` and `load` (require).
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const output = [];
for (const level of ['log', 'info', 'warn', 'error']) console[level] = (...args) => output.push(args.map(String).join(' '));
const run = new Function('input', 'load', 'return (async () => {' + workerData.task + '})()');
const started = performance.now();
run(workerData.input, require).then(
  (value) => parentPort.postMessage({ ms: performance.now() - started, output, value }),
  (error) => parentPort.postMessage({ ms: performance.now() - started, output, error: String(error && error.stack ? error.stack : (error && error.message) || error) }),
);
`;

/** Runs `task` in a worker; rejects when it does not answer within `deadlineMs`. */
export async function runBounded<T>(task: string, input: unknown, deadlineMs: number, heapMb = 1024): Promise<ToolRun<T>> {
  const worker = new Worker(WORKER, { eval: true, workerData: { task, input }, resourceLimits: { maxOldGenerationSizeMb: heapMb } });
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<ToolRun<T>>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${deadlineMs} ms (a $ref cycle makes the reference parser run until the heap is full)`)), deadlineMs);
      worker.once('message', resolve);
      worker.once('error', (error) => reject(new Error(`the worker died (${error.message})`)));
    });
  } finally {
    clearTimeout(timer);
    await worker.terminate();
  }
}

/** schema-utils-js's parseOpenRPCDocument (validation and full dereferencing, as the playground and generator load documents). */
export function parseWithReferenceParser(doc: unknown, deadlineMs: number, heapMb?: number): Promise<ToolRun<unknown>> {
  return runBounded(
    `const { parseOpenRPCDocument } = load(${JSON.stringify(require.resolve('@open-rpc/schema-utils-js'))});
     return parseOpenRPCDocument(input, { dereference: true });`,
    doc,
    deadlineMs,
    heapMb,
  );
}

/** @open-rpc/generator's TypeScript client for `doc`, written under `outDir` (client/typescript/src/index.ts). */
export function generateReferenceClient(doc: unknown, outDir: string, deadlineMs: number): Promise<ToolRun<undefined>> {
  return runBounded(
    `const generate = load(${JSON.stringify(require.resolve('@open-rpc/generator'))}).default;
     await generate({ openrpcDocument: input.doc, outDir: input.outDir, components: [{ type: 'client', name: 'evm-node', language: 'typescript' }] });`,
    { doc, outDir },
    deadlineMs,
  );
}
