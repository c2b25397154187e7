import { css } from 'lit';

/**
 * The theme `<pay-form>` and `<pay-button>` share: public `--pay-form-*` properties feed private
 * `--_*` ones. Colours follow the `color-scheme` the element inherits from the page (through
 * `light-dark()`); `color-scheme: dark` on the element itself forces dark. Muted text and borders
 * are mixed from the text colour, so one `--pay-form-color-text` keeps them in step.
 * A browser without `light-dark()` (before Chrome 123, Firefox 120, Safari 17.5) gets colours it
 * can read — a colour it cannot would leave inputs without a border and the button without a
 * background: the system's text and background (`CanvasText`, `Canvas`, which follow the scheme
 * too), muted text and borders mixed from them where `color-mix()` works, else plain greys.
 */
export const theme = css`
  :host {
    --_fg: var(--pay-form-color-text, CanvasText);
    --_bg: var(--pay-form-color-background, Canvas);
    --_muted: var(--pay-form-color-muted, #5b5e64);
    --_line: var(--pay-form-color-border, #828488);
    --_accent: var(--pay-form-color-accent, #3347d6);
    --_error: var(--pay-form-color-error, #c0282d);
  }
  @supports (color: color-mix(in srgb, red 50%, #0000)) {
    :host {
      --_muted: var(--pay-form-color-muted, color-mix(in srgb, var(--_fg) 72%, #0000));
      --_line: var(--pay-form-color-border, color-mix(in srgb, var(--_fg) 55%, #0000));
      --_track: color-mix(in srgb, var(--_accent) 25%, #0000);
    }
  }
  @supports (color: light-dark(#000, #fff)) {
    :host {
      --_fg: var(--pay-form-color-text, light-dark(#1b1f27, #e9ebf0));
      --_bg: var(--pay-form-color-background, light-dark(#fff, #1d2027));
      --_accent: var(--pay-form-color-accent, light-dark(#3347d6, #9aa8ff));
      --_error: var(--pay-form-color-error, light-dark(#c0282d, #ff8f8a));
    }
  }
  :host {
    --_radius: var(--pay-form-radius, 8px);
    --_space: var(--pay-form-spacing, 12px);
    /* The accent itself, past a gap of the background: 3:1 or more against the page and the button alike. */
    --_ring: var(--pay-form-focus-ring, 0 0 0 2px var(--_bg), 0 0 0 4px var(--_accent));
    display: block;
    /* In rem, as the reader's text size grows (WCAG 1.4.4); never under 15px, where a page's root is 10px (62.5%). */
    font: var(--pay-form-font, max(15px, 0.9375rem) / 1.4 system-ui, sans-serif);
    color: var(--_fg);
  }
  /* The display above would otherwise outrank the page's hidden attribute. */
  :host([hidden]) {
    display: none;
  }
  /* A transparent outline, not none: forced colours (Windows High Contrast) drop the ring and
     paint the outline in the system's colour. */
  :focus-visible {
    outline: 2px solid #0000;
    box-shadow: var(--_ring);
  }
  /* A transparent border, not none (the padding a pixel less for it): forced colours paint it, so
     the button still looks like one. */
  [part='button'] {
    width: 100%;
    padding: 11px;
    border: 1px solid #0000;
    border-radius: var(--_radius);
    background: var(--_accent);
    color: var(--pay-form-color-on-accent, var(--_bg));
    font: inherit;
    font-weight: 600;
    cursor: pointer;
  }
  [part='button'][aria-disabled='true'] {
    opacity: 0.65;
    cursor: progress;
  }
  [part='message'] {
    margin: 8px 0 0;
    text-align: center;
  }
  /* Empty, it takes no room but stays in the accessibility tree: its first words are announced. */
  [part='message']:empty {
    margin: 0;
  }
  .error {
    color: var(--_error);
  }
  [part='banner'] {
    margin: 0 0 var(--_space);
    padding: 6px 10px;
    border-radius: var(--_radius);
    background: #fb04;
    font-size: 0.87em;
  }
  .outcome {
    display: grid;
    justify-items: center;
    gap: 8px;
    padding: var(--_space) 0;
  }
  /* The ring's track in the border colour where color-mix() is unknown: there the mix, holding a
     var(), would unset the whole border when used. Spun by transform: rotate came in Chrome 104. */
  .spinner {
    width: 24px;
    height: 24px;
    border: 3px solid var(--_track, var(--_line));
    border-top-color: var(--_accent);
    border-radius: 50%;
    animation: spin 0.8s linear infinite;
  }
  @keyframes spin {
    to {
      transform: rotate(1turn);
    }
  }
  /* Forced colours paint a disabled button's text grey; one only marked so is painted by hand. They
     paint the spinner's ring in one colour too, which shows no turn: it keeps its own, the system's
     text colour for its arc, the grey of disabled text for the rest. */
  @media (forced-colors: active) {
    [part='button'][aria-disabled='true'] {
      color: GrayText;
    }
    .spinner {
      forced-color-adjust: none;
      border-color: GrayText;
      border-top-color: CanvasText;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .spinner {
      animation: none;
    }
  }
  .tick {
    width: 40px;
    border-radius: 50%;
    background: var(--_accent);
    color: var(--_bg);
    font: 700 24px/40px system-ui;
    text-align: center;
  }
`;
