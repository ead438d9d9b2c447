// A real node for tests: in-process, on an ephemeral port, over a fresh temp data dir.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resultError, type MethodName, type RpcMethods } from '../../generated/index.js';
import { DEFAULTS, type NodeConfig } from '../../src/config.js';
import type { Logger } from '../../src/log.js';
import { startNode, type RunningNode, type StartOptions } from '../../src/node.js';
import { rpc } from './rpc.js';

export const DEV_KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
] as const;
export const DEV_ADDRESSES = [
  '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
  '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
  '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
] as const;

/** Logs only errors, to keep test output readable; set TEST_LOG=debug to see everything. */
export const testLogger: Logger = {
  error: (m, ...rest) => console.error(m, ...rest),
  warn: (m, ...rest) => process.env.TEST_LOG !== undefined && console.warn(m, ...rest),
  info: (m, ...rest) => process.env.TEST_LOG !== undefined && console.info(m, ...rest),
  debug: (m, ...rest) => process.env.TEST_LOG === 'debug' && console.debug(m, ...rest),
};

type Params<M extends MethodName> = Parameters<RpcMethods[M]>[0];
type Result<M extends MethodName> = Awaited<ReturnType<RpcMethods[M]>>;

export interface TestNode {
  url: string;
  dataDir: string;
  node: RunningNode;
  /** Calls `method` over HTTP and fails unless the result matches the contract's result schema. */
  call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>>;
  /** Stops the node, keeping the data dir (for restart tests). */
  stop(): Promise<void>;
  /** Stops the node and deletes the data dir. */
  destroy(): Promise<void>;
}

/**
 * `log` replaces the test logger; `storage` how the database is made (see faulty-store.ts). The node
 * runs with --check-results, so whatever a client sees (ethers, viem, raw calls) is checked against the
 * contract; stopping it fails when any result broke its schema.
 */
export async function startTestNode(overrides: Partial<NodeConfig> = {}, dataDir?: string, options: StartOptions & { log?: Logger } = {}): Promise<TestNode> {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), 'evm-node-test-')));
  const config = { ...DEFAULTS, genesisFlagsGiven: false, port: 0, dataDir: dir, checkResults: true, ...overrides };
  const node = await startNode(config, options.log ?? testLogger, options);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await node.close();
    const violations = node.resultCheck?.violations ?? 0;
    if (violations > 0) throw new Error(`the node answered ${violations} result(s) outside the contract (--check-results; see the log above)`);
  };
  return {
    url: node.url,
    dataDir: dir,
    node,
    call: async (method, params) => {
      const result = await rpc(node.url, method, params as unknown[]);
      const problem = resultError(method, result);
      if (problem !== null) throw new Error(`${method} answered outside its contract: ${problem}\n${JSON.stringify(result).slice(0, 2000)}`);
      return result as never;
    },
    stop,
    destroy: async () => {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Why a node on `dataDir` refused to start, in its words; "it started" (after stopping it again) when it did not refuse. */
export function startRefusal(dataDir: string, options: StartOptions & { log?: Logger } = {}): Promise<string> {
  return startTestNode({}, dataDir, options).then(
    async (started) => {
      await started.stop();
      return 'it started';
    },
    (error: Error) => error.message,
  );
}
