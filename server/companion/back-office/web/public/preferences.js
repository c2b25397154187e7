// Applies the visitor's display preferences (theme, language, direction) before the first paint,
// so a dark or right-to-left page never flashes light or left-to-right. A classic script from this
// origin: the strict Content-Security-Policy allows no inline script. The pages' modules change a
// preference by saving it and dispatching `payform:back-office:preferences` with them, which applies them here.
/* global window, document, localStorage */
(function () {
  var KEY = 'payform:back-office:preferences';
  function stored() {
    try {
      return JSON.parse(localStorage.getItem(KEY) || '{}') || {};
    } catch {
      return {};
    }
  }
  function apply(saved) {
    var root = document.documentElement;
    if (saved.theme === 'light' || saved.theme === 'dark') root.dataset.theme = saved.theme;
    else delete root.dataset.theme;
    root.lang = saved.lang === 'uk' ? 'uk' : 'en';
    root.dir = saved.dir === 'rtl' ? 'rtl' : 'ltr';
  }
  apply(stored());
  // The event's detail is the new preferences (also when storage is refused); without one, the stored ones.
  window.addEventListener('payform:back-office:preferences', function (event) {
    apply(event.detail || stored());
  });
})();
