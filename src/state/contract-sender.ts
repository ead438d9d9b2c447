// A call or simulated transaction may come from an account with code (a contract, a Safe): geth's
// calls skip EIP-3607's "sender must not have code" check. @ethereumjs/vm's runTx always makes it,
// on the sender's account as its state manager answers it first, and writes that account object
// back as it charges gas. So, for one run: the first read of the sender's account answers a copy
// without code, and every write of the sender's account puts the real code hash back. Nothing else
// changes — the EVM still finds the sender's code wherever it runs it.
import { Account, equalsBytes, KECCAK256_NULL, type Address } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';

/** Runs `execute` on `vm` letting `sender`, though it holds code, send; the state manager is itself again afterwards. */
export async function asContractSender<T>(vm: VM, sender: Address, execute: () => Promise<T>): Promise<T> {
  const state = vm.stateManager;
  const account = await state.getAccount(sender);
  if (account === undefined || equalsBytes(account.codeHash, KECCAK256_NULL)) return execute();
  const codeHash = account.codeHash;
  const { getAccount, putAccount } = state;
  let masked = false;
  const own = state as { getAccount: typeof getAccount; putAccount: typeof putAccount };
  own.getAccount = async (address) => {
    const found = await getAccount.call(state, address);
    if (masked || found === undefined || !address.equals(sender)) return found;
    masked = true;
    return new Account(found.nonce, found.balance, found.storageRoot, KECCAK256_NULL);
  };
  own.putAccount = async (address, value) => {
    if (value !== undefined && address.equals(sender) && equalsBytes(value.codeHash, KECCAK256_NULL)) value = new Account(value.nonce, value.balance, value.storageRoot, codeHash);
    return putAccount.call(state, address, value);
  };
  try {
    return await execute();
  } finally {
    delete (own as Partial<typeof own>).getAccount;
    delete (own as Partial<typeof own>).putAccount;
  }
}
