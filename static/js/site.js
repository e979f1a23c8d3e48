// Site-wide: every page sends the CSRF token that is current now, not the one it was
// rendered with. Logging in again (in another tab, after a session ran out) rotates the
// token; without this, every form left open elsewhere would answer 403 until reloaded.
(function () {
  "use strict";

  function currentToken() {
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : null;
  }

  // Plain forms: Django reads the form field first, so refresh it right before sending.
  document.addEventListener("submit", function (event) {
    var token = currentToken();
    if (!token) return;
    var field = event.target.querySelector("input[name='csrfmiddlewaretoken']");
    if (field) field.value = token;
  }, true);

  // A plain form is sent once: a second tap while the first is on its way would send it
  // again, and its answer would be the one shown (a tariff saved twice says "Nichts
  // geändert"). htmx forms have their own guards. A page brought back by "Zurück" sends again.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.method !== "post" || event.defaultPrevented) return; // htmx sends it
    if (form.dataset.sent) {
      event.preventDefault();
      return;
    }
    form.dataset.sent = "1";
  });
  // Offline (the phone knows it): a plain form is not sent into the browser's error page,
  // which would lose what was chosen; it stays as it is, with a word above it, and one
  // more tap sends it once the phone is connected again. (htmx forms say so themselves.)
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (navigator.onLine !== false || form.method !== "post" || form.hasAttribute("hx-post")) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    var word = form.previousElementSibling;
    if (!word || !word.classList.contains("offline-word")) {
      word = document.createElement("div");
      word.className = "alert offline-word";
      word.setAttribute("role", "alert");
      form.before(word);
    }
    word.textContent = document.body.dataset.offline;
    // Above a long form (a correction's page): the word comes into view.
    word.scrollIntoView({ block: "nearest" });
  }, true);
  // A take-back, a restore, a strike or a correction sent by a plain form moves the
  // evening's deal by this phone's own doing: a game half entered for the deal before is
  // not news of another phone's booking when the evening's page loads again (evening.js,
  // 9), so what that tab kept of it goes.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var evening = form.action.match(/\/abend\/\d+\/(?=zuruecknehmen\/|spiel\/|sitzordnung\/)/);
    if (!evening || event.defaultPrevented || form.hasAttribute("hx-post")) return;
    try {
      sessionStorage.removeItem("entry:" + evening[0]);
    } catch (error) {
      // Storage refused: nothing was kept.
    }
  });
  // A phone following the sheet says when its poll gets no answer, as its standing may
  // be behind then (#poll-offline, evenings/evening.html and live.html); the next answer
  // takes the word away.
  function pollOffline(event) {
    var word = document.getElementById("poll-offline");
    if (word && event.detail.elt && event.detail.elt.id === "poll") word.hidden = false;
  }
  document.addEventListener("htmx:sendError", pollOffline);
  document.addEventListener("htmx:timeout", pollOffline);
  document.addEventListener("htmx:afterRequest", function (event) {
    var word = document.getElementById("poll-offline");
    var elt = event.detail.elt;
    // A booking's answer brings what the sheet missed, as a poll's does.
    if (word && event.detail.successful && elt && /^(poll|entry-form)$/.test(elt.id)) {
      word.hidden = true;
    }
  });
  window.addEventListener("online", function () {
    document.querySelectorAll(".offline-word").forEach(function (word) {
      word.textContent = document.body.dataset.online;
    });
  });
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    document.querySelectorAll("form[data-sent]").forEach(function (form) {
      delete form.dataset.sent;
    });
  });

  // htmx requests: the header and, where the form carries one, the field.
  document.addEventListener("htmx:configRequest", function (event) {
    var token = currentToken();
    if (!token) return;
    event.detail.headers["X-CSRFToken"] = token;
    if (event.detail.parameters.has("csrfmiddlewaretoken")) {
      event.detail.parameters.set("csrfmiddlewaretoken", token);
    }
  });
})();

// Enter on a box or a chip ticks it, as a tap does; a form goes from its button or a
// text field. A form's own Enter would send it as it is: a game booked without the
// Schneider it was to tick (walk 78), a newcomer "added" from the first dealer's chips
// (walk 79).
document.addEventListener("keydown", function (event) {
  if (event.key === "Enter" && /^(radio|checkbox)$/.test(event.target.type)) {
    event.preventDefault();
    event.target.click();
  }
});

// A page sent back with errors: the first field in error gets the focus, rather than the
// form's first field, and comes into view with its message. On a phone the message of a
// mistyped password would otherwise sit below the screen, under a focused user name.
// Otherwise a message at the top ("Zahlung eingetragen.", or a page's [data-read-first])
// gets it, so that a screen reader reads it first: a live region that is there as the
// page loads is not read out. (Not by autofocus: on a phone it drew a keyboard's ring.)
// A page sent to a part of itself ("#teilnehmer" after "Melden", "#einladung-7" after a
// new invitation) is scrolled there once loaded, and Chromium then takes the focus off
// the message: it is given back then, without scrolling away from that part. The message
// goes to the start of that part, in view with what it is about (at the top of the page
// it was out of view, the focus ring with it, and Tab went on from there).
(function () {
  "use strict";
  var invalid = document.querySelector("form [aria-invalid='true']");
  var region = invalid;
  if (!invalid) {
    if (document.querySelector("[autofocus]")) return; // the page knows what comes next
    var message = document.querySelector(".messages, [data-read-first]");
    region = message && message.closest("[tabindex='-1']");
    if (!region) return;
    var part = location.hash && document.getElementById(location.hash.slice(1));
    if (part && region.id === "messages") part.prepend(region);
  }
  region.focus({ preventScroll: true });
  // A field in error at "#neu" too (walk 79: the refused newcomer's name lost it).
  if (location.hash) {
    window.addEventListener("load", function () {
      setTimeout(function () {
        if (document.activeElement === document.body) region.focus({ preventScroll: true });
      });
    });
  }
  if (invalid) invalid.scrollIntoView({ block: "center" });
})();

// A page that follows what changes (its #poll: an evening, open or closed) stops asking
// once told 404: this person may no longer see it (removed from the club, say, while the
// page was open). The server's word (clubs.views.not_found) goes at the top.
document.addEventListener("htmx:responseError", function (event) {
  "use strict";
  var poll = event.detail.elt;
  if (!poll || poll.id !== "poll" || event.detail.xhr.status !== 404) return;
  poll.remove();
  var flash = document.getElementById("flash");
  var word = event.detail.xhr.responseText.trim();
  // Our own server's words.
  if (flash && /^<div class="alert gone"/.test(word)) flash.innerHTML = word;
});

// A field's errors replaced out of band (the tariff's preview at each keystroke): the
// field is marked invalid, and described by its message, as the message comes and goes;
// so too by what the preview asks about it ("So gewollt?", data-field).
document.addEventListener("htmx:afterSettle", function () {
  "use strict";
  document.querySelectorAll(".field-errors").forEach(function (box) {
    var field = document.getElementById(box.id.replace(/_errors$/, ""));
    if (!field) return;
    var id = field.id + "_error";
    var described = (field.getAttribute("aria-describedby") || "").split(/\s+/).filter(function (token) {
      return token && token !== id && token.indexOf(field.id + "_asked") !== 0;
    });
    document.querySelectorAll('[data-field="' + field.id + '"]').forEach(function (asked) {
      described.push(asked.id);
    });
    if (box.querySelector("#" + id)) {
      described.push(id);
      field.setAttribute("aria-invalid", "true");
    } else {
      field.removeAttribute("aria-invalid");
    }
    if (described.length) field.setAttribute("aria-describedby", described.join(" "));
    else field.removeAttribute("aria-describedby");
  });
});
