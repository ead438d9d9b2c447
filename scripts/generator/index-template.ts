// The template of generated/index.ts, the hand-written runtime of the generated code (paramError, resultError and
// their error reduction). `npm run generate` copies this file from the "eslint-disable" line on, below the generated
// header, with each `../../generated/` specifier made `./`. Here it is ordinary TypeScript, type-checked against the
// committed generated/ modules.
/* eslint-disable */
import type { ErrorObject } from "ajv";
import { methodParams, type MethodName, type MethodParams } from "../../generated/methods.js";
import { paramValidators, resultValidators } from "../../generated/validators.js";

export * from "../../generated/types.js";
export * from "../../generated/methods.js";
export { paramValidators, resultValidators } from "../../generated/validators.js";
export type { ValidateFunction } from "../../generated/validators.js";

export interface ValidationIssue {
  /** Location inside the validated value, JS-style: "" (the value itself), ".value", ".accessList[0].address". */
  path: string;
  /** The rule that was broken, e.g. `must match pattern "^0x[0-9a-fA-F]{40}$"`. */
  message: string;
}

/**
 * Check positional params of `method` against the contract: arity, then each param's schema.
 * Returns null when valid, otherwise a short message naming the offending param, e.g.
 * `invalid argument 0 (address): must match pattern "^0x[0-9a-fA-F]{40}$"`,
 * `missing value for required argument 1 (transactionDetailsFlag)`, `too many arguments, want at most 2`.
 * An `undefined` entry (or a missing trailing entry) counts as omitted; `null` is validated as a value.
 */
export function paramError(method: MethodName, params: readonly unknown[]): string | null {
  const spec = methodParams[method];
  const validators = paramValidators[method];
  if (!spec || !validators) return `unknown method ${JSON.stringify(method)}`;
  if (params.length > spec.length) return `too many arguments, want at most ${spec.length}`;
  for (let i = 0; i < spec.length; i++) {
    const p = spec[i]!;
    const value = i < params.length ? params[i] : undefined;
    if (value === undefined) {
      if (p.required) return `missing value for required argument ${i} (${p.name})`;
      continue;
    }
    const validate = validators[i]!;
    if (!validate(value)) {
      const issue = describeValidationErrors(validate.errors);
      return `invalid argument ${i} (${p.name})${issue.path}: ${issue.message}`;
    }
  }
  return null;
}

/** Narrows `params` to the method's param tuple when they satisfy the contract; {@link paramError} says why they do not. */
export function isValidParams<M extends MethodName>(method: M, params: readonly unknown[]): params is MethodParams[M] {
  return paramError(method, params) === null;
}

/** Check a method's result against the contract. Returns null when valid, otherwise e.g. `invalid result.number: must be string`. */
export function resultError(method: MethodName, result: unknown): string | null {
  const validate = resultValidators[method];
  if (!validate) return `unknown method ${JSON.stringify(method)}`;
  if (validate(result)) return null;
  const issue = describeValidationErrors(validate.errors);
  return `invalid result${issue.path}: ${issue.message}`;
}

/**
 * Reduce ajv's error list (allErrors: false, verbose: true) to the single most useful issue.
 * For a failed oneOf/anyOf: if some alternative got further into the value, report that deeper error;
 * if exactly one alternative had the right JSON type, report its error; otherwise summarise the
 * alternatives ("must be one of: …") from the `x-expected` annotation the generator put on the schema.
 */
export function describeValidationErrors(errors: readonly ErrorObject[] | null | undefined): ValidationIssue {
  if (!errors || errors.length === 0) return { path: "", message: "is invalid" };
  const err = pickError(errors, errors.length - 1);
  return { path: formatPath(err.instancePath), message: formatMessage(err) };
}

function segments(p: string): string[] {
  return p === "" ? [] : p.slice(1).split("/");
}

function isUnder(p: string, base: string): boolean {
  return base === "" || p === base || p.startsWith(base + "/");
}

function isComposite(e: ErrorObject): boolean {
  return e.keyword === "oneOf" || e.keyword === "anyOf";
}

function pickError(errors: readonly ErrorObject[], idx: number): ErrorObject {
  const top = errors[idx]!;
  if (!isComposite(top) || (top.params as { passingSchemas?: unknown }).passingSchemas) return top;
  const depth = segments(top.instancePath).length;
  const branch: { e: ErrorObject; i: number; d: number }[] = [];
  for (let i = 0; i < idx; i++) {
    const e = errors[i]!;
    if (isUnder(e.instancePath, top.instancePath)) branch.push({ e, i, d: segments(e.instancePath).length });
  }
  if (branch.length === 0) return top;
  const maxDepth = Math.max(...branch.map((b) => b.d));
  if (maxDepth > depth) {
    const deepest = branch.filter((b) => b.d === maxDepth);
    const chosen = deepest.find((b) => isComposite(b.e)) ?? deepest.find((b) => b.e.keyword !== "type") ?? deepest[0]!;
    return pickError(errors, chosen.i);
  }
  const typed = branch.filter((b) => b.e.keyword !== "type" && !isComposite(b.e));
  if (typed.length === 1) return typed[0]!.e;
  return top;
}

function formatPath(instancePath: string): string {
  let out = "";
  for (const raw of segments(instancePath)) {
    const s = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (/^\d+$/.test(s)) out += `[${s}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(s)) out += `.${s}`;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

function formatMessage(e: ErrorObject): string {
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "oneOf":
    case "anyOf": {
      const expected = (e.parentSchema as Record<string, unknown> | undefined)?.["x-expected"];
      if (typeof expected === "string" && expected) return `must be one of: ${expected}`;
      break;
    }
    case "enum":
      if (Array.isArray(params.allowedValues)) {
        return `must be one of: ${params.allowedValues.map((v) => JSON.stringify(v)).join(", ")}`;
      }
      break;
    case "const":
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case "type":
      return `must be ${String(params.type).split(",").join(" or ")}`;
    case "additionalProperties":
      return `must NOT have additional property ${JSON.stringify(params.additionalProperty)}`;
    case "required":
      return `must have required property ${JSON.stringify(params.missingProperty)}`;
  }
  return e.message ?? `must pass "${e.keyword}" check`;
}
