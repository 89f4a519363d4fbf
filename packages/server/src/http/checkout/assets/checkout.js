// Akwe checkout: progressive enhancement only; the page works without this file.
// 1. The phone field is checked while the customer types (a light check; the server decides).
// 2. While the payment waits (approval or code), its status is polled and the page updated in place.
// 3. A form cannot be sent twice.
(function () {
  'use strict';
  var flow = document.getElementById('flow');
  if (!flow) return;
  var POLL_MS = 3000;

  function enhance() {
    var phone = document.getElementById('phone');
    if (phone && phone.dataset.pattern) {
      var pattern = new RegExp(phone.dataset.pattern);
      var size = Number(phone.dataset.digits) || 8;
      var check = function (final) {
        var digits = phone.value.replace(/[\s.\-()]/g, '');
        // International forms (+229..., 00229...) are left to the server.
        var international = digits.charAt(0) === '+' || digits.indexOf('00') === 0;
        var ok = digits === '' || international || pattern.test(digits);
        // While typing, a number is judged once it has all its digits (or a character that is no digit).
        var invalid = !ok && (final || digits.length >= size || /[^0-9+]/.test(digits));
        phone.setCustomValidity(invalid ? phone.dataset.message : '');
        phone.setAttribute('aria-invalid', invalid ? 'true' : 'false');
        var hint = document.getElementById('phone-hint');
        if (hint) {
          if (!hint.dataset.text) hint.dataset.text = hint.textContent;
          hint.textContent = invalid ? phone.dataset.message : hint.dataset.text;
          hint.className = invalid ? 'hint notice' : 'hint';
        }
        return !invalid;
      };
      phone.addEventListener('input', function () {
        check(false);
      });
      phone.addEventListener('blur', function () {
        check(true);
      });
      phone.form.addEventListener('submit', function (event) {
        if (!check(true)) {
          event.preventDefault();
          phone.focus();
        }
      });
    }
    var forms = flow.querySelectorAll('form');
    for (var i = 0; i < forms.length; i++) {
      forms[i].addEventListener('submit', function (event) {
        if (event.defaultPrevented) return;
        var button = event.target.querySelector('button[type=submit]');
        if (button) {
          setTimeout(function () {
            button.disabled = true;
          }, 0);
        }
      });
    }
  }

  function waitingState(state) {
    return state === 'waiting' || state === 'code';
  }

  function poll() {
    var url = flow.dataset.statusUrl;
    if (!url || !window.fetch) return;
    fetch(url, { headers: { accept: 'application/json' }, cache: 'no-store', credentials: 'same-origin' })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (status) {
        if (status && status.state !== flow.dataset.state) {
          flow.innerHTML = status.html;
          flow.dataset.state = status.state;
          enhance();
          var focus = flow.querySelector('h1, #otp');
          if (focus && focus.id === 'otp') focus.focus();
        }
        if (waitingState(flow.dataset.state)) setTimeout(poll, POLL_MS);
      })
      .catch(function () {
        setTimeout(poll, POLL_MS * 2);
      });
  }

  enhance();
  if (waitingState(flow.dataset.state)) setTimeout(poll, POLL_MS);
})();
