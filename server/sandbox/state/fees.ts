/** The commission the sandbox charges: a fixed part plus a percentage, in minor units. */
import { wireStep } from '@payform/gateway/wire';
import type { MinorUnits } from './amounts.js';
import type { Project } from '../config.js';
import type { Fees } from './records.js';

/**
 * Each part rounded half up to what the wire carries in `currency` — a whole minor unit, or 10
 * fils of a three-decimal currency, since the gateway's amounts have two decimals at most — in
 * integers only.
 */
export function commission(amount: MinorUnits, currency: string, project: Project): Fees {
  const { fixedMinor, percentBasisPoints } = project.fees;
  const step = wireStep(currency);
  const steps = (tenThousandths: number) => Math.floor((tenThousandths + 5_000 * step) / (10_000 * step)) * step;
  return { fixed: steps(fixedMinor * 10_000), percent: steps(amount * percentBasisPoints) };
}

export function totalFee(fees: Fees): MinorUnits {
  return fees.fixed + fees.percent;
}
