// Share buttons (button[data-share] names the input holding the link): the phone's share
// sheet where the browser offers one, else the link is copied to the clipboard and the
// button's status says "Kopiert". Without JavaScript the buttons stay hidden; the link
// is in a read-only field to copy by hand.
(function () {
  "use strict";

  var canShare = typeof navigator.share === "function";

  function say(button, text) {
    var status = button.parentNode.querySelector(".share-status");
    if (!status) return;
    status.textContent = text;
    clearTimeout(button.shareTimer);
    button.shareTimer = setTimeout(function () { status.textContent = ""; }, 4000);
  }

  // The old way, for browsers without the asynchronous clipboard (or without permission).
  function copyBySelecting(field) {
    field.focus();
    field.select();
    field.setSelectionRange(0, field.value.length);
    try {
      return document.execCommand("copy");
    } catch (error) {
      return false;
    }
  }

  function copy(field) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(field.value).catch(function () {
        if (!copyBySelecting(field)) throw new Error("copy refused");
      });
    }
    return copyBySelecting(field) ? Promise.resolve() : Promise.reject(new Error("copy refused"));
  }

  function setUp() {
    document.querySelectorAll("button[data-share]").forEach(function (button) {
      button.textContent = button.getAttribute(canShare ? "data-label-share" : "data-label-copy");
      button.hidden = false;
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-share]");
    if (!button) return;
    var field = document.getElementById(button.getAttribute("data-share"));
    if (!field) return;
    if (canShare) {
      navigator.share({ title: button.getAttribute("data-share-title"), url: field.value })
        .catch(function (error) {
          // Closing the share sheet is no error; anything else falls back to copying.
          if (error && error.name === "AbortError") return;
          copy(field).then(
            function () { say(button, button.getAttribute("data-copied")); },
            function () { say(button, button.getAttribute("data-failed")); }
          );
        });
      return;
    }
    copy(field).then(
      function () { say(button, button.getAttribute("data-copied")); },
      function () { say(button, button.getAttribute("data-failed")); }
    );
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
