import { expect } from "chai";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { generate, renderFiles } from "../../scripts/generator/generated.js";
import { contractDigest } from "../../scripts/generator/methods.js";
import { pascalCase } from "../../tools/contract/names.js";
import { generatedFilesIn, HEADER } from "../../scripts/generator/output.js";
import { readDocument } from "../../shared/contract/document.js";
import { deref } from "../../shared/contract/refs.js";
import { projectRoot } from "../../shared/contract/root.js";
import {
  contractDigest as committedDigest,
  methodNames,
  methodParams,
  paramError,
  paramValidators,
  resultError,
  resultValidators,
  type MethodName,
} from "../../generated/index.js";

type Json = { [key: string]: unknown };

const root = projectRoot();
const docPath = path.join(root, "openrpc.json");
const generatedDir = path.join(root, "generated");
const doc = readDocument(docPath) as Json;
const methods = doc.methods as Json[];
const schemas = ((doc.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;

/** Follow refs (and allOf of a single member) to the schema that constrains a value. */
function resolveSchema(s: unknown, depth = 0): Json | undefined {
  const o = deref<unknown>(doc, s);
  if (typeof o !== "object" || o === null || depth > 16) return undefined;
  const j = o as Json;
  if (Array.isArray(j.allOf) && j.allOf.length === 1 && j.type === undefined) return resolveSchema(j.allOf[0], depth + 1);
  return j;
}

function method(name: string): Json | undefined {
  return methods.find((m) => m.name === name);
}

describe("generated/ (code generator output)", function () {
  let tmp: string;

  before(function () {
    tmp = mkdtempSync(path.join(os.tmpdir(), "evm-node-generate-"));
  });

  after(function () {
    rmSync(tmp, { recursive: true, force: true });
  });

  it("is up to date with openrpc.json (run `npm run generate` if this fails)", function () {
    generate(docPath, tmp);
    for (const file of generatedFilesIn(tmp)) {
      const fresh = readFileSync(path.join(tmp, file), "utf8");
      let committed: string;
      try {
        committed = readFileSync(path.join(generatedDir, file), "utf8");
      } catch {
        throw new Error(`generated/${file} is missing; run \`npm run generate\``);
      }
      if (committed !== fresh) {
        throw new Error(`generated/${file} is stale relative to openrpc.json; run \`npm run generate\``);
      }
    }
  });

  it("records the digest of the current openrpc.json", function () {
    expect(committedDigest).to.equal(contractDigest(doc), "openrpc.json changed; run `npm run generate`");
  });

  it("contains no stale generator output", function () {
    const produced = renderFiles(doc);
    const extra = generatedFilesIn(generatedDir).filter((f) => !produced.has(f));
    expect(extra, "files under generated/ no longer produced by the generator").to.deep.equal([]);
  });

  it("starts every file with the generated header", function () {
    for (const [file, text] of renderFiles(doc)) expect(text.startsWith(HEADER + "\n"), file).to.equal(true);
  });

  it("is deterministic and independent of document key/method order", function () {
    const a = renderFiles(doc);
    const b = renderFiles(structuredClone(doc));
    const shuffled = structuredClone(doc);
    (shuffled.methods as Json[]).reverse();
    const comps = (shuffled.components as Json | undefined)?.schemas as Record<string, unknown> | undefined;
    if (comps) {
      const entries = Object.entries(comps).reverse();
      for (const k of Object.keys(comps)) delete comps[k];
      for (const [k, v] of entries) comps[k] = v;
    }
    const c = renderFiles(shuffled);
    for (const [file, text] of a) {
      expect(b.get(file), file).to.equal(text);
      if (file !== "methods.ts") expect(c.get(file), file).to.equal(text); // methods.ts embeds the digest
    }
  });

  it("detects a contract edit that was not regenerated", function () {
    const edited = structuredClone(doc);
    (edited.methods as Json[])[0]!.summary = "edited without regenerating";
    const committed = readFileSync(path.join(generatedDir, "methods.ts"), "utf8");
    expect(renderFiles(edited).get("methods.ts")).to.not.equal(committed);
  });

  it("names one type per components.schemas key (not per title)", function () {
    const types = readFileSync(path.join(generatedDir, "types.ts"), "utf8");
    for (const key of Object.keys(schemas)) expect(types).to.include(`\nexport type ${key} = `);
  });

  it("declares Params/Result types and a MethodParams and MethodResults entry (so an RpcMethods handler) for every method", function () {
    const types = readFileSync(path.join(generatedDir, "types.ts"), "utf8");
    const methodsTs = readFileSync(path.join(generatedDir, "methods.ts"), "utf8");
    for (const m of methods) {
      const pascal = pascalCase(m.name as string);
      expect(types).to.include(`export type ${pascal}Params = [`);
      expect(types).to.include(`export type ${pascal}Result = `);
      expect(methodsTs).to.include(`  ${JSON.stringify(m.name)}: ${pascal}Params;`);
      expect(methodsTs).to.include(`  ${JSON.stringify(m.name)}: ${pascal}Result;`);
    }
  });

  it("derives PascalCase type names from method names", function () {
    expect(pascalCase("eth_getBlockByNumber")).to.equal("EthGetBlockByNumber");
    expect(pascalCase("rpc.discover")).to.equal("RpcDiscover");
    expect(pascalCase("txpool_content")).to.equal("TxpoolContent");
  });

  it("exports sorted method names, param specs and validators for every method", function () {
    const names = methods.map((m) => m.name as string).sort();
    expect([...methodNames]).to.deep.equal(names);
    for (const m of methods) {
      const name = m.name as MethodName;
      const params = ((m.params as Json[] | undefined) ?? []).map((p) => ({ name: p.name, required: p.required === true }));
      expect(methodParams[name]).to.deep.equal(params);
      expect(paramValidators[name]).to.have.length(params.length);
      expect(resultValidators[name]).to.be.a("function");
    }
  });

  it("rejects an invalid document with a readable error", function () {
    const bad = structuredClone(doc);
    (bad.methods as Json[]).push(structuredClone((bad.methods as Json[])[0]!));
    expect(() => renderFiles(bad)).to.throw(/duplicate method name/);
  });
});

describe("paramError", function () {
  it("accepts valid params", function () {
    const m = method("eth_getBalance");
    if (!m) return this.skip();
    expect(paramError("eth_getBalance" as MethodName, ["0x0000000000000000000000000000000000000001", "latest"])).to.equal(null);
    expect(paramError("eth_getBalance" as MethodName, ["0x0000000000000000000000000000000000000001"])).to.satisfy(
      (r: string | null) => r === null || r.startsWith("missing value for required argument 1"),
    );
  });

  it("names the param and the pattern it broke", function () {
    // Any method whose first param is a plain patterned string (e.g. eth_getBalance's address).
    for (const m of methods) {
      const p0 = (m.params as Json[] | undefined)?.[0];
      const s = p0 && resolveSchema(p0.schema);
      if (!p0 || !s || s.type !== "string" || typeof s.pattern !== "string" || s.enum || s.oneOf || s.anyOf) continue;
      const msg = paramError(m.name as MethodName, ["not-hex"]);
      expect(msg).to.equal(`invalid argument 0 (${p0.name}): must match pattern ${JSON.stringify(s.pattern)}`);
      return;
    }
    this.skip();
  });

  it("reports eth_getBalance's bad address exactly", function () {
    const m = method("eth_getBalance");
    if (!m) return this.skip();
    const p0 = (m.params as Json[])[0]!;
    const s = resolveSchema(p0.schema)!;
    expect(paramError("eth_getBalance" as MethodName, ["0x1234"])).to.equal(
      `invalid argument 0 (${p0.name}): must match pattern ${JSON.stringify(s.pattern)}`,
    );
  });

  it("reports a missing required param by index and name", function () {
    for (const m of methods) {
      const params = (m.params as Json[] | undefined) ?? [];
      const idx = params.findIndex((p) => p.required === true);
      if (idx < 0) continue;
      const msg = paramError(m.name as MethodName, []);
      expect(msg).to.equal(`missing value for required argument ${idx} (${params[idx]!.name})`);
      return;
    }
    this.skip();
  });

  it("reports eth_getBlockByNumber's missing flag", function () {
    const m = method("eth_getBlockByNumber");
    const params = (m?.params as Json[] | undefined) ?? [];
    if (params.length < 2 || params[1]!.required !== true) return this.skip();
    expect(paramError("eth_getBlockByNumber" as MethodName, ["latest"])).to.equal(
      `missing value for required argument 1 (${params[1]!.name})`,
    );
  });

  it("reports too many arguments", function () {
    for (const m of methods) {
      const n = ((m.params as Json[] | undefined) ?? []).length;
      expect(paramError(m.name as MethodName, new Array(n + 1).fill("0x0"))).to.equal(
        `too many arguments, want at most ${n}`,
      );
    }
  });

  it("names the nested path inside an object param", function () {
    const m = method("eth_sendTransaction") ?? method("eth_call") ?? method("eth_estimateGas");
    if (!m) return this.skip();
    const p0 = (m.params as Json[])[0]!;
    const s = resolveSchema(p0.schema);
    const props = (s?.properties ?? {}) as Json;
    const valueSchema = resolveSchema(props.value);
    if (!valueSchema || typeof valueSchema.pattern !== "string") return this.skip();
    // Start from the method's own example (valid by the contract tests) and break `value`.
    const example = ((m.examples as Json[] | undefined) ?? [])
      .flatMap((e) => (e.params as Json[] | undefined) ?? [])
      .find((ep) => ep.name === p0.name && typeof ep.value === "object" && ep.value !== null);
    if (!example) return this.skip();
    const tx = { ...(example.value as Json), value: "12" };
    const msg = paramError(m.name as MethodName, [tx]);
    expect(msg).to.equal(
      `invalid argument 0 (${p0.name}).value: must match pattern ${JSON.stringify(valueSchema.pattern)}`,
    );
  });

  it("summarises a failed block-parameter alternative briefly", function () {
    const m = method("eth_getBalance");
    if (!m || (m.params as Json[]).length < 2) return this.skip();
    const msg = paramError("eth_getBalance" as MethodName, ["0x0000000000000000000000000000000000000001", "bogus"]);
    expect(msg).to.be.a("string");
    expect(msg!).to.match(/^invalid argument 1 \(\w+\): /);
    expect(msg!.length).to.be.lessThan(300);
  });

  it("resultError accepts a valid result and rejects a wrong type", function () {
    const m = method("eth_chainId");
    if (!m) return this.skip();
    expect(resultError("eth_chainId" as MethodName, "0x1")).to.equal(null);
    expect(resultError("eth_chainId" as MethodName, 1)).to.match(/^invalid result: must be/);
  });
});
