// Keep the phone awake while an evening is open (Screen Wake Lock, where the browser has it).
// The lock is dropped whenever the page is hidden, so it is requested again on return.
(function () {
  "use strict";
  if (!("wakeLock" in navigator)) return;
  function keepAwake() {
    if (document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").catch(function () {
      // Refused (battery saver, permissions): the sheet works all the same.
    });
  }
  document.addEventListener("visibilitychange", keepAwake);
  keepAwake();
})();
