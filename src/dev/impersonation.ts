import type { Address } from '@ethereumjs/util';

/**
 * The accounts eth_sendTransaction may send from without their keys (anvil_impersonateAccount,
 * anvil_autoImpersonateAccount). Kept in memory, as anvil and Hardhat keep them: a restart or a
 * reset forgets them.
 */
export class Impersonation {
  private readonly impersonated = new Set<string>();

  /** `everyone`: every address is impersonated from the start (--auto-impersonate). */
  constructor(private everyone = false) {}

  impersonate(address: Address): void {
    this.impersonated.add(address.toString());
  }

  /** Answers whether `address` was impersonated. */
  stop(address: Address): boolean {
    return this.impersonated.delete(address.toString());
  }

  /** With `on`, every address is impersonated, whatever was started or stopped one by one. */
  setAutomatic(on: boolean): void {
    this.everyone = on;
  }

  /** The addresses impersonated one by one, in the order they were (lowercase, 0x-prefixed). */
  addresses(): string[] {
    return [...this.impersonated];
  }

  covers(address: Address): boolean {
    return this.everyone || this.impersonated.has(address.toString());
  }
}
