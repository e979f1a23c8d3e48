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
  // The texts come from the form (data-offline, data-refused), translated there.
  function say(which) {
    var status = document.getElementById("entry-status");
    var form = document.getElementById("entry-form");
    if (!status || !form) return;
    var alert = document.createElement("div");
    alert.className = "alert";
    alert.setAttribute("role", "alert");
    alert.textContent = form.dataset[which];
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
  // 3. A booking's answer sends only what changed (the row, the standing, the next deal,
  //    a new key), so the form sets itself back for the next game here: each chip to
  //    what a fresh form starts with (data-default), every player unchosen.
  document.addEventListener("entryBooked", function () {
    var fields = document.getElementById("entry-fields");
    if (!fields) return;
    fields.querySelectorAll("input[type=radio], input[type=checkbox]").forEach(function (input) {
      input.checked = input.hasAttribute("data-default");
    });
  });
  // 4. "Abbrechen" closes the correction opened in place on the evening screen.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-close='correction']");
    if (!button) return;
    var panel = document.getElementById("correction");
    if (panel) panel.replaceChildren();
  });
  // 5. A field's error ("Bitte auswählen.") goes once one of its chips is tapped; the next
  //    "Speichern" says again whatever is still missing.
  document.addEventListener("change", function (event) {
    var field = event.target.closest && event.target.closest(".field.invalid");
    if (!field) return;
    field.classList.remove("invalid");
    field.querySelectorAll(".error").forEach(function (error) {
      error.remove();
    });
    field.querySelectorAll("[aria-invalid]").forEach(function (input) {
      input.removeAttribute("aria-invalid");
    });
  });
  // 6. A correction or a struck game, saved from the panel down by the sheet, answers with
  //    a word at the top ("Korrigiert …", "Gestrichen: … Rückgängig"): the screen goes there.
  document.addEventListener("corrected", function () {
    var flash = document.getElementById("flash");
    if (flash) flash.scrollIntoView({ block: "nearest" });
  });
  document.addEventListener("htmx:responseError", function (event) {
    if (isBooking(event)) {
      say("refused");
    }
  });
})();
