// The print view's "Drucken" button opens the browser's print dialog; a file of its own,
// as the Content-Security-Policy allows no inline script.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-print]")) window.print();
  });
})();
