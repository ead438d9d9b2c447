// Type names derived from method names: the generator's (`EthGetBlockByNumberParams`) and @open-rpc/generator's
// (`EthGetBlockByNumber`, the name of its method type), which the contract lint keeps clear of schema titles.

/** `eth_getBlockByNumber` → `EthGetBlockByNumber`, `rpc.discover` → `RpcDiscover`. */
export function pascalCase(methodName: string): string {
  return methodName
    .split(/[^A-Za-z0-9]+/)
    .filter((s) => s.length > 0)
    .map((s) => s[0]!.toUpperCase() + s.slice(1))
    .join('');
}
