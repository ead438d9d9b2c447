// The Python SDK type-checks with `mypy --strict` (Debian's mypy, which .ci/run installs), for Python 3.10 as its
// pyproject promises: the package, its build backend and its tests. And the types work for a consumer: nested call
// frames, TypedDict results and hex strings check, a wrong param or member does not.
//
// CI must run it (with CI set, a missing mypy fails the suite); on a machine without mypy a local `npm test` skips
// it and says so loudly. MYPY names another mypy.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PYTHON_CLIENT_DIR } from '../../scripts/generator/python-client.js';
import { projectRoot } from '../../shared/contract/root.js';
import { firstRunnable, missingTool } from '../helpers/required-tool.js';

const root = projectRoot();
const sdk = path.join(root, PYTHON_CLIENT_DIR);

/** A consumer of the SDK: `# mypy: error` marks the lines mypy must refuse, every other line must pass. */
const CONSUMER = `from evm_node_client import Client, JsonRpcError, from_quantity
from evm_node_client.types import Block, CallFrame


def deepest_gas(frame: CallFrame) -> int:
    return from_quantity(frame["calls"][0]["calls"][0]["gas"])


def first_hash(block: Block) -> str:
    transaction = block["transactions"][0]
    return transaction if isinstance(transaction, str) else transaction["hash"]


def revert_data(client: Client) -> object:
    try:
        client.eth_call({"to": "0x5fbdb2315678afecb367f032d93f642f64180aa3", "input": "0x"})
    except JsonRpcError as error:
        return error.data
    return None


client = Client("http://127.0.0.1:8545")
block = client.eth_get_block_by_number("latest", True)
number: str = block["number"] if block is not None else "0x0"
client.eth_get_block_by_number(1, True)  # mypy: error
client.eth_get_balance()  # mypy: error
gas: int = client.eth_gas_price()  # mypy: error
frame: CallFrame = {"type": "CALL", "from": "0x00", "gas": "0x0", "gasUsed": "0x0", "input": "0x", "calls": [{"type": "JUMP"}]}  # mypy: error
`;

function findMypy(): string[] | undefined {
  const direct = firstRunnable([process.env.MYPY, 'mypy'], ['--version']);
  if (direct !== undefined) return [direct.command];
  return firstRunnable(['python3'], ['-m', 'mypy', '--version']) === undefined ? undefined : ['python3', '-m', 'mypy'];
}

describe('the Python SDK under mypy --strict', function () {
  this.timeout(300_000);
  let mypy: string[];
  let dir: string;

  before(async function () {
    const found = findMypy();
    if (found === undefined) missingTool(this, 'the Python SDK type-check', 'no mypy', 'apt-get install -y mypy (as .ci/run does), or set MYPY');
    mypy = found;
    dir = await mkdtemp(path.join(tmpdir(), 'evm-node-mypy-'));
  });

  after(async function () {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  /** mypy --strict for Python 3.10 on `targets`, its cache out of the tree. */
  const check = (targets: string[], env: NodeJS.ProcessEnv = {}) => {
    const [command, ...args] = mypy;
    const run = spawnSync(command!, [...args, '--strict', '--python-version', '3.10', '--cache-dir', path.join(dir, 'cache'), ...targets], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, ...env },
    });
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  };

  it('passes on the package, its build backend and its tests', function () {
    const { status, output } = check([path.relative(root, sdk)]);
    expect(status, output).to.equal(0);
    expect(output).to.match(/^Success: no issues found in \d+ source files/m);
  });

  it('checks a consumer: nested call frames and typed results pass, a wrong param, result or member does not', async function () {
    const file = path.join(dir, 'consumer.py');
    await writeFile(file, CONSUMER);
    const { output } = check([file], { MYPYPATH: sdk });
    const refused = [...output.matchAll(/consumer\.py:(\d+): error: /g)].map((m) => Number(m[1]));
    const marked = CONSUMER.split('\n').flatMap((line, i) => (line.endsWith('# mypy: error') ? [i + 1] : []));
    expect([...new Set(refused)], output).to.deep.equal(marked);
  });
});
