// Pre-signing with the dev keys: EIP-1559 transactions in nonce order per sender.
import { createCustomCommon, Hardfork, Mainnet, type Common } from '@ethereumjs/common';
import { createTx, type TypedTxData } from '@ethereumjs/tx';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { premergeLibraryParams } from '../../src/chain/common-params.js';
import type { DevAccount } from '../../src/chain/dev-accounts.js';
import { nativeCrypto } from '../../src/crypto/native.js';
import type { RpcClient } from './client.js';

export const GWEI = 10n ** 9n;

export interface Signed {
  raw: string;
  hash: string;
}

export interface TxFields {
  to?: string;
  value?: bigint;
  data?: string;
  gasLimit?: bigint;
}

export class Signer {
  private readonly nonces = new Map<string, bigint>();

  constructor(
    private readonly common: Common,
    private readonly maxFee: bigint,
  ) {}

  /** A signer for the node behind `client`: its chain id, a fee cap well above its base fee, and the senders' pending nonces. */
  static async forNode(client: RpcClient, senders: DevAccount[]): Promise<Signer> {
    const chainId = BigInt(await client.call<string>('eth_chainId'));
    const latest = await client.call<{ baseFeePerGas?: string }>('eth_getBlockByNumber', ['latest', false]);
    const baseFee = BigInt(latest.baseFeePerGas ?? '0x0');
    const maxFee = 100n * GWEI > 4n * baseFee ? 100n * GWEI : 4n * baseFee;
    // The node's own crypto hooks and pre-merged params make pre-signing ~8x faster.
    const common = premergeLibraryParams(createCustomCommon({ chainId: Number(chainId) }, Mainnet, { hardfork: Hardfork.Prague, customCrypto: nativeCrypto }));
    const signer = new Signer(common, maxFee);
    for (const account of senders) signer.setNonce(account, BigInt(await client.call<string>('eth_getTransactionCount', [account.address, 'pending'])));
    return signer;
  }

  setNonce(account: DevAccount, nonce: bigint): void {
    this.nonces.set(account.address, nonce);
  }

  nextNonce(account: DevAccount): bigint {
    return this.nonces.get(account.address)!;
  }

  sign(account: DevAccount, fields: TxFields): Signed {
    const nonce = this.nonces.get(account.address)!;
    this.nonces.set(account.address, nonce + 1n);
    const tx = createTx(
      {
        type: 2,
        chainId: this.common.chainId(),
        nonce,
        to: fields.to as `0x${string}` | undefined,
        value: fields.value ?? 0n,
        data: fields.data === undefined ? undefined : hexToBytes(fields.data as `0x${string}`),
        gasLimit: fields.gasLimit ?? 21_000n,
        maxFeePerGas: this.maxFee,
        maxPriorityFeePerGas: GWEI,
      } as TypedTxData,
      { common: this.common },
    ).sign(account.privateKey);
    return { raw: bytesToHex(tx.serialize()), hash: bytesToHex(tx.hash()) };
  }

  /** `perSender` transactions from each sender, interleaved round-robin in nonce order. */
  roundRobin(senders: DevAccount[], perSender: number, fields: (sender: number, k: number) => TxFields): Signed[] {
    const out: Signed[] = [];
    for (let k = 0; k < perSender; k++) senders.forEach((sender, s) => out.push(this.sign(sender, fields(s, k))));
    return out;
  }
}
