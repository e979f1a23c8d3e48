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
  //    A correction or a strike in the panel says so in the panel: its answer was lost,
  //    so it may have been saved; tapping again saves it once.
  // Where a word on a form goes: above the entry form, or at the head of the correction
  // panel (its forms, the correction's and the strike's).
  function statusOf(form) {
    return document.getElementById(form.id === "entry-form" ? "entry-status" : "correction-status");
  }
  function say(event, which) {
    var form = event.detail.elt && event.detail.elt.closest("form");
    var status = form && statusOf(form);
    if (form && which === "loggedOut" && !form.dataset.loggedOut) which = "stale";
    if (!status || !form.dataset[which] || !form.closest("#entry-form, #correction")) return;
    var alert = document.createElement("div");
    alert.className = "alert";
    alert.setAttribute("role", "alert");
    alert.textContent = form.dataset[which];
    status.replaceChildren(alert);
    // Above a long form: the word comes into view, not only the "Speichern" just tapped.
    status.scrollIntoView({ block: "nearest" });
  }
  // No answer in 20 s (htmx's timeout, templates/base.html) is no answer either: the
  // button is free again and the word says to tap once more.
  function noAnswer(event) {
    var elt = event.detail.elt;
    if (elt && /^(correction-)?preview$/.test(elt.id) && elt.dataset.offline) {
      // The preview's request got no answer either: it says so, not "Spieler wählen".
      var note = document.createElement("span");
      note.className = "muted";
      note.textContent = elt.dataset.offline;
      elt.replaceChildren(note);
      return;
    }
    say(event, "offline");
  }
  document.addEventListener("htmx:sendError", noAnswer);
  document.addEventListener("htmx:timeout", noAnswer);
  // 3. A booking's answer sends only what changed (the row, the standing, the next deal,
  //    a new key), so the form sets itself back for the next game here: each chip to
  //    what a fresh form starts with (data-default), every player unchosen.
  document.addEventListener("entryBooked", function () {
    var fields = document.getElementById("entry-fields");
    if (!fields) return;
    fields.querySelectorAll("input[type=radio], input[type=checkbox]").forEach(function (input) {
      input.checked = input.hasAttribute("data-default");
    });
    ownPartnerHidden(document.getElementById("entry-form"));
  });
  // 3c. The preview and a booking on its way. The booking disables the form's fields until
  //     its answer is in (hx-disabled-elt), so a preview asked for meanwhile (a tap queued
  //     behind a running preview, or the poll's dealChanged) would send a form without its
  //     deal and choices: the server takes that for a stale form and answers with the deal
  //     as it is then, before the game is booked, and that answer, coming after the
  //     booking's, put back the old deal line and token. Such a preview is asked for once
  //     the booking's answer is in, unless the game was booked (the answer sets the form
  //     and its preview back). A preview asked for before a booking's answer booked the
  //     game is of a form that has gone: its answer, if it comes later, is not shown.
  // a booking is on its way
  var booking = false;
  // a preview was held back while it was
  var previewDue = false;
  // games booked from this screen (entryBooked)
  var booked = 0;
  // `booked` when the last preview was asked for
  var previewAskedAt = 0;
  // the sheet is to be asked once the booking's request is done (dealMoved, 3a)
  var pollDue = false;
  document.addEventListener("entryBooked", function () {
    booked += 1;
    previewDue = false;
  });
  document.addEventListener("htmx:confirm", function (event) {
    if (booking && event.detail.elt.id === "preview") {
      event.preventDefault();
      previewDue = true;
    }
    // Nor a poll: the booking's answer brings what changed and a new poll element, and
    // the old one's answer would have nowhere to go (htmx logged an error for each part).
    // Nor while a strike or a correction here is on its way: the poll would tell this
    // phone's own change as another phone's (walk 69).
    if ((booking || acting) && event.detail.elt.id === "poll") event.preventDefault();
  });
  // the panel's or the bar's form whose request is on its way (its answer may remove it)
  var acting = null;
  document.addEventListener("htmx:beforeSend", function (event) {
    var elt = event.detail.elt;
    if (elt.id === "entry-form") booking = true;
    if (elt.id === "preview") previewAskedAt = booked;
    if (elt.tagName === "FORM" && elt.closest("#correction, #restore")) acting = elt;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    // (said again on a parent if the answer removed the form: detail.elt is that parent)
    if ((event.detail.requestConfig || {}).elt === acting) acting = null;
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.requestConfig.elt.id === "preview" && previewAskedAt !== booked) {
      event.detail.shouldSwap = false;
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.elt;
    if (form.id !== "entry-form") return;
    booking = false;
    if (pollDue) {
      pollDue = false;
      htmx.trigger(document.body, "pollNow");
    }
    if (previewDue) {
      previewDue = false;
      // what #preview listens for
      form.dispatchEvent(new Event("change"));
    }
  });
  // 2b. Logged out elsewhere, the sheet's poll put a word at the top (.session-expired);
  //     once a poll gets through again (logged in again in another tab), it goes.
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (!event.detail.elt || event.detail.elt.id !== "poll" || !event.detail.successful) return;
    // the word itself
    if (xhr && xhr.getResponseHeader("HX-Retarget")) return;
    document.querySelectorAll("#flash .session-expired").forEach(function (word) {
      word.remove();
    });
    // A booking that got no answer: the connection is back, and the word says so.
    var form = document.getElementById("entry-form");
    var alert = document.querySelector("#entry-status .alert");
    if (form && alert && alert.textContent === form.dataset.offline) {
      alert.textContent = form.dataset.online;
    }
    // ... and so does a correction's or a strike's in the panel.
    alert = document.querySelector("#correction-status .alert");
    document.querySelectorAll("#correction form[data-offline]").forEach(function (panelForm) {
      if (alert && alert.textContent === panelForm.dataset.offline) {
        alert.textContent = document.body.dataset.online;
      }
    });
  });
  // 3a. Another phone booked while this one was entering a game: the word on it comes
  //     into view, also for whoever had scrolled down to Kontra or Laufende.
  // The deal moved on under the form, or a correction here set its players anew: the
  // preview was of choices that may have gone (one who sits out now), so it is asked anew.
  function previewAnew() {
    var form = document.getElementById("entry-form");
    if (form) form.dispatchEvent(new Event("change"));
  }
  document.addEventListener("dealMoved", function () {
    var status = document.getElementById("entry-status");
    if (status) status.scrollIntoView({ block: "nearest" });
    previewAnew();
    // The sheet is asked at once, so that it shows what the word names; not while the
    // booking's request is still done with (no poll then, 3c), but right after it.
    if (booking) pollDue = true;
    else htmx.trigger(document.body, "pollNow");
  });
  // 3a'. The game being entered was booked on another phone, and the choices went (the
  //      word above says so): "Speichern" with nobody chosen brings that word back into
  //      view, instead of "Bitte wählen, wer spielt", which read as "not saved" and had a
  //      first-timer enter the game a second time.
  document.addEventListener("htmx:confirm", function (event) {
    var form = event.detail.elt;
    var said = document.querySelector("#entry-status [data-cleared]");
    if (form.id !== "entry-form" || !said) return;
    if (form.querySelector("[name$=declarer]:checked, [name$=loser]:checked")) return;
    event.preventDefault();
    said.scrollIntoView({ block: "center" });
    said.focus({ preventScroll: true });
  });
  // 3d. A late second tap on "Speichern" hits the fresh form: nobody chosen within a
  //     moment of the booking's answer is that tap, not a game (walk 68).
  var bookedAt = 0;
  document.addEventListener("htmx:confirm", function (event) {
    var form = event.detail.elt;
    if (form.id !== "entry-form" || Date.now() - bookedAt > 1500) return;
    if (!form.querySelector("[name$=declarer]:checked, [name$=loser]:checked")) event.preventDefault();
  });
  // 3a'''. A game just like the one booked last is asked about (walk 57): "Speichern"
  //        brings the question into view until its box is ticked; a chip changed drops it.
  function againAsked() {
    return document.querySelector("#entry-status [data-again]");
  }
  document.addEventListener("htmx:confirm", function (event) {
    var form = event.detail.elt, asked = againAsked();
    if (form.id !== "entry-form" || !asked || form.querySelector("[name=again]:checked")) return;
    event.preventDefault();
    asked.scrollIntoView({ block: "center" });
    asked.focus({ preventScroll: true });
  });
  document.addEventListener("change", function (event) {
    var asked = againAsked();
    if (asked && event.target.closest("#entry-fields")) asked.closest(".alert").remove();
  });
  // 3a''. The other phone booked the deal these choices were entered for, as another game
  //       (walk 56): they are that game had otherwise, or already the next one. The first
  //       "Speichern" brings the word that says both ways into view; the next one books.
  document.addEventListener("htmx:confirm", function (event) {
    var form = event.detail.elt;
    var said = document.querySelector("#entry-status [data-clash]:not([data-read])");
    if (form.id !== "entry-form" || !said) return;
    event.preventDefault();
    said.setAttribute("data-read", "");
    said.scrollIntoView({ block: "center" });
    said.focus({ preventScroll: true });
  });
  // 3b. "Letztes Spiel zurücknehmen" takes back the last game this phone shows: the form
  //     sends the version the sheet is at now (polls and answers keep #sheet-version), and
  //     the server takes nothing back if the evening has changed since.
  document.addEventListener("submit", function (event) {
    var shown = document.getElementById("sheet-version");
    if (event.target.id === "undo" && shown) event.target.elements.v.value = shown.value;
  }, true);
  //     Its button names the game it takes back, the last one on the sheet that counts,
  //     and shows while there is one (also where another phone booked it).
  function nameUndo() {
    var button = document.querySelector("#undo [data-numbered]");
    var games = document.querySelectorAll("#sheet tbody.game:not(.taken-back)");
    var last = games[games.length - 1];
    if (!button) return;
    button.form.hidden = !last;
    if (last) button.textContent = button.dataset.numbered.replace("{n}", last.id.slice(5));
  }
  document.addEventListener("htmx:afterSettle", nameUndo);
  nameUndo();
  // 4. "Abbrechen" closes the correction opened in place on the evening screen, and so
  //    does Escape inside it.
  function closeCorrection() {
    var panel = document.getElementById("correction");
    if (panel) panel.replaceChildren();
    focus(opener());
  }
  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-close='correction']")) closeCorrection();
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && event.target.closest("#correction")) closeCorrection();
  });
  //    So does Back (walk 69: it left the evening, a correction half made with it): the
  //    panel opened adds an entry of this page to the history, which Back takes off by
  //    closing the panel; closed otherwise (saved, struck), it takes its entry off itself.
  //    No scroll is restored going back to that entry: the page stays where it is.
  var panelEntry = false;
  function panelOpened() {
    if (panelEntry) return;
    history.scrollRestoration = "manual";
    history.pushState({ panel: true }, "");
    panelEntry = true;
  }
  var sendAfterBack = null;
  window.addEventListener("popstate", function () {
    // Back to "auto" once the browser has (not) restored this entry's scroll.
    setTimeout(function () { history.scrollRestoration = "auto"; }, 0);
    if (sendAfterBack) {
      var sent = sendAfterBack;
      sendAfterBack = null;
      sent.form.requestSubmit(sent.submitter);
      return;
    }
    if (!panelEntry) return;
    panelEntry = false;
    closeCorrection();
    // Back where the game was tapped, not where the panel was (walk 74).
    var row = opener();
    if (row) row.scrollIntoView({ block: "center" });
  });
  //    A plain form of the panel ("Wieder zählen") loads the page anew: its entry goes
  //    first, so that the page it loads is one Back from the evening's before, as after
  //    any form (walk 74: three Backs to leave). In the capture phase: before site.js
  //    marks the form sent.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!panelEntry || !form.closest("#correction") || form.hasAttribute("hx-post")) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    panelEntry = false;
    sendAfterBack = { form: form, submitter: event.submitter };
    history.back();
  }, true);
  var correctionPanel = document.getElementById("correction");
  if (correctionPanel) {
    new MutationObserver(function () {
      if (panelEntry && !correctionPanel.children.length) {
        panelEntry = false;
        history.back();
      }
    }).observe(correctionPanel, { childList: true });
  }
  // The game open in the panel was struck meanwhile (elsewhere, or here with its answer
  // lost): the panel, which would still offer to strike or correct it, gives way to a
  // word where it was, in view (the sheet's word is at the top of the screen, far up on
  // a phone: walk 38), until closed.
  // So does the panel of a struck game that counts again meanwhile.
  // The address of the game open in the panel: its correction's form, or a struck game's
  // "Wieder zählen".
  function panelGame() {
    var form = document.getElementById("correction-form");
    var restore = document.querySelector("#correction form[action$='/wiederherstellen/']");
    return form ? form.getAttribute("action")
      : restore && restore.getAttribute("action").replace(/wiederherstellen\/$/, "");
  }
  document.addEventListener("htmx:afterSettle", function () {
    var game = panelGame();
    var link = game && document.querySelector("#sheet a[href='" + game + "']");
    var row = link && link.closest("tbody");
    var correcting = Boolean(document.getElementById("correction-form"));
    if (!row || row.classList.contains("taken-back") !== correcting) return;
    var panel = document.getElementById("correction");
    var word = document.createElement("p");
    word.className = "alert";
    word.setAttribute("role", "alert");
    word.textContent = panel.dataset[correcting ? "struck" : "restored"].replace("{n}", row.id.slice(5));
    var close = document.createElement("button");
    close.type = "button";
    close.className = "close-correction";
    close.dataset.close = "correction";
    close.textContent = panel.dataset.closeLabel;
    var line = document.createElement("p");
    line.append(close);
    panel.replaceChildren(word, line);
    word.scrollIntoView({ block: "nearest" });
  });
  // The sheet changed under a panel still open (a poll's or a booking's answer brought
  // games; registered after the closing above, which goes first): its previews' "bisher"
  // and later games may be out of date. The correction's preview is asked anew; the
  // strike's and the restore's, which only the panel opened afresh has right, say so
  // (walk 68: they went unsaid; a strike that now does otherwise is shown first).
  // Marked as the answer is swapped, before its settle (walk 63: marked after it, the
  // mark took the strike's preview off the next panel opened).
  var sheetChanged = false;
  document.addEventListener("htmx:afterSwap", function (event) {
    var status = event.detail.xhr && event.detail.xhr.status;
    // By the address: the poll's element may have been swapped for a new one meanwhile.
    var path = (event.detail.pathInfo && event.detail.pathInfo.requestPath) || "";
    if (status === 200 && /\/(blatt|buchen)\/(\?|$)/.test(path)) sheetChanged = true;
    if (/\/buchen\//.test(path)) bookedAt = Date.now();
  });
  document.addEventListener("htmx:afterSettle", function () {
    var form = document.getElementById("correction-form");
    if (!sheetChanged) return;
    sheetChanged = false;
    if (!panelGame()) return;
    if (form) form.dispatchEvent(new Event("change"));
    document.querySelectorAll("#correction .strike-effects").forEach(function (effects) {
      effects.textContent = effects.dataset.stale;
    });
  });
  // 5. A field's error ("Bitte auswählen.") goes once one of its chips is tapped; the next
  //    "Speichern" says again whatever is still missing.
  //    A game booked in the end leaves none of the errors of the taps before it.
  function valid(field) {
    field.classList.remove("invalid");
    field.querySelectorAll(".error").forEach(function (error) {
      error.remove();
    });
    field.querySelectorAll("[aria-invalid]").forEach(function (input) {
      input.removeAttribute("aria-invalid");
    });
  }
  document.addEventListener("change", function (event) {
    var field = event.target.closest && event.target.closest(".field.invalid");
    if (field) valid(field);
  });
  document.addEventListener("entryBooked", function () {
    document.querySelectorAll("#entry-form .field.invalid").forEach(valid);
  });
  // 6. A correction or a struck game, saved from the panel down by the sheet, answers with
  //    a word at the top ("Korrigiert …", "Gestrichen: … Rückgängig"): the screen goes there.
  //    Its answer brings the entry form's player chips anew (a strike moves the deal on:
  //    another dealer, with five at the table another who sits out); the chips tapped
  //    before are tapped again where they still are: the game half entered is the one
  //    on the table, whatever an older one was corrected to.
  var tappedBefore = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var form = document.getElementById("entry-form");
    if (!form || !event.detail.elt || !event.detail.elt.closest("#correction")) return;
    tappedBefore = [];
    form.querySelectorAll("#entry-fields input:checked").forEach(function (input) {
      tappedBefore.push(input.name + "=" + input.value);
    });
  });
  document.addEventListener("corrected", function () {
    var flash = document.getElementById("flash");
    if (flash) flash.scrollIntoView({ block: "nearest" });
    var form = document.getElementById("entry-form");
    if (form && tappedBefore) {
      form.querySelectorAll("#entry-fields input").forEach(function (input) {
        if (tappedBefore.indexOf(input.name + "=" + input.value) >= 0) input.checked = true;
      });
      ownPartnerHidden(form);
      if (kept()) kept(state().join("&"));
    }
    tappedBefore = null;
    previewAnew();
  });
  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr && event.detail.xhr.status;
    if (status === 404 && gone(event)) return;
    // 403: the security token is gone (cookies cleared, logged out elsewhere). If the
    // sheet's poll has said so already ("Neu anmelden – danach geht es hier von selbst
    // weiter"), the form's word goes with it rather than asking for a reload.
    var loggedOut = status === 403 && document.querySelector("#flash .session-expired");
    say(event, status !== 403 ? "refused" : loggedOut ? "loggedOut" : "stale");
  });
  // 6b. A 404: this person may no longer do it (made a Spieler while the entry form was
  //     open). Tapping again cannot help: the server's word (clubs.views.not_found) goes
  //     where the tap was, or at the top. (A poll so refused stops: site.js.)
  function gone(event) {
    var elt = event.detail.elt;
    var xhr = event.detail.xhr;
    var word = xhr.responseText.trim();
    if (elt && elt.id === "poll") return true;
    if (!elt || !/^<div class="alert gone"/.test(word)) return false;
    var form = elt.closest("form");
    var place = form ? statusOf(form) : document.getElementById("flash");
    if (!place) return false;
    // Our own server's words.
    place.innerHTML = word;
    // Nothing this form shows can be booked now: no preview of it, no "Speichern" (gone,
    // not disabled: htmx enables what it disabled for the request).
    if (form && form.id === "entry-form") {
      var preview = document.getElementById("preview");
      if (preview) preview.replaceChildren();
      form.querySelectorAll("button").forEach(function (button) {
        button.style.display = "none";
      });
    }
    // In view, even far up the panel (a correction's "Speichern" is at its foot).
    place.scrollIntoView({ block: "nearest" });
    return true;
  }
  // 7. The focus, for whoever works by keyboard or screen reader. An answer that replaces
  //    what held it (a chip of the next players, a row of the sheet) hands it on to the
  //    new chip or row. A booking's form sent back with errors goes to its first field in
  //    error; a booked game to the next deal's line ("Spiel 5 · Wastl gibt"), which is
  //    read out. A correction opened in place goes to its heading; closed (saved, struck,
  //    "Abbrechen"), to the word on what happened, or back to the row it was opened from.
  //    By keyboard, what gets the focus comes into view (a booked game's next deal is up
  //    at the form's head); a tap leaves the screen where it is.
  var held = null;
  var openedFrom = null;
  var byKeyboard = false;
  document.addEventListener("keydown", function () { byKeyboard = true; }, true);
  document.addEventListener("pointerdown", function () { byKeyboard = false; }, true);
  function focus(element) {
    if (element) element.focus({ preventScroll: !byKeyboard });
  }
  function lost() {
    return !document.activeElement || document.activeElement === document.body;
  }
  function opener() {
    return openedFrom && document.querySelector("#sheet a[href='" + CSS.escape(openedFrom) + "']");
  }
  function counterpart(element) {
    if (!element || element === document.body) return null;
    if (element.name && (element.type === "radio" || element.type === "checkbox")) {
      return document.querySelector("input[name='" + CSS.escape(element.name) +
        "'][value='" + CSS.escape(element.value) + "']");
    }
    if (element.id) return document.getElementById(element.id);
    var href = element.getAttribute("href");
    return href && document.querySelector("a[href='" + CSS.escape(href) + "']");
  }
  function firstInvalid(container) {
    // Not a chip hidden from its group (the declarer's among the partners).
    var field = container && [].find.call(container.querySelectorAll("[aria-invalid='true']"),
      function (input) { return !input.closest("[hidden]"); });
    if (field) {
      field.focus({ preventScroll: true });
      field.scrollIntoView({ block: "center" });
    }
    return field;
  }
  document.addEventListener("htmx:beforeSwap", function () {
    held = document.activeElement;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail.elt;
    var panel = document.getElementById("correction");
    if (elt.id === "entry-form") {
      var asked = againAsked();
      if (asked) {
        asked.scrollIntoView({ block: "center" });
        asked.focus({ preventScroll: true });
      } else if (!firstInvalid(elt) && lost()) focus(document.getElementById("deal"));
    } else if (panel && elt.getAttribute("hx-target") === "#correction" && elt.closest("#sheet")) {
      openedFrom = elt.getAttribute("href");
      if (panel.children.length) panelOpened();
      focus(panel.querySelector(".correction-title"));
    } else if (elt === panel && lost()) {
      // A form of the panel, answered (htmx tells the panel once the form has gone with
      // the answer): open still (with errors), or closed.
      if (panel.children.length) {
        if (!firstInvalid(panel)) focus(panel.querySelector(".correction-title"));
      } else {
        var flash = document.getElementById("flash");
        focus(document.querySelector("#restore button") ||
          (flash && flash.textContent.trim() && flash) || opener());
      }
    } else if (lost()) {
      focus(counterpart(held));
    }
    held = null;
  });
  // 8. Nobody is their own partner: the declarer's chip leaves the partner's group (and
  //    is no longer chosen there). In the capture phase, before the preview is asked for.
  function ownPartnerHidden(form) {
    if (!form) return;
    var declarer = form.querySelector("input[name$='declarer']:checked");
    form.querySelectorAll("input[name$='partner']").forEach(function (input) {
      var own = declarer !== null && input.value === declarer.value;
      input.closest("label").hidden = own;
      if (own) input.checked = false;
      // Out of the radio group while hidden: Chromium's Tab skipped the whole group once
      // a chip tabbed to before was hidden (walk 35). Its form takes it back when shown.
      if (own) input.setAttribute("form", "no-form");
      else input.removeAttribute("form");
    });
  }
  document.addEventListener("change", function (event) {
    if (/declarer$/.test(event.target.name || "")) ownPartnerHidden(event.target.form);
  }, true);
  function ownPartnersHidden() {
    ownPartnerHidden(document.getElementById("entry-form"));
    ownPartnerHidden(document.getElementById("correction-form"));
  }
  document.addEventListener("htmx:afterSettle", ownPartnersHidden);
  ownPartnersHidden();
  // 10. A section's script (details[data-script]) is fetched when it is first opened.
  document.addEventListener("toggle", function (event) {
    var section = event.target;
    if (!section.open || !section.hasAttribute || !section.hasAttribute("data-script")) return;
    var script = document.createElement("script");
    script.src = section.getAttribute("data-script");
    section.removeAttribute("data-script");
    document.head.appendChild(script);
  }, true);
  // 9. A reload while a game is half entered (a hiccup of the pub's Wi-Fi, a tap on the
  //    wrong spot) keeps what was tapped: kept for this tab (sessionStorage) with the form's
  //    key, who sat at the table and the deal it was for, and put back onto that same
  //    table. If the deal has moved on meanwhile, a game half entered goes to the preview
  //    with the deal and key it was for, as a form the poll overtook: the answer says what
  //    was booked, by another phone or by this one whose answer was lost, and keeps what
  //    still applies. Nothing entered, nothing to tell: this screen's own "zurücknehmen"
  //    or strike moves the deal too. What the screen shows is kept as it settles.
  var entry = document.getElementById("entry-form");
  var draft = "entry:" + location.pathname;
  var FORM = /^(key|names|deal)=/;
  function state() {
    var shown = [];
    entry.querySelectorAll("[name=key], [name=names], [name=deal], #entry-fields input:checked")
      .forEach(function (input) { shown.push(input.name + "=" + input.value); });
    return shown;
  }
  function field(shown, name) {
    var found = shown.filter(function (item) { return item.indexOf(name + "=") === 0; })[0];
    return found === undefined ? null : found.slice(name.length + 1);
  }
  function choices(shown) {
    return shown.filter(function (item) { return !FORM.test(item); });
  }
  function kept(value) {
    try {
      return value ? sessionStorage.setItem(draft, value) : sessionStorage.getItem(draft) || "";
    } catch (error) {
      // Storage refused (private mode, full): a reload starts the game afresh.
      return "";
    }
  }
  document.addEventListener("change", function (event) {
    if (entry && event.target.closest("#entry-fields")) kept(state().join("&"));
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (entry && kept()) kept(state().join("&"));
  });
  document.addEventListener("DOMContentLoaded", function () {
    var chosen = entry ? kept().split("&") : [];
    var shown = entry ? state() : [];
    if (!entry || field(chosen, "names") !== field(shown, "names")) return;
    var moved = field(chosen, "deal") !== field(shown, "deal");
    var tapped = choices(chosen);
    if (moved && tapped.join("&") === choices(shown).join("&")) return;
    // Once htmx has set up the page (its listener came first), so that the preview
    // hears the change.
    setTimeout(function () {
      entry.querySelectorAll("#entry-fields input:not([type=hidden])").forEach(function (input) {
        input.checked = tapped.indexOf(input.name + "=" + input.value) >= 0;
      });
      var key = field(chosen, "key");
      if (key) entry.querySelector("[name=key]").value = key;
      if (moved) entry.querySelector("[name=deal]").value = field(chosen, "deal");
      ownPartnerHidden(entry);
      // What #preview listens for.
      entry.dispatchEvent(new Event("change"));
    }, 0);
  });
  // 11. On a small phone the first tap, who plays, lies under the save bar: the page
  //     opens at the evening's live part (a word, the deal, the standing), the heading and
  //     the links above it a swipe up, and the Spieler's chips come into view. After a
  //     booking the word above grows and the page keeps what was under the thumb: with
  //     the game's chips gone out of view above, it goes back to the next deal's line
  //     (the save bar says what was booked).
  function entryInView(top) {
    var who = entry && entry.querySelector(".f-declarer .chips");
    var what = entry && entry.querySelector(".f-spiel");
    if (!who || !top) return;
    var bar = entry.querySelector(".savebar").getBoundingClientRect();
    var hidden = who.getBoundingClientRect().bottom > bar.top;
    if (hidden || (what && what.getBoundingClientRect().top < 0)) top.scrollIntoView();
  }
  document.addEventListener("DOMContentLoaded", function () {
    if (!location.hash) entryInView(document.getElementById("live"));
  });
  document.addEventListener("entryBooked", function () {
    // Once the answer is in place.
    setTimeout(function () { entryInView(document.getElementById("deal")); }, 0);
  });
})();
