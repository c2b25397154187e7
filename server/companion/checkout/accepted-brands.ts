/**
 * The card schemes a shop takes (`acceptedBrands`): the widget's brand ids, checked at start, as
 * a name the widget does not know would have it refuse every card without a word; and held to by
 * the pay route, whose callers need not be the widget.
 */
import * as z from 'zod';
import { nearestName } from '@payform/gateway';
import { BRANDS, candidates } from '@payform/card/fields';
import type { Brand, BrandId } from '@payform/card/fields';

const IDS: readonly string[] = BRANDS.map(({ id }) => id);
const bare = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The id a merchant meant by a scheme's name or a near spelling (`Visa`, `American Express`, `master-card`). */
function brandMeant(text: string): string | undefined {
  return BRANDS.find(({ id, name }) => bare(id) === bare(text) || bare(name) === bare(text))?.id ?? nearestName(bare(text), IDS);
}

const BrandName = z.string().refine((id) => IDS.includes(id), {
  error: ({ input }) => {
    const meant = typeof input === 'string' ? brandMeant(input) : undefined;
    return `must be a brand id of the widget (${IDS.join(', ')})${meant ? `: ${JSON.stringify(input)} is ${meant}` : ''}`;
  },
});

export const AcceptedBrands = z
  .array(BrandName)
  .min(1, { error: 'must name at least one brand (leave it unset to take every brand the widget knows)' })
  .transform((ids) => ids as BrandId[]);

/**
 * Why the pay route refuses a card number of a scheme the shop does not take (its name, never
 * its digits), or undefined when the shop takes it or limits none.
 */
export function brandRefusal(digits: string, accepted: readonly BrandId[] | undefined): string | undefined {
  if (!accepted) return undefined;
  const found = candidates(digits);
  return refusal(found.length === 1 ? found[0] : undefined, accepted);
}

/**
 * The same for a card known by its mask (a tokenized or saved card's: `424242******4242`), by the
 * six digits it shows first; one showing fewer says nothing of its scheme, and is taken.
 */
export function maskBrandRefusal(mask: string, accepted: readonly BrandId[] | undefined): string | undefined {
  const prefix = /^\d{6}/.exec(mask)?.[0];
  return prefix === undefined ? undefined : brandRefusal(prefix, accepted);
}

function refusal(brand: Brand | undefined, accepted: readonly BrandId[]): string | undefined {
  if (brand && accepted.includes(brand.id)) return undefined;
  const takes = accepted.map((id) => BRANDS.find((known) => known.id === id)!.name).join(', ');
  return `${brand ? `is a ${brand.name} card` : 'is of a card scheme the widget does not know'}; this shop takes ${takes}`;
}
