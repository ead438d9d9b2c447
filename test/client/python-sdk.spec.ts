// The Python SDK (clients/python) as a Python user gets it: installed with pip into a fresh virtual environment
// (its in-tree build backend needs nothing from an index), then its unittest suite (clients/python/tests) run by
// that environment's python against a node this spec starts: every method that needs no input, a contract deployed,
// called, its receipt and logs read, batches, a revert's code and data, the txpool, test methods, the transport.
//
// CI must run it (with CI set, a missing python3 fails the suite); on a machine without python3 ≥ 3.10 a local
// `npm test` skips it and says so loudly. PYTHON names another interpreter.
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { encodeAbiParameters, encodeErrorResult, encodeFunctionData, toEventSelector, type Abi } from 'viem';
import { PYTHON_CLIENT_DIR } from '../../scripts/generator/python-client.js';
import { projectRoot } from '../../shared/contract/root.js';
import { contracts } from '../helpers/contracts.js';
import { startTestNode, type TestNode } from '../helpers/node.js';
import { firstRunnable, missingTool } from '../helpers/required-tool.js';

const SPEC = 'the Python SDK spec';
const HINT = 'apt-get install -y python3 python3-venv (as .ci/run does), or set PYTHON';
const root = projectRoot();
const sdk = path.join(root, PYTHON_CLIENT_DIR);

/** python3 ≥ 3.10 (PYTHON, else python3 on the PATH), or undefined. */
function findPython(): string | undefined {
  return firstRunnable([process.env.PYTHON, 'python3'], ['-c', 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 10))'])?.command;
}

/** Runs `command`; its exit status and everything it printed. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', ...env } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
  });
}

/** What the suite's deploy, call and revert tests send: ABI encoding needs keccak-256, absent from Python's library. */
function fixtures(): unknown {
  const { Storage, Reverter } = contracts();
  const storageAbi = Storage.abi as Abi;
  const reason = 'Reverter: no luck';
  return {
    storage: {
      bytecode: Storage.bytecode,
      setCalldata: encodeFunctionData({ abi: storageAbi, functionName: 'set', args: [42n] }),
      getCalldata: encodeFunctionData({ abi: storageAbi, functionName: 'get' }),
      valueChangedTopic: toEventSelector('ValueChanged(address,uint256,uint256)'),
      value: encodeAbiParameters([{ type: 'uint256' }], [42n]),
    },
    reverter: {
      bytecode: Reverter.bytecode,
      failWithReasonCalldata: encodeFunctionData({ abi: Reverter.abi as Abi, functionName: 'failWithReason' }),
      revertData: encodeErrorResult({ abi: [{ type: 'error', name: 'Error', inputs: [{ type: 'string' }] }], errorName: 'Error', args: [reason] }),
      reason,
    },
  };
}

describe('the Python SDK (clients/python)', function () {
  this.timeout(300_000);
  let dir: string;
  let python: string;
  let install: { status: number | null; output: string };

  before(async function () {
    const found = findPython();
    if (found === undefined) missingTool(this, SPEC, 'no python3 ≥ 3.10 with venv', HINT);
    dir = await mkdtemp(path.join(tmpdir(), 'evm-node-python-sdk-'));
    const venv = path.join(dir, 'venv');
    const made = spawnSync(found, ['-m', 'venv', venv], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`${found} -m venv failed (${HINT}):\n${made.stderr}`);
    python = path.join(venv, process.platform === 'win32' ? 'Scripts' : 'bin', 'python');
    install = await run(python, ['-m', 'pip', 'install', '--no-index', '--disable-pip-version-check', sdk]);
  });

  after(async function () {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('installs with pip, offline, into a fresh virtual environment', async function () {
    expect(install.status, install.output).to.equal(0);
    const where = await run(python, ['-c', 'import evm_node_client; print(evm_node_client.__file__)']);
    expect(where.output.trim()).to.satisfy((file: string) => file.startsWith(dir) && file.includes('site-packages'));
  });

  describe('its test suite, against a node', function () {
    let node: TestNode;

    before(async function () {
      node = await startTestNode();
    });
    after(() => node?.destroy());

    it('passes: python -m unittest discover clients/python/tests', async function () {
      const fixtureFile = path.join(dir, 'fixtures.json');
      await writeFile(fixtureFile, JSON.stringify(fixtures()));
      const tests = path.join(sdk, 'tests');
      const suite = await run(python, ['-m', 'unittest', 'discover', '-v', '-s', tests, '-t', tests], { EVM_NODE_URL: node.url, EVM_NODE_FIXTURES: fixtureFile });
      const failed = suite.output.split('\n').filter((line) => / \.\.\. (FAIL|ERROR)$/.test(line) || /^(FAIL|ERROR): /.test(line));
      expect(suite.status, `${failed.join('\n')}\n\n${suite.output.slice(-6000)}`).to.equal(0);
      const ran = /^Ran (\d+) tests? in /m.exec(suite.output);
      expect(Number(ran?.[1]), suite.output.slice(-2000)).to.be.at.least(30);
      expect(suite.output).to.not.match(/skipped/);
    });
  });
});
