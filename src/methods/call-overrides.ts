import type { BlockOverrides, StateOverride } from '../../generated/types.js';
import type { CallOverrides } from '../state/overrides.js';

/** The overrides a call names (eth_call, eth_estimateGas), or undefined (the plain path, which costs nothing extra) when it names none. */
export const callOverrides = (state: StateOverride | undefined, block: BlockOverrides | undefined): CallOverrides | undefined =>
  state === undefined && block === undefined ? undefined : { state, block };
