// The "Save this tour for offline" control (issue 21 §3, decision 087): loaded from the tour page only when
// the visitor presses the button (or has saved a tour before). It asks the size first, then has the
// service worker save the tour, showing progress, then "ready offline" and a button to remove it.
(function () {
  var d = document,
    b = d.getElementById("v-offline-save"),
    st = d.getElementById("v-offline-status"),
    bar = d.getElementById("v-offline-progress"),
    sw = navigator.serviceWorker;
  if (!b || !st || !bar || !sw || b.getAttribute("data-on")) return;
  b.setAttribute("data-on", "1");
  var s = b.dataset,
    link = s.link,
    lang = s.lang,
    busy = false;
  function size(n) {
    try {
      return new Intl.NumberFormat(lang, { style: "unit", unit: "megabyte", maximumFractionDigits: 1 }).format(Math.max(0.1, n / 1e6));
    } catch {
      return (n / 1e6).toFixed(1) + " MB";
    }
  }
  function pct(x) {
    return new Intl.NumberFormat(lang, { style: "percent" }).format(x);
  }
  // A machine-translated string may have lost its {placeholder}: the value then goes after it.
  function put(t, k, v) {
    return t.indexOf("{" + k + "}") < 0 ? t + " " + v : t.replace("{" + k + "}", v);
  }
  function say(t) {
    st.textContent = t;
  }
  // The same button changes role, so focus stays where the visitor is; aria-disabled keeps it focusable.
  function button(label, next) {
    b.textContent = label;
    busy = false;
    b.removeAttribute("aria-disabled");
    b.onclick = function () {
      if (!busy) next();
    };
  }
  function wait() {
    busy = true;
    b.setAttribute("aria-disabled", "true");
  }
  function fail() {
    bar.hidden = true;
    say(s.failed);
    button(s.label, ask);
  }
  function ready(savedAt) {
    bar.hidden = true;
    say(put(s.readyText, "date", new Date(savedAt + 30 * 864e5).toLocaleDateString(lang, { day: "numeric", month: "long", year: "numeric" })));
    button(s.remove, function () {
      wait();
      sw.ready.then(function (r) {
        r.active.postMessage({ type: "remove", link: link });
      });
    });
  }
  function ask() {
    wait();
    fetch("/t/" + encodeURIComponent(link) + "/offline.json?lang=" + encodeURIComponent(lang))
      .then(function (r) {
        if (!r.ok) throw new Error(String(r.status));
        return r.json();
      })
      .then(function (m) {
        var total = size(m.bytes.estimated);
        say(put(s.size, "size", total));
        button(put(s.confirm, "size", total), save);
      }, fail);
  }
  function save() {
    wait();
    bar.value = 0;
    bar.hidden = false;
    say(put(s.saving, "percent", pct(0)));
    sw.register("/sw.js")
      .then(function () {
        return sw.ready;
      })
      .then(function (r) {
        r.active.postMessage({ type: "save", link: link, lang: lang });
      })
      .catch(fail);
  }
  sw.addEventListener("message", function (e) {
    var m = e.data || {};
    if (m.link !== link) return;
    if (m.type === "progress") {
      bar.max = m.total;
      bar.value = m.done;
      say(put(s.saving, "percent", pct(m.done / m.total)));
    } else if (m.type === "saved") {
      ready(m.savedAt);
    } else if (m.type === "removed") {
      say(s.removed);
      button(s.label, ask);
    } else if (m.type === "failed") {
      fail();
    }
  });
  sw.startMessages();
  // Views made offline are sent as soon as the connection returns (and on the next page load otherwise).
  addEventListener("online", function () {
    if (sw.controller) sw.controller.postMessage({ type: "flush" });
  });
  button(s.label, ask);
  caches
    .open("muselingo-offline-meta")
    .then(function (c) {
      return c.match("/__tour/" + link);
    })
    .then(function (r) {
      return r && r.json();
    })
    .then(function (t) {
      if (t) ready(t.savedAt);
      else if (b.getAttribute("data-asked")) ask();
    });
})();
