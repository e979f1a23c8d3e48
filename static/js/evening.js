// The evening screen's few bits of JavaScript; everything else is HTML and htmx.
(function () {
  "use strict";

  // 1. Keep the phone awake while an evening is open (Screen Wake Lock, where the browser
  //    has it). The lock is dropped whenever the page is hidden, so ask again on return.
  function keepAwake() {
    if (!("wakeLock" in navigator) || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").catch(function () {
      // Refused (battery saver, permissions): the sheet works all the same.
    });
  }
  document.addEventListener("visibilitychange", keepAwake);
  keepAwake();

  // 2. When a booking gets no answer (no signal in the pub, a server hiccup), say so at the
  //    form. The typed game and its key stay, so tapping "Speichern" again books it once.
  // The texts come from the template (data-offline, data-refused), translated there.
  function say(which) {
    var status = document.getElementById("entry-status");
    if (!status) return;
    var alert = document.createElement("div");
    alert.className = "alert";
    alert.setAttribute("role", "alert");
    alert.textContent = status.dataset[which];
    status.replaceChildren(alert);
  }
  function isBooking(event) {
    return event.detail.elt && event.detail.elt.id === "entry-form";
  }
  document.addEventListener("htmx:sendError", function (event) {
    if (isBooking(event)) {
      say("offline");
    }
  });
  document.addEventListener("htmx:responseError", function (event) {
    if (isBooking(event)) {
      say("refused");
    }
  });
})();
