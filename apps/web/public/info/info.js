// Shows the section in the language the app asked for (?lang=tr|en); English otherwise.
(function () {
  var lang = new URLSearchParams(location.search).get('lang') === 'tr' ? 'tr' : 'en';
  document.documentElement.lang = lang;
  document.querySelectorAll('[data-lang]').forEach(function (section) {
    section.hidden = section.dataset.lang !== lang;
  });
})();
