// Starting an evening: the first dealer's chips name whoever has been put at each place
// ("Vroni" rather than "Platz 2"), and places left empty offer no chip once anyone is
// seated. The first dealer is a person: moved to another place, the choice goes with
// them. Without JavaScript the chips say "Platz 1" to "Platz 6".
(function () {
  "use strict";

  var form = document.querySelector("form.start-evening");
  if (!form) return;

  function seats() {
    return Array.prototype.slice.call(form.querySelectorAll("select[name^='seat']"));
  }

  function radioOf(place) {
    return form.querySelector("input[name='first_dealer'][value='" + place + "']");
  }

  function chosen() {
    var checked = form.querySelector("input[name='first_dealer']:checked");
    var select = checked && form.querySelector("select[name='seat" + checked.value + "']");
    return (select && select.value) || null;
  }

  function update() {
    var anyone = seats().some(function (select) { return select.value; });
    seats().forEach(function (select) {
      var radio = radioOf(select.name.slice(4));
      var chip = radio && radio.closest("label");
      if (!chip) return;
      var text = chip.querySelector("span");
      if (!text.dataset.place) text.dataset.place = text.textContent;
      text.textContent = select.value ? select.selectedOptions[0].text : text.dataset.place;
      chip.hidden = anyone && !select.value;
    });
  }

  // Who was chosen to deal first: set by a tap on a chip, kept while seats change (a
  // swap takes two changes, with the dealer seated nowhere in between). Until a chip is
  // tapped, the place the form chose ("Platz 1") deals once someone sits there, not
  // whoever was seated last (walk 33).
  // `place`: the chair the dealer sits in, or sat in last (walk 76: emptied, then taken by
  // another, it went on to the next one).
  var dealer = chosen();
  var checkedFirst = form.querySelector("input[name='first_dealer']:checked");
  var place = checkedFirst ? checkedFirst.value : "0";
  form.addEventListener("change", function (event) {
    if (event.target.matches("input[name='first_dealer']")) {
      dealer = chosen();
      place = event.target.value;
    } else if (event.target.matches("select[name^='seat']")) {
      var at = dealer && seats().find(function (select) { return select.value === dealer; });
      if (at) place = at.name.slice(4);
      var radio = at ? radioOf(place) : nextSeated(place);
      if (radio) radio.checked = true;
      update();
      settled();
    }
  });
  // The one to deal left the table (seated nowhere now): the deal goes by the chair, as at
  // the table, to whoever took theirs (walk 75: Wastl in Hias's place, and the deal
  // skipped him), else to whoever sits next clockwise; not a chip nobody sees still
  // chosen (refused when sent). Should the dealer sit down again, the choice goes back to
  // them (above). `from` (a place): that place if someone sits there, else the next.
  function nextSeated(from) {
    var places = seats();
    for (var step = 0; step < places.length; step += 1) {
      var select = places[(Number(from) + step) % places.length];
      if (select.value) return radioOf(select.name.slice(4));
    }
    return null;
  }
  // A place said to be taken twice ("Sepp sitzt schon auf Platz 2"): once its player sits
  // there alone, or it is changed, its word goes, rather than stay red until sent again.
  function settled() {
    var values = seats().map(function (select) { return select.value; });
    seats().forEach(function (select) {
      var twice = select.value && values.indexOf(select.value) !== values.lastIndexOf(select.value);
      var error = document.getElementById(select.id + "_error");
      if (select.getAttribute("aria-invalid") !== "true" || twice || !error) return;
      var described = (select.getAttribute("aria-describedby") || "").split(" ")
        .filter(function (id) { return id && id !== error.id; }).join(" ");
      select.removeAttribute("aria-invalid");
      if (described) select.setAttribute("aria-describedby", described);
      else select.removeAttribute("aria-describedby");
      error.remove();
    });
  }
  update();
})();
