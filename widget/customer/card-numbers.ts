/**
 * The card-number detector (@payform/card's card-numbers), as the chunk checks.ts loads: through
 * this module it shares the page's one chunk of the form's modules, as index.ts says.
 */
import '../index.js';

export { holdsCardNumber, nameHoldsCardNumber } from '@payform/card/card-numbers';
