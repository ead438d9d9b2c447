// A tiny contract the client specs deploy: every call emits one log and returns 42.
import { id as keccakId } from 'ethers';

export type Hex = `0x${string}`;
export const TOPIC = keccakId('Answered(uint256)') as Hex;
/** Runtime: emits LOG1(TOPIC, data = 42) and returns 42 as one word. */
export const RUNTIME: Hex = `0x602a600052${`7f${TOPIC.slice(2)}`}60206000a160206000f3`;
/** Init code: copies RUNTIME (0x30 bytes, starting after these 0x0c bytes) to memory and returns it. */
export const INIT: Hex = `0x6030600c60003960306000f3${RUNTIME.slice(2)}`;
export const WORD_42: Hex = `0x${'2a'.padStart(64, '0')}`;
