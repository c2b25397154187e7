// Applies the visitor's display preferences (theme, language, direction) before the first paint,
// so a dark or right-to-left page never flashes light or left-to-right. A classic script from this
// origin: the strict Content-Security-Policy allows no inline script. Its tag names the
// localStorage key (`data-preferences`); the pages' modules (preferences.ts) change a preference by
// saving it there and dispatching an event of that name with them, which applies them here.
/* global window, document, localStorage */
(function () {
  var KEY = document.currentScript.dataset.preferences;
  if (!KEY) throw new Error('preferences.js: its <script> tag needs data-preferences, the localStorage key');
  function stored() {
    try {
      return JSON.parse(localStorage.getItem(KEY) || '{}') || {};
    } catch {
      return {};
    }
  }
  // Until a language is chosen, the browser's: the first of its languages the page has.
  function browserLanguage() {
    var asked = window.navigator.languages || [window.navigator.language];
    for (var i = 0; i < asked.length; i += 1) {
      var primary = String(asked[i]).split('-')[0].toLowerCase();
      if (primary === 'uk' || primary === 'en') return primary;
    }
    return 'en';
  }
  function apply(saved) {
    var root = document.documentElement;
    if (saved.theme === 'light' || saved.theme === 'dark') root.dataset.theme = saved.theme;
    else delete root.dataset.theme;
    root.lang = (saved.lang || browserLanguage()) === 'uk' ? 'uk' : 'en';
    root.dir = saved.dir === 'rtl' ? 'rtl' : 'ltr';
  }
  apply(stored());
  // The event's detail is the new preferences (also when storage is refused); without one, the stored ones.
  window.addEventListener(KEY, function (event) {
    apply(event.detail || stored());
  });
})();
