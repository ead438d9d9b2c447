// Where the schemas of an OpenRPC document are: the keywords whose values are schemas (draft-07), and a walk over
// every schema of a document with its JSON pointer. Shared by the contract lint and the generator.

import { isObject, type JsonObject } from '../../shared/contract/json.js';

/** Keywords whose value maps names to schemas. */
export const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', 'definitions', '$defs', 'dependencies'];
/** Keywords whose value is an array of schemas (`items` also takes one schema). */
export const SCHEMA_ARRAY_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'items'];
/** Keywords whose value is one schema. */
export const SCHEMA_KEYWORDS = ['additionalProperties', 'additionalItems', 'items', 'not', 'contains', 'propertyNames', 'if', 'then', 'else'];

export type SchemaVisitor = (schema: JsonObject, pointer: string) => void;

const escape = (token: string): string => token.replace(/~/g, '~0').replace(/\//g, '~1');

/** Visits `schema` and every schema inside it (boolean schemas have nothing to visit). */
export function walkSchema(schema: unknown, pointer: string, visit: SchemaVisitor): void {
  if (!isObject(schema)) return;
  visit(schema, pointer);
  for (const [k, v] of Object.entries(schema)) {
    const at = `${pointer}/${escape(k)}`;
    if (SCHEMA_MAP_KEYWORDS.includes(k) && isObject(v)) {
      for (const [name, sub] of Object.entries(v)) walkSchema(sub, `${at}/${escape(name)}`, visit);
    } else if (SCHEMA_ARRAY_KEYWORDS.includes(k) && Array.isArray(v)) {
      v.forEach((sub, i) => walkSchema(sub, `${at}/${i}`, visit));
    } else if (SCHEMA_KEYWORDS.includes(k)) {
      walkSchema(v, at, visit);
    }
  }
}

/**
 * Visits every schema of an OpenRPC document: components/schemas, the schemas of components/contentDescriptors and
 * of the methods' params and results written in place (those given by `$ref` are visited where they live).
 */
export function walkDocumentSchemas(doc: JsonObject, visit: SchemaVisitor): void {
  const components = isObject(doc.components) ? doc.components : {};
  for (const [key, schema] of Object.entries(isObject(components.schemas) ? components.schemas : {})) {
    walkSchema(schema, `#/components/schemas/${escape(key)}`, visit);
  }
  for (const [key, descriptor] of Object.entries(isObject(components.contentDescriptors) ? components.contentDescriptors : {})) {
    if (isObject(descriptor)) walkSchema(descriptor.schema, `#/components/contentDescriptors/${escape(key)}/schema`, visit);
  }
  (Array.isArray(doc.methods) ? doc.methods : []).forEach((method, i) => {
    if (!isObject(method)) return;
    (Array.isArray(method.params) ? method.params : []).forEach((param, j) => {
      if (isObject(param)) walkSchema(param.schema, `#/methods/${i}/params/${j}/schema`, visit);
    });
    if (isObject(method.result)) walkSchema(method.result.schema, `#/methods/${i}/result/schema`, visit);
  });
}
