import { expect } from "chai";
import path from "node:path";
import { createRequire } from "node:module";
import { readDocument } from "../../shared/contract/document.js";
import { deref as derefIn } from "../../shared/contract/refs.js";
import { projectRoot } from "../../shared/contract/root.js";
import {
  describeValidationErrors,
  methodParams,
  paramError,
  paramValidators,
  resultValidators,
  type MethodName,
} from "../../generated/index.js";

type Json = { [key: string]: unknown };

// Loaded through require() on purpose: a static import would pull @open-rpc/spec-types' shipped .ts
// sources into this project's type-check, where they fail `noUnusedLocals`.
const { validateOpenRPCDocument } = createRequire(import.meta.url)("@open-rpc/schema-utils-js") as {
  validateOpenRPCDocument(document: unknown): true | { message: string };
};

const root = projectRoot();
const doc = readDocument(path.join(root, "openrpc.json")) as Json;
const methods = (Array.isArray(doc.methods) ? doc.methods : []) as Json[];

const deref = <T>(v: unknown): T => derefIn<T>(doc, v);

function issue(errors: Parameters<typeof describeValidationErrors>[0]): string {
  const i = describeValidationErrors(errors);
  return `${i.path || "(value)"}: ${i.message}`;
}

// What every method must have (summary, description, errors, examples, names) is the contract lint's job
// (test/contract/lint.spec.ts); here: the document is OpenRPC, and its examples pass the generated validators.
describe("openrpc.json contract", function () {
  it("is a valid OpenRPC document (meta-schema)", function () {
    const result = validateOpenRPCDocument(doc);
    if (result !== true) throw new Error(result.message);
  });

  for (const rawMethod of methods) {
    const m = deref<Json>(rawMethod);
    const name = m.name as MethodName;

    describe(String(name), function () {
      it("has examples whose params and result satisfy the generated validators", function () {
        const specs = methodParams[name];
        const validators = paramValidators[name];
        expect(specs, "method missing from generated code (run `npm run generate`)").to.be.an("array");
        for (const rawExample of (m.examples as unknown[] | undefined) ?? []) {
          const ex = deref<Json>(rawExample);
          const label = `example ${JSON.stringify(ex.name)}`;
          const positional: unknown[] = [];
          for (const rawParam of (ex.params as unknown[] | undefined) ?? []) {
            const ep = deref<Json>(rawParam);
            const idx = specs.findIndex((s) => s.name === ep.name);
            expect(idx, `${label}: unknown param ${JSON.stringify(ep.name)}`).to.be.at.least(0);
            expect(ep, `${label}: param ${String(ep.name)} needs an inline value`).to.have.property("value");
            const validate = validators[idx]!;
            if (!validate(ep.value)) {
              throw new Error(`${label}: param ${idx} (${String(ep.name)}) ${issue(validate.errors)}`);
            }
            positional[idx] = ep.value;
          }
          specs.forEach((s, i) => {
            if (s.required) expect(i in positional, `${label}: required param ${s.name} missing`).to.equal(true);
          });
          // Trim holes (omitted optional params) to `undefined`, as the dispatcher would see them.
          expect(paramError(name, Array.from(positional)), label).to.equal(null);

          if (ex.result !== undefined) {
            const er = deref<Json>(ex.result);
            expect(er, `${label}: result needs an inline value`).to.have.property("value");
            const validate = resultValidators[name];
            if (!validate(er.value)) throw new Error(`${label}: result ${issue(validate.errors)}`);
          }
        }
      });
    });
  }
});
