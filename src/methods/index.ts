// The method table: every method of the contract, from the file its wire name says
// (`eth_getProof` → ./eth/getProof.ts, `rpc.discover` → ./rpc/discover.ts), or from the alias table
// (./aliases.ts) for the names that do another method's work.
import type { MethodName } from '../../generated/methods.js';
import { isValidParams, methodNames, paramError } from '../../generated/index.js';
import { Submission } from '../producer/submission.js';
import { AnswerCache } from '../rpc/answer-cache.js';
import type { CallContext, MethodEntry } from '../rpc/dispatch.js';
import { invalidParams } from '../rpc/errors.js';
import type { ResultCheck } from '../rpc/result-check.js';
import { aliasHandlers, type Canonical } from './aliases.js';
import type { Handlers, MethodServices, Services } from './services.js';
import { anvil_addBalance } from './anvil/addBalance.js';
import { anvil_autoImpersonateAccount } from './anvil/autoImpersonateAccount.js';
import { anvil_dealERC20 } from './anvil/dealERC20.js';
import { anvil_dropAllTransactions } from './anvil/dropAllTransactions.js';
import { anvil_dropTransaction } from './anvil/dropTransaction.js';
import { anvil_dumpState } from './anvil/dumpState.js';
import { anvil_getAutomine } from './anvil/getAutomine.js';
import { anvil_impersonateAccount } from './anvil/impersonateAccount.js';
import { anvil_loadState } from './anvil/loadState.js';
import { anvil_metadata } from './anvil/metadata.js';
import { anvil_mine } from './anvil/mine.js';
import { anvil_nodeInfo } from './anvil/nodeInfo.js';
import { anvil_removeBlockTimestampInterval } from './anvil/removeBlockTimestampInterval.js';
import { anvil_removePoolTransactions } from './anvil/removePoolTransactions.js';
import { anvil_reset } from './anvil/reset.js';
import { anvil_setBalance } from './anvil/setBalance.js';
import { anvil_setBlockTimestampInterval } from './anvil/setBlockTimestampInterval.js';
import { anvil_setChainId } from './anvil/setChainId.js';
import { anvil_setCode } from './anvil/setCode.js';
import { anvil_setCoinbase } from './anvil/setCoinbase.js';
import { anvil_setLoggingEnabled } from './anvil/setLoggingEnabled.js';
import { anvil_setMinGasPrice } from './anvil/setMinGasPrice.js';
import { anvil_setNextBlockBaseFeePerGas } from './anvil/setNextBlockBaseFeePerGas.js';
import { anvil_setNonce } from './anvil/setNonce.js';
import { anvil_setRpcUrl } from './anvil/setRpcUrl.js';
import { anvil_setStorageAt } from './anvil/setStorageAt.js';
import { anvil_stopImpersonatingAccount } from './anvil/stopImpersonatingAccount.js';
import { debug_getRawBlock } from './debug/getRawBlock.js';
import { debug_getRawHeader } from './debug/getRawHeader.js';
import { debug_getRawReceipts } from './debug/getRawReceipts.js';
import { debug_getRawTransaction } from './debug/getRawTransaction.js';
import { debug_traceBlockByHash } from './debug/traceBlockByHash.js';
import { debug_traceBlockByNumber } from './debug/traceBlockByNumber.js';
import { debug_traceCall } from './debug/traceCall.js';
import { debug_traceTransaction } from './debug/traceTransaction.js';
import { eth_accounts } from './eth/accounts.js';
import { eth_baseFee } from './eth/baseFee.js';
import { eth_blobBaseFee } from './eth/blobBaseFee.js';
import { eth_blockNumber } from './eth/blockNumber.js';
import { eth_call } from './eth/call.js';
import { eth_capabilities } from './eth/capabilities.js';
import { eth_chainId } from './eth/chainId.js';
import { eth_coinbase } from './eth/coinbase.js';
import { eth_config } from './eth/config.js';
import { eth_createAccessList } from './eth/createAccessList.js';
import { eth_estimateGas } from './eth/estimateGas.js';
import { eth_feeHistory } from './eth/feeHistory.js';
import { eth_gasPrice } from './eth/gasPrice.js';
import { eth_getBalance } from './eth/getBalance.js';
import { eth_getBlockByHash } from './eth/getBlockByHash.js';
import { eth_getBlockByNumber } from './eth/getBlockByNumber.js';
import { eth_getBlockReceipts } from './eth/getBlockReceipts.js';
import { eth_getBlockTransactionCountByHash } from './eth/getBlockTransactionCountByHash.js';
import { eth_getBlockTransactionCountByNumber } from './eth/getBlockTransactionCountByNumber.js';
import { eth_getCode } from './eth/getCode.js';
import { eth_getFilterChanges } from './eth/getFilterChanges.js';
import { eth_getFilterLogs } from './eth/getFilterLogs.js';
import { eth_getLogs } from './eth/getLogs.js';
import { eth_getProof } from './eth/getProof.js';
import { eth_getStorageAt } from './eth/getStorageAt.js';
import { eth_getStorageValues } from './eth/getStorageValues.js';
import { eth_getTransactionByBlockHashAndIndex } from './eth/getTransactionByBlockHashAndIndex.js';
import { eth_getTransactionByBlockNumberAndIndex } from './eth/getTransactionByBlockNumberAndIndex.js';
import { eth_getTransactionByHash } from './eth/getTransactionByHash.js';
import { eth_getTransactionCount } from './eth/getTransactionCount.js';
import { eth_getTransactionReceipt } from './eth/getTransactionReceipt.js';
import { eth_getUncleByBlockHashAndIndex } from './eth/getUncleByBlockHashAndIndex.js';
import { eth_getUncleByBlockNumberAndIndex } from './eth/getUncleByBlockNumberAndIndex.js';
import { eth_getUncleCountByBlockHash } from './eth/getUncleCountByBlockHash.js';
import { eth_getUncleCountByBlockNumber } from './eth/getUncleCountByBlockNumber.js';
import { eth_maxPriorityFeePerGas } from './eth/maxPriorityFeePerGas.js';
import { eth_newBlockFilter } from './eth/newBlockFilter.js';
import { eth_newFilter } from './eth/newFilter.js';
import { eth_newPendingTransactionFilter } from './eth/newPendingTransactionFilter.js';
import { eth_sendRawTransaction } from './eth/sendRawTransaction.js';
import { eth_sendTransaction } from './eth/sendTransaction.js';
import { eth_sendUnsignedTransaction } from './eth/sendUnsignedTransaction.js';
import { eth_sign } from './eth/sign.js';
import { eth_signTransaction } from './eth/signTransaction.js';
import { eth_signTypedData_v4 } from './eth/signTypedData_v4.js';
import { eth_simulateV1 } from './eth/simulateV1.js';
import { eth_subscribe } from './eth/subscribe.js';
import { eth_syncing } from './eth/syncing.js';
import { eth_uninstallFilter } from './eth/uninstallFilter.js';
import { eth_unsubscribe } from './eth/unsubscribe.js';
import { evm_increaseTime } from './evm/increaseTime.js';
import { evm_mine } from './evm/mine.js';
import { evm_revert } from './evm/revert.js';
import { evm_setAutomine } from './evm/setAutomine.js';
import { evm_setBlockGasLimit } from './evm/setBlockGasLimit.js';
import { evm_setIntervalMining } from './evm/setIntervalMining.js';
import { evm_setNextBlockTimestamp } from './evm/setNextBlockTimestamp.js';
import { evm_setTime } from './evm/setTime.js';
import { evm_snapshot } from './evm/snapshot.js';
import { hardhat_dropTransaction } from './hardhat/dropTransaction.js';
import { hardhat_metadata } from './hardhat/metadata.js';
import { hardhat_setBlockTimestampInterval } from './hardhat/setBlockTimestampInterval.js';
import { hardhat_stopImpersonatingAccount } from './hardhat/stopImpersonatingAccount.js';
import { net_listening } from './net/listening.js';
import { net_version } from './net/version.js';
import { ots_getApiLevel } from './ots/getApiLevel.js';
import { ots_getBlockDetails } from './ots/getBlockDetails.js';
import { ots_getBlockTransactions } from './ots/getBlockTransactions.js';
import { ots_getContractCreator } from './ots/getContractCreator.js';
import { ots_getInternalOperations } from './ots/getInternalOperations.js';
import { ots_getTransactionBySenderAndNonce } from './ots/getTransactionBySenderAndNonce.js';
import { ots_getTransactionError } from './ots/getTransactionError.js';
import { ots_hasCode } from './ots/hasCode.js';
import { ots_searchTransactionsAfter } from './ots/searchTransactionsAfter.js';
import { ots_searchTransactionsBefore } from './ots/searchTransactionsBefore.js';
import { ots_traceTransaction } from './ots/traceTransaction.js';
import { personal_sign } from './personal/sign.js';
import { rpc_discover } from './rpc/discover.js';
import { testing_buildBlockV1 } from './testing/buildBlockV1.js';
import { txpool_content } from './txpool/content.js';
import { txpool_contentFrom } from './txpool/contentFrom.js';
import { txpool_inspect } from './txpool/inspect.js';
import { txpool_simpleContent } from './txpool/simpleContent.js';
import { txpool_status } from './txpool/status.js';
import { web3_clientVersion } from './web3/clientVersion.js';
import { web3_sha3 } from './web3/sha3.js';

/** Each method's handler made from the services it takes; the type makes a missing or mistyped one a compile error. */
const METHODS: { [M in Canonical]: (services: MethodServices) => Handlers[M] } = {
  anvil_addBalance,
  anvil_autoImpersonateAccount,
  anvil_dealERC20,
  anvil_dropAllTransactions,
  anvil_dropTransaction,
  anvil_dumpState,
  anvil_getAutomine,
  anvil_impersonateAccount,
  anvil_loadState,
  anvil_metadata,
  anvil_mine,
  anvil_nodeInfo,
  anvil_removeBlockTimestampInterval,
  anvil_removePoolTransactions,
  anvil_reset,
  anvil_setBalance,
  anvil_setBlockTimestampInterval,
  anvil_setChainId,
  anvil_setCode,
  anvil_setCoinbase,
  anvil_setLoggingEnabled,
  anvil_setMinGasPrice,
  anvil_setNextBlockBaseFeePerGas,
  anvil_setNonce,
  anvil_setRpcUrl,
  anvil_setStorageAt,
  anvil_stopImpersonatingAccount,
  debug_getRawBlock,
  debug_getRawHeader,
  debug_getRawReceipts,
  debug_getRawTransaction,
  debug_traceBlockByHash,
  debug_traceBlockByNumber,
  debug_traceCall,
  debug_traceTransaction,
  eth_accounts,
  eth_baseFee,
  eth_blobBaseFee,
  eth_blockNumber,
  eth_call,
  eth_capabilities,
  eth_chainId,
  eth_coinbase,
  eth_config,
  eth_createAccessList,
  eth_estimateGas,
  eth_feeHistory,
  eth_gasPrice,
  eth_getBalance,
  eth_getBlockByHash,
  eth_getBlockByNumber,
  eth_getBlockReceipts,
  eth_getBlockTransactionCountByHash,
  eth_getBlockTransactionCountByNumber,
  eth_getCode,
  eth_getFilterChanges,
  eth_getFilterLogs,
  eth_getLogs,
  eth_getProof,
  eth_getStorageAt,
  eth_getStorageValues,
  eth_getTransactionByBlockHashAndIndex,
  eth_getTransactionByBlockNumberAndIndex,
  eth_getTransactionByHash,
  eth_getTransactionCount,
  eth_getTransactionReceipt,
  eth_getUncleByBlockHashAndIndex,
  eth_getUncleByBlockNumberAndIndex,
  eth_getUncleCountByBlockHash,
  eth_getUncleCountByBlockNumber,
  eth_maxPriorityFeePerGas,
  eth_newBlockFilter,
  eth_newFilter,
  eth_newPendingTransactionFilter,
  eth_sendRawTransaction,
  eth_sendTransaction,
  eth_sendUnsignedTransaction,
  eth_sign,
  eth_signTransaction,
  eth_signTypedData_v4,
  eth_simulateV1,
  eth_subscribe,
  eth_syncing,
  eth_uninstallFilter,
  eth_unsubscribe,
  evm_increaseTime,
  evm_mine,
  evm_revert,
  evm_setAutomine,
  evm_setBlockGasLimit,
  evm_setIntervalMining,
  evm_setNextBlockTimestamp,
  evm_setTime,
  evm_snapshot,
  hardhat_dropTransaction,
  hardhat_metadata,
  hardhat_setBlockTimestampInterval,
  hardhat_stopImpersonatingAccount,
  net_listening,
  net_version,
  ots_getApiLevel,
  ots_getBlockDetails,
  ots_getBlockTransactions,
  ots_getContractCreator,
  ots_getInternalOperations,
  ots_getTransactionBySenderAndNonce,
  ots_getTransactionError,
  ots_hasCode,
  ots_searchTransactionsAfter,
  ots_searchTransactionsBefore,
  ots_traceTransaction,
  personal_sign,
  'rpc.discover': rpc_discover,
  testing_buildBlockV1,
  txpool_content,
  txpool_contentFrom,
  txpool_inspect,
  txpool_simpleContent,
  txpool_status,
  web3_clientVersion,
  web3_sha3,};

/** Every method of the contract, over `services` and what the method layer keeps of its own. */
export function implementMethods(services: Services): Handlers {
  const all: MethodServices = { ...services, submission: new Submission(services.pool, services.mining), answers: new AnswerCache() };
  const methods = Object.fromEntries(Object.entries(METHODS).map(([name, make]) => [name, make(all)])) as Pick<Handlers, Canonical>;
  return { ...methods, ...aliasHandlers(methods) };
}

/**
 * A method as the dispatcher runs it: params checked against the contract (-32602 naming the rule),
 * then the handler; with `results`, its result checked too (--check-results).
 */
function entryOf<M extends MethodName>(name: M, handler: Handlers[M], results: ResultCheck | undefined): MethodEntry {
  const run = (params: unknown[], ctx: CallContext) => {
    if (!isValidParams(name, params)) throw invalidParams(paramError(name, params) ?? 'invalid params');
    return handler(params, ctx);
  };
  if (results === undefined) return { invoke: run };
  return {
    invoke: async (params, ctx) => {
      const result = await run(params, ctx);
      results.check(name, result);
      return result;
    },
  };
}

/** The dispatcher's table: each contract method by name. */
export function methodTable(methods: Handlers, results?: ResultCheck): Map<string, MethodEntry> {
  return new Map(methodNames.map(<M extends MethodName>(name: M) => [name, entryOf(name, methods[name], results)] as const));
}
