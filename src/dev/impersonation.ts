import type { Address } from '@ethereumjs/util';

/**
 * The accounts eth_sendTransaction may send from without their keys (anvil_impersonateAccount,
 * anvil_autoImpersonateAccount). Kept in memory, as anvil and Hardhat keep them: a restart or a
 * reset forgets them.
 */
export class Impersonation {
  private readonly addresses = new Set<string>();

  /** `everyone`: every address is impersonated from the start (--auto-impersonate). */
  constructor(private everyone = false) {}

  impersonate(address: Address): void {
    this.addresses.add(address.toString());
  }

  /** Answers whether `address` was impersonated. */
  stop(address: Address): boolean {
    return this.addresses.delete(address.toString());
  }

  /** With `on`, every address is impersonated, whatever was started or stopped one by one. */
  setAutomatic(on: boolean): void {
    this.everyone = on;
  }

  covers(address: Address): boolean {
    return this.everyone || this.addresses.has(address.toString());
  }
}
