// With EVM_NODE_RECORD_TXS naming a file, every raw transaction the suite sends through rpc.ts (eth_sendRawTransaction,
// alone or in a batch) is appended to it as a JSON line, {"node": URL, "raw": "0x…"}, in the order sent: the
// differential test's recorded corpus (scripts/difftest/corpus/recorded.ts) replays such a file, one case per node.

import { appendFileSync } from 'node:fs';
import { requestCalls } from './request-calls.js';

const file = process.env.EVM_NODE_RECORD_TXS;

export function recordSentTransactions(url: string, request: unknown): void {
  if (file === undefined || file === '') return;
  for (const call of requestCalls(request)) {
    const { method, params } = (call ?? {}) as { method?: unknown; params?: unknown };
    if (method === 'eth_sendRawTransaction' && Array.isArray(params) && typeof params[0] === 'string') appendFileSync(file, `${JSON.stringify({ node: url, raw: params[0] })}\n`);
  }
}
