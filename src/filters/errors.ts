/**
 * Why a filter, log query or subscription was refused, in geth's words where geth has some. The
 * RPC layer gives each kind its code (src/rpc/domain-errors.ts).
 */
export type FilterErrorKind =
  /** the criteria or range are malformed (geth: invalid params) */
  | 'invalid-criteria'
  /** an unknown or expired filter or subscription id */
  | 'not-found'
  /** a block the query names by hash is not there */
  | 'unknown-block'
  /** past a configured limit; `data` says what would fit */
  | 'limit-exceeded';

export class FilterError extends Error {
  constructor(
    readonly kind: FilterErrorKind,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'FilterError';
  }
}

export const filterNotFound = () => new FilterError('not-found', 'filter not found');
export const unknownBlock = () => new FilterError('unknown-block', 'unknown block');
export const invalidCriteria = (message: string) => new FilterError('invalid-criteria', message);
export const limitExceeded = (message: string, data?: unknown) => new FilterError('limit-exceeded', message, data);
