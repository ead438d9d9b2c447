// The request history: the last requests with their verdicts, kept in the browser's local storage (requests and
// verdicts only: responses can be large).

import { methods } from "./contract.js";
import { byId, h } from "./dom.js";
import type { Summary } from "./response.js";
import type { Outcome } from "./rpc.js";

export interface HistoryEntry extends Summary {
  id: number;
  method: string;
  /** param texts as typed */
  texts: string[];
  at: string;
  outcome?: Outcome;
}

/** Opens an entry again: its method, with the params as typed and the outcome when it is still in memory. */
export type OnPick = (entry: HistoryEntry) => void;

const HISTORY_KEY = "evm-node-playground-history";
const HISTORY_LIMIT = 50;

const requestHistory: HistoryEntry[] = [];

function saveHistory(): void {
  try {
    const light = requestHistory.map(({ outcome: _outcome, ...rest }) => rest);
    localStorage.setItem(HISTORY_KEY, JSON.stringify(light));
  } catch {
    // storage full or disabled: history stays in memory
  }
}

function renderHistory(onPick: OnPick): void {
  const ol = byId("history");
  ol.replaceChildren();
  if (requestHistory.length === 0) ol.append(h("li", { class: "muted" }, "No requests yet."));
  for (const e of requestHistory) {
    const b = h(
      "button",
      { type: "button", "data-history-id": String(e.id) },
      h("span", { class: "h-method" }, e.method),
      h("span", { class: e.verdictClass }, e.verdictText),
      h("span", { class: "muted" }, ` · ${e.at}${e.outcome ? ` · ${e.outcome.ms} ms` : ""}`),
    );
    b.addEventListener("click", () => onPick(e));
    ol.append(h("li", {}, b));
  }
}

export function addHistory(entry: HistoryEntry, onPick: OnPick): void {
  requestHistory.unshift(entry);
  requestHistory.splice(HISTORY_LIMIT);
  saveHistory();
  renderHistory(onPick);
}

/** Loads the stored history (entries for methods the contract has), renders it and wires its clear button. */
export function startHistory(onPick: OnPick): void {
  try {
    const stored = JSON.parse(localStorage.getItem(HISTORY_KEY) ?? "[]") as HistoryEntry[];
    if (Array.isArray(stored)) requestHistory.push(...stored.filter((e) => methods.has(e.method)).slice(0, HISTORY_LIMIT));
  } catch {
    // ignore a corrupt entry
  }
  byId("clear-history").addEventListener("click", () => {
    requestHistory.splice(0);
    saveHistory();
    renderHistory(onPick);
  });
  renderHistory(onPick);
}
