// Starting an evening: the first dealer's chips name whoever has been put at each place
// ("Vroni" rather than "Platz 2"), and places left empty offer no chip once anyone is
// seated. Without JavaScript the chips say "Platz 1" to "Platz 6".
(function () {
  "use strict";

  var form = document.querySelector("form.start-evening");
  if (!form) return;

  function chipOf(place) {
    var input = form.querySelector("input[name='first_dealer'][value='" + place + "']");
    return input && input.closest("label");
  }

  function update() {
    var seats = form.querySelectorAll("select[name^='seat']");
    var anyone = Array.prototype.some.call(seats, function (select) { return select.value; });
    seats.forEach(function (select) {
      var chip = chipOf(select.name.slice(4));
      if (!chip) return;
      var text = chip.querySelector("span");
      if (!text.dataset.place) text.dataset.place = text.textContent;
      text.textContent = select.value ? select.selectedOptions[0].text : text.dataset.place;
      chip.hidden = anyone && !select.value;
    });
  }

  form.addEventListener("change", function (event) {
    if (event.target.matches("select[name^='seat']")) update();
  });
  update();
})();
