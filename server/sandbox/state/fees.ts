/** The commission the sandbox charges: a fixed part plus a percentage, in minor units. */
import type { MinorUnits } from './amounts.js';
import type { Project } from '../config.js';
import type { Fees } from './records.js';

/** Percentage part rounded half up to a whole minor unit, in integers only. */
export function commission(amount: MinorUnits, project: Project): Fees {
  const { fixedMinor, percentBasisPoints } = project.fees;
  return { fixed: fixedMinor, percent: Math.floor((amount * percentBasisPoints + 5_000) / 10_000) };
}

export function totalFee(fees: Fees): MinorUnits {
  return fees.fixed + fees.percent;
}
