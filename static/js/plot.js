// The Runde's balance plot, seen by one of its players (data-own-player around it): their
// own line is drawn over the others, which fade, and their name in the legend stands out.
// Without JavaScript every line looks alike, as for a visitor with no player here.
(function () {
  "use strict";
  var around = document.querySelector("[data-own-player]");
  if (!around) return;
  var own = '[data-player="' + around.getAttribute("data-own-player") + '"]';
  var line = around.querySelector(".balance-plot path" + own);
  if (!line) return;
  line.classList.add("own");
  line.parentNode.appendChild(line);
  var item = around.querySelector(".plot-legend li" + own);
  if (item) item.classList.add("own");
})();
