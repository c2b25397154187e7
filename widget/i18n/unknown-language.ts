/**
 * A `lang` the widget has no words for: English is shown, and the console says so once. A chunk
 * of its own, loaded only then, so that the module every page loads carries none of this text.
 */
let said = false;

export default (tag: string): Promise<{ default: object }> => {
  if (!said) console.warn(`<pay-form>: no words for lang="${tag}", so English is shown; the widget speaks en, uk, pl, de, fr and es`);
  said = true;
  return import('./en-messages.js');
};
