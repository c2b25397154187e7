import { css } from 'lit';

export const styles = css`
  form,
  fieldset {
    display: grid;
    gap: var(--_space);
    margin: 0;
    padding: 0;
    border: 0;
  }
  [part~='field'] {
    display: grid;
    gap: 4px;
    align-content: start;
    /* A word wider than its column ("Sicherheitscode" in half a phone's row, in large text) breaks
       rather than spill past the form, widening the field's input with it (WCAG 1.4.10): "anywhere",
       not "break-word", lets the column's minimum shrink too. Only such a word: others wrap at their
       spaces as ever. A field's own, not the element's: where items share a line by their widths
       (the test cards' list) it would break words that fit a line of their own. */
    overflow-wrap: anywhere;
  }
  .row {
    display: grid;
    grid-template-columns: 1fr 1fr;
    gap: 4px var(--_space);
  }
  /* Labels, inputs and errors line up across a row even when a label wraps. */
  .row > * {
    grid-row: span 3;
    grid-template-rows: subgrid;
    /* Narrower than its longest word if need be: a German form still fits 320 px. */
    min-width: 0;
  }
  .row:empty {
    display: none;
  }
  [part~='field'] > :first-child {
    display: flex;
    flex-flow: wrap;
    justify-content: space-between;
    align-items: baseline;
    gap: 0 8px;
  }
  [part='label'],
  legend {
    padding: 0;
    font-weight: 500;
    font-size: 0.9em;
  }
  [part='hint'] {
    color: var(--_muted);
    font-size: 0.8em;
  }
  .control {
    position: relative;
  }
  [part~='input'],
  fieldset label {
    box-sizing: border-box;
    width: 100%;
    padding: 10px 12px;
    border: 1px solid var(--_line);
    border-radius: var(--_radius);
    background: var(--_bg);
    color: inherit;
    font: inherit;
    /* Below 16px, iOS Safari zooms the page into each field it focuses. */
    font-size: max(1em, 16px);
  }
  [part~='input']:focus {
    border-color: var(--_accent);
    box-shadow: var(--_ring);
  }
  /* The chosen card: its border in the accent and twice as thick (the inner pixel a shadow, so its
     size stays), not the focus ring, which showed beside the focused pay button as a second one.
     The ring goes round the card whose radio has focus. Apart: a browser without :has() (Firefox
     before 121) drops the whole rule it stands in. */
  fieldset label:has(:checked) {
    border-color: var(--_accent);
    box-shadow: inset 0 0 0 1px var(--_accent);
  }
  fieldset label:has(:focus-visible) {
    box-shadow: inset 0 0 0 1px var(--_accent), var(--_ring);
  }
  [part~='input'][aria-invalid='true'] {
    border-color: var(--_error);
  }
  /* Forced colours paint every border alike: an invalid field's is double there, three pixels
     wide, taken from its padding so that it keeps its size. */
  @media (forced-colors: active) {
    [part~='input'][aria-invalid='true'] {
      border: 3px double;
      padding-block: 8px;
    }
  }
  #number {
    padding-right: 52px;
  }
  /* Centred by its margins, its height known: no transform, which a page's ::part(icon) one would replace. */
  .control [part='icon'] {
    position: absolute;
    right: 10px;
    top: 0;
    bottom: 0;
    margin: auto 0;
  }
  [part='icon'] {
    display: grid;
    place-items: center;
    min-width: 24px;
    height: 18px;
    padding: 0 4px;
    border-radius: 3px;
    color: #fff;
    font: 700 8px/1 system-ui, sans-serif;
    text-transform: uppercase;
  }
  [part='icon']:empty {
    border: 1px solid var(--_muted);
    opacity: 0.5;
  }
  /* Scheme colours, dark enough for white text. */
  .visa {
    background: #1a1f71;
  }
  .mastercard {
    background: #eb001b;
  }
  .amex {
    background: #1f72cd;
  }
  .discover {
    background: #b34400;
  }
  .diners {
    background: #0079be;
  }
  .jcb {
    background: #0b6b3a;
  }
  .unionpay {
    background: #d10429;
  }
  .maestro {
    background: #0069a8;
  }
  .mir {
    background: #0f754e;
  }
  .prostir {
    background: #0057b8;
  }
  [part='error'] {
    color: var(--_error);
    font-size: 0.85em;
    /* Its words set its direction (dir=auto): English on a right-to-left page still sits under the label. */
    justify-self: start;
  }
  /* Empty, out of the flow and out of sight (a merchant's ::part(error) padding or border would
     show), but not display: none, which would drop its live region from the accessibility tree
     and silence its first words. Clipped too: a page's own ::part(error) transform replaces the scale. */
  [part='error']:empty {
    position: absolute;
    transform: scale(0);
    clip-path: inset(50%);
  }
  fieldset {
    gap: 6px;
  }
  fieldset label {
    display: flex;
    align-items: center;
    gap: 10px;
    cursor: pointer;
  }
  [type='radio'] {
    margin: 0;
    accent-color: var(--_accent);
  }
`;
