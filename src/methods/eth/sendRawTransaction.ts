import { fromData } from '../../format/quantity.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_sendRawTransaction({ submission }: Pick<MethodServices, 'submission'>): Handlers['eth_sendRawTransaction'] {
  return async ([data]) => submission.send(fromData(data));
}
