// A response as the page shows it: a verdict from the contract (the result checked against the method's result
// schema, or the error's code against the codes it declares), then the error or the result, the request and the
// raw answer.

import { isObject } from "../shared/contract/json.js";
import { doc, type Method } from "./contract.js";
import { byId, h, pretty } from "./dom.js";
import type { Outcome } from "./rpc.js";
import { checkSchema, type Verdict } from "./schema-check.js";

/** A verdict in a word or two, as the history lists it. */
export interface Summary {
  verdictText: string;
  verdictClass: "ok-text" | "bad-text" | "warn-text";
}

function verdictOfResult(m: Method, result: unknown): Verdict {
  if (!m.result) return { valid: "unknown", reason: "the contract declares no result" };
  return checkSchema(doc, m.result.schema, result);
}

/** Renders `o` into #response; answers its verdict in brief. */
export function renderOutcome(m: Method, o: Outcome): Summary {
  const box = byId("response");
  box.replaceChildren(h("h2", {}, "Response ", h("span", { class: "muted" }, `HTTP ${o.status || "—"} · ${o.ms} ms`)));
  const verdictEl = h("div", { id: "verdict", class: "verdict" });
  box.append(verdictEl);
  let summary: Summary;

  const msg = o.response as { result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } } | undefined;
  if (o.failure !== undefined || !isObject(msg)) {
    verdictEl.classList.add("bad");
    verdictEl.textContent = `✗ no JSON-RPC answer: ${o.failure ?? "unexpected body"}`;
    summary = { verdictText: "no answer", verdictClass: "bad-text" };
  } else if (msg.error !== undefined) {
    const e = isObject(msg.error) ? msg.error : {};
    const declared = m.errors.some((d) => d.code === e.code);
    verdictEl.classList.add(declared ? "bad" : "unknown");
    verdictEl.textContent = `error ${String(e.code)} — ${declared ? "a code this method declares in the contract" : "a code this method does not declare in the contract"}`;
    const dl = h(
      "dl",
      { id: "error", class: "error-box" },
      h("dt", {}, "code"),
      h("dd", { id: "error-code" }, String(e.code)),
      h("dt", {}, "message"),
      h("dd", { id: "error-message" }, String(e.message)),
    );
    if ("data" in e) dl.append(h("dt", {}, "data"), h("dd", { id: "error-data" }, pretty(e.data)));
    box.append(dl);
    summary = { verdictText: `error ${String(e.code)}`, verdictClass: "bad-text" };
  } else {
    const v = verdictOfResult(m, msg.result);
    if (v.valid === true) {
      verdictEl.classList.add("ok");
      verdictEl.textContent = "✓ result is valid against the contract's result schema";
      summary = { verdictText: "✓ valid", verdictClass: "ok-text" };
    } else if (v.valid === false) {
      verdictEl.classList.add("bad");
      verdictEl.textContent = `✗ result violates the contract's result schema: result${v.issue.path}: ${v.issue.message}`;
      summary = { verdictText: "✗ schema violation", verdictClass: "bad-text" };
    } else {
      verdictEl.classList.add("unknown");
      verdictEl.textContent = `? ${v.reason}`;
      summary = { verdictText: "? unchecked", verdictClass: "warn-text" };
    }
    box.append(h("h3", {}, "Result"), h("pre", { id: "result" }, pretty(msg.result)));
  }
  box.append(
    h("details", {}, h("summary", {}, "request"), h("pre", { id: "request" }, pretty(o.request))),
    h("details", {}, h("summary", {}, "raw response"), h("pre", { id: "raw-response" }, o.response === undefined ? "" : pretty(o.response))),
  );
  return summary;
}
