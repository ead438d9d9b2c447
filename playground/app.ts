// The playground page (runs in the browser; the node serves it, src/transport/playground.ts). It asks the node for
// its contract (rpc.discover), lists every method with its docs and schemas, sends calls same-origin (POST /), and
// judges each result with the method's result schema from that same contract (./schema-check.js).
// This module is the entry: it loads the contract and wires the list, the method page and the history together.

import { isObject } from "../shared/contract/json.js";
import { methods, useContract, doc } from "./contract.js";
import { byId } from "./dom.js";
import { addHistory, startHistory, type HistoryEntry } from "./history.js";
import { renderMethodList } from "./method-list.js";
import { renderMethod, type OnSent } from "./method-view.js";
import { send, type Outcome } from "./rpc.js";

let selected: string | undefined;

const reopen = (entry: HistoryEntry): void => selectMethod(entry.method, entry.texts, entry.outcome);

const recordSent =
  (method: string): OnSent =>
  (outcome, texts, summary) =>
    addHistory({ id: outcome.request.id as number, method, texts, at: new Date().toLocaleTimeString(), outcome, ...summary }, reopen);

function selectMethod(name: string, texts?: string[], outcome?: Outcome): void {
  const m = methods.get(name);
  if (!m) return;
  selected = name;
  if (location.hash !== `#${name}`) window.history.replaceState(null, "", `#${name}`);
  renderMethodList(selected, selectMethod);
  renderMethod(m, recordSent(name), texts, outcome);
}

async function start(): Promise<void> {
  const info = byId("contract-info");
  const outcome = await send("rpc.discover", []);
  const msg = outcome.response as { result?: unknown; error?: { message?: string } } | undefined;
  if (!isObject(msg) || !isObject(msg.result)) {
    info.textContent = `cannot load the contract: ${outcome.failure ?? msg?.error?.message ?? "no result"}`;
    info.classList.add("bad-text");
    return;
  }
  useContract(msg.result);
  const docInfo = isObject(doc.info) ? doc.info : {};
  info.textContent = `${String(docInfo.title ?? "contract")} ${String(docInfo.version ?? "")} · ${methods.size} methods · OpenRPC ${String(doc.openrpc ?? "")}`;
  byId<HTMLInputElement>("filter").addEventListener("input", () => renderMethodList(selected, selectMethod));
  startHistory(reopen);
  const fromHash = decodeURIComponent(location.hash.slice(1));
  if (methods.has(fromHash)) selectMethod(fromHash);
  else renderMethodList(selected, selectMethod);
  document.body.dataset.ready = "true";
}

void start();
