// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface BalanceOf {
    function balanceOf(address owner) external view returns (uint256);
}

/// The fork benchmark's multicall: many balances read in one call, one after another. Its compiled
/// bytecode is in token.ts (solc 0.8.37, optimizer on, 200 runs, default EVM version).
contract BenchReader {
    function balancesOf(address token, address[] calldata holders) external view returns (uint256[] memory out) {
        out = new uint256[](holders.length);
        for (uint256 i = 0; i < holders.length; i++) out[i] = BalanceOf(token).balanceOf(holders[i]);
    }
}
