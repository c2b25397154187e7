/**
 * Instances on one ledger given different admin tokens: behind one address, the merchant API and
 * the back office answer 401 on every instance but the one whose token was sent, and each 401's
 * line blames the caller. So each instance records, as it starts, the keyed hash its
 * idempotency keys are already scoped by in the ledger (idempotencyScope: it names the token
 * without holding it), and says once when the one recorded before was another token's. Expected,
 * one instance after another, while the token is changed; the line says so.
 */
import type { Ledger } from '../ledger/index.js';
import { idempotencyScope } from './http/idempotency-keys.js';
import type { Logger } from './log/logger.js';

/**
 * Compares this instance's token with the one the instance started before it recorded, and
 * records its own, at start beside the ledger's other checks: one insert, and a read and at most
 * one write more once one is recorded. A ledger that fails them is only logged at debug: the
 * start goes on, and says what else fails.
 */
export async function checkAdminTokenAcrossInstances(ledger: Ledger, adminToken: string, logger: Logger): Promise<void> {
  const check = idempotencyScope(adminToken);
  let before: string | undefined;
  try {
    before = await ledger.recordAdminTokenCheck(check);
  } catch (error) {
    logger.debug('the admin token could not be compared with the other instances’', { err: error });
    return;
  }
  if (before !== undefined && before !== check) {
    logger.warn(
      'PAYFORM_ADMIN_TOKEN is not the one the companion that last started on this ledger was given: instances sharing the ledger behind one address ' +
        'answer the merchant API and the back office 401 wherever the token sent is not theirs. Give every instance the same PAYFORM_ADMIN_TOKEN ' +
        '(while you change it one instance after another, this is said at each start and means no harm)',
    );
  }
}
