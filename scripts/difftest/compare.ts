// Runs a case on both engines and says where they differ, with the state of the accounts involved on each side.
import type { Case, CaseRun } from './case.js';
import { runCase } from './case.js';
import type { Engine, Engines } from './engine.js';
import { firstDifference, type Json } from './outcome.js';

export interface Mismatch {
  case: string;
  where: string;
  /** account → its state, on each side, where they differ */
  accounts?: Record<string, { edited: Json; pristine: Json }>;
}

async function accountState(e: Engine, run: CaseRun, address: string): Promise<Json> {
  const at = e.util.createAddressFromString(address);
  const account = await run.state.getAccount(at);
  if (account === undefined) return null;
  return {
    nonce: account.nonce.toString(),
    balance: account.balance.toString(),
    codeHash: Buffer.from(account.codeHash).toString('hex'),
    storageRoot: Buffer.from(account.storageRoot).toString('hex'),
    storage: (await run.state.dumpStorage(at)) as Json,
  };
}

/** The accounts a case names or created, with their state on each side where it differs. */
async function accountDiff(engines: Engines, c: Case, edited: CaseRun, pristine: CaseRun): Promise<Mismatch['accounts']> {
  const addresses = new Set(c.accounts.map((a) => a.address.toLowerCase()));
  for (const run of [edited, pristine]) {
    for (const outcome of run.outcomes) {
      const created = (outcome.exec as { created?: string[] } | undefined)?.created ?? [];
      for (const address of [...created, outcome.created]) if (typeof address === 'string') addresses.add(address.toLowerCase());
    }
  }
  const diff: NonNullable<Mismatch['accounts']> = {};
  for (const address of addresses) {
    const a = await accountState(engines.edited, edited, address);
    const b = await accountState(engines.pristine, pristine, address);
    if (JSON.stringify(a) !== JSON.stringify(b)) diff[address] = { edited: a, pristine: b };
  }
  return diff;
}

/** undefined when both engines answered the same to every step (and traced the same, when traced). */
export async function compareCase(engines: Engines, c: Case): Promise<Mismatch | undefined> {
  const edited = await runCase(engines.edited, c);
  const pristine = await runCase(engines.pristine, c);
  let where: string | undefined;
  for (let i = 0; i < Math.max(edited.outcomes.length, pristine.outcomes.length) && where === undefined; i++) {
    const found = firstDifference(edited.outcomes[i], pristine.outcomes[i]);
    if (found !== undefined) where = `step ${i} ${found}`;
  }
  if (where === undefined && c.trace) {
    const a = edited.trace ?? [];
    const b = pristine.trace ?? [];
    const i = a.findIndex((line, index) => line !== b[index]);
    if (i !== -1 || a.length !== b.length) {
      const index = i === -1 ? Math.min(a.length, b.length) : i;
      where = `trace line ${index} of ${a.length}/${b.length}: edited ${a[index]} ≠ pristine ${b[index]}`;
    }
  }
  if (where === undefined) return undefined;
  return { case: c.name, where, accounts: await accountDiff(engines, c, edited, pristine) };
}
