// Theme before first paint, so a dark page never flashes light. A file, not an inline
// script: the Content-Security-Policy allows scripts from our own origin only.
try {
  var p = JSON.parse(localStorage.getItem('preferences') || '{}');
  var t = p.theme === 'light' || p.theme === 'dark' ? p.theme : (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
  document.documentElement.dataset.theme = t;
  document.documentElement.dataset.gradient = p.showGradient === false ? 'off' : 'on';
} catch (e) {}
