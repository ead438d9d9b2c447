// The Interpreter class of @ethereumjs/evm, which the package does not export: reached through the
// package's own file, the module instance its EVM uses. The CLI's bundle (scripts/bundle.mjs) puts
// the same file in its place, as the bundle holds the EVM's own copy of it.

/** The class the EVM runs each message with. */
export async function loadInterpreter(): Promise<unknown> {
  const url = new URL('./interpreter.js', import.meta.resolve('@ethereumjs/evm'));
  return ((await import(url.href)) as { Interpreter: unknown }).Interpreter;
}
