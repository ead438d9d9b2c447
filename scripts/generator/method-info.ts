/** What the SDK generators read from a method besides its params and result: the method object, its declared errors. */
import { isObject, type JsonObject } from "../../shared/contract/json.js";
import { deref } from "../../shared/contract/refs.js";
import { GenerateError, type Model } from "./model.js";

export interface DeclaredError {
  code: number;
  message: string;
  data?: unknown;
}

/** The method object named `name`, reference objects followed. */
export function rawMethod(model: Model, name: string): JsonObject {
  for (const m of model.doc.methods as unknown[]) {
    const d = deref<JsonObject>(model.doc, m);
    if (isObject(d) && d.name === name) return d;
  }
  throw new GenerateError(`method "${name}" vanished from the document`);
}

/** The errors `method` lists, in document order. */
export function declaredErrors(model: Model, method: JsonObject): DeclaredError[] {
  const raw = Array.isArray(method.errors) ? method.errors : [];
  return raw.map((e, i) => {
    const d = deref<JsonObject>(model.doc, e);
    if (!isObject(d) || typeof d.code !== "number" || typeof d.message !== "string") {
      throw new GenerateError(`method "${String(method.name)}": error ${i} needs a numeric code and a message`);
    }
    return "data" in d ? { code: d.code, message: d.message, data: d.data } : { code: d.code, message: d.message };
  });
}
