// The receipt as the chain keeps it; its record format is part of the storage layout.
export type { RawLog, StoredReceipt } from '../storage/layout.js';
