// An EIP-712 typed message with nested structs and arrays (EIP-712's own Mail example, extended),
// for the signing specs.
export const MAIL_TYPED_DATA = {
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ],
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallets', type: 'address[]' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person[]' },
      { name: 'contents', type: 'string' },
      { name: 'amount', type: 'uint256' },
    ],
  },
  primaryType: 'Mail',
  domain: { name: 'Ether Mail', version: '1', chainId: 31337, verifyingContract: '0xcccccccccccccccccccccccccccccccccccccccc' },
  message: {
    from: { name: 'Cow', wallets: ['0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826', '0xdeaddeaddeaddeaddeaddeaddeaddeaddeaddead'] },
    to: [{ name: 'Bob', wallets: ['0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'] }],
    contents: 'Hello, Bob!',
    amount: '1000000000000000000',
  },
} as const;
