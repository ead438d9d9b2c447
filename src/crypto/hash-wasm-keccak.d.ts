// hash-wasm's keccak build on its own (dist/keccak.umd.min.js), which the package ships without types:
// a UMD module, so an import sees its exports object as the default export.
declare module 'hash-wasm/dist/keccak.umd.min.js' {
  const keccakBuild: Pick<typeof import('hash-wasm'), 'createKeccak'>;
  export default keccakBuild;
}
