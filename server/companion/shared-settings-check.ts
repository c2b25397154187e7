/**
 * Instances on one ledger behind one address with settings that change what a request answers:
 * a capture refused on one and made on another, a card scheme taken on one and refused on the
 * next, a card number refused where another instance's widget tokenizes, customers' details
 * erased after the shortest time any instance keeps them, a microfinance session opened on one
 * without the details another requires. Each instance records
 * these settings as it starts, beside its admin token's check, and says once which differ from
 * those of the instance started before it. Expected, one instance after another, while they are
 * changed; the line says so.
 */
import type { Ledger } from '../ledger/index.js';
import type { Logger } from './log/logger.js';
import type { CompanionSettings } from './settings.js';

/** Each setting instances must agree on, by the variable that sets it. */
const SHARED = {
  captureOverReservePercent: 'PAYFORM_CAPTURE_OVER_RESERVE_PERCENT',
  acceptedBrands: 'PAYFORM_ACCEPTED_BRANDS',
  currencies: 'PAYFORM_CURRENCIES',
  merchantSector: 'PAYFORM_MERCHANT_SECTOR',
  personalDataDays: 'PAYFORM_PERSONAL_DATA_DAYS',
  tokenizes: 'PAYFORM_GATEWAY_WIDGET_KEY',
} as const;

type Shared = Record<keyof typeof SHARED, string>;

/** The settings as recorded and said: a list sorted, whatever order it was given in. */
function sharedOf(settings: CompanionSettings): Shared {
  return {
    captureOverReservePercent: String(settings.captureOverReservePercent),
    acceptedBrands: settings.acceptedBrands ? [...settings.acceptedBrands].sort().join(',') : 'every scheme',
    currencies: settings.currencies ? [...settings.currencies].sort().join(',') : 'any',
    merchantSector: settings.merchantSector ?? NO_SECTOR,
    personalDataDays: settings.personalDataDays === undefined ? KEPT_UNTIL_ERASED : `${settings.personalDataDays} days`,
    tokenizes: settings.tokenizer ? 'set: the widget tokenizes' : 'unset: cards are relayed',
  };
}

/**
 * Records this instance's shared settings and compares them with those recorded before, at
 * start: one insert, and a read and at most one write more once some are recorded. A ledger
 * that fails them is only logged at debug, as the token's check is.
 */
export async function checkSharedSettings(ledger: Ledger, settings: CompanionSettings, logger: Logger): Promise<void> {
  const mine = sharedOf(settings);
  let recorded: string | undefined;
  try {
    recorded = await ledger.recordSharedSettings(JSON.stringify(mine));
  } catch (error) {
    logger.debug('the settings could not be compared with the other instances’', { err: error });
    return;
  }
  const before = withLaterDefaults(readRecorded(recorded));
  const differing = (Object.keys(SHARED) as (keyof Shared)[]).filter((name) => before?.[name] !== undefined && before[name] !== mine[name]);
  if (differing.length === 0) return;
  logger.warn(
    `settings differ from those of the companion that last started on this ledger: ${differing.map((name) => `${SHARED[name]} (here ${mine[name]}; there ${before![name]})`).join('; ')}. ` +
      'If other instances share this ledger behind one address, they answer the same request differently until every one has the same settings; ' +
      'a lone companion restarted with new settings, or one instance after another being changed, may ignore this' +
      (differing.includes('personalDataDays') ? '. Every instance’s reconciliation erases customers’ details by age: the shortest PAYFORM_PERSONAL_DATA_DAYS among them is the one kept to' : ''),
  );
}

/** PAYFORM_MERCHANT_SECTOR unset, as recorded and said. */
const NO_SECTOR = 'unset: no sector rules';

/** PAYFORM_PERSONAL_DATA_DAYS unset, as recorded and said. */
const KEPT_UNTIL_ERASED = 'unset: kept until erased on request';

/**
 * The settings recorded before this release added one: a record of an older release, without
 * it, was written by an instance that had that setting's default (it took every currency, and
 * had no sector rules, and kept customers' details until erased on request).
 */
const ADDED_LATER: Partial<Shared> = { currencies: 'any', merchantSector: NO_SECTOR, personalDataDays: KEPT_UNTIL_ERASED };

function withLaterDefaults(recorded: Partial<Shared> | undefined): Partial<Shared> | undefined {
  return recorded && { ...ADDED_LATER, ...recorded };
}

/** What an instance recorded, if it reads as such: a later release may have recorded more, or other, fields. */
function readRecorded(recorded: string | undefined): Partial<Shared> | undefined {
  if (recorded === undefined) return undefined;
  try {
    const read: unknown = JSON.parse(recorded);
    return typeof read === 'object' && read !== null ? (read as Partial<Shared>) : undefined;
  } catch {
    return undefined;
  }
}
