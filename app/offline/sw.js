// Muselingo's service worker (issue 21 §3, decisions 087 and 088). Registered only when a visitor saves a
// tour. Saved tours live in Cache Storage, one cache per tour version; their records, the queue of views
// made offline and this phone's client id live in the META cache as small JSON responses.
var P = "muselingo-",
  META = P + "offline-meta",
  DAY = 864e5,
  KEEP_DAYS = 30,
  WAIT_MS = 4000;
var chain = Promise.resolve(),
  flushing = null;

// One change of the records at a time (fetch events interleave at every await).
function lock(f) {
  var r = chain.then(f);
  chain = r.catch(function () {});
  return r;
}
function meta() {
  return caches.open(META);
}
function read(key) {
  return meta()
    .then(function (c) {
      return c.match(key);
    })
    .then(function (r) {
      return r ? r.json() : null;
    });
}
function write(key, value) {
  return meta().then(function (c) {
    return value === null ? c.delete(key) : c.put(key, new Response(JSON.stringify(value), { headers: { "Content-Type": "application/json" } }));
  });
}
function tours() {
  return meta().then(function (c) {
    return c.keys().then(function (keys) {
      return Promise.all(
        keys
          .filter(function (k) {
            return new URL(k.url).pathname.indexOf("/__tour/") === 0;
          })
          .map(function (k) {
            return c.match(k).then(function (r) {
              return r.json();
            });
          }),
      );
    });
  });
}
// A saved tour is removed this many days after the visitor saved it; a refresh keeps the date.
function expired(tour, now) {
  return now - tour.savedAt > KEEP_DAYS * DAY;
}
// Views made offline, kept at most 30 days and 500 (the server refuses older ones).
function pruned(views, now) {
  return views
    .filter(function (v) {
      return now - v.at <= KEEP_DAYS * DAY;
    })
    .slice(-500);
}
// The saved stop a keypad number leads to, or null (not a stop of a saved tour). `saved` comes with the tour
// the keypad was opened from first (decision 113), so a number leads into that tour as it does online.
function keypadTarget(saved, path, number) {
  var n = /^\s*0*([0-9]+)\s*$/.exec(number);
  number = n ? n[1] : number;
  for (var i = 0; i < saved.length; i++) {
    var k = saved[i].keypad;
    if (k.page === path && Object.prototype.hasOwnProperty.call(k.numbers, number)) return k.numbers[number];
  }
  return null;
}
// The tour named by `?tour=` first, then the most recently saved.
function ordered(saved, tour) {
  return saved.sort(function (a, b) {
    return (b.link === tour) - (a.link === tour) || b.savedAt - a.savedAt;
  });
}
function esc(t) {
  return String(t).replace(/[&<>"]/g, function (c) {
    return "&#" + c.charCodeAt(0) + ";";
  });
}
// Videos are not saved: the saved page says so where the player was (decision 087).
function withoutVideos(html, notice) {
  return html.replace(/<video[\s\S]*?<\/video>/g, '<p class="v-notice" role="note">' + esc(notice) + "</p>");
}

// A narration the tour did not save: its player becomes a notice, so it never fails without a word (decision 113).
function withoutNarration(html, saved, notice) {
  return html.replace(/<div class="v-listen">[\s\S]*?<\/audio><\/div>/g, function (player) {
    var src = /src="([^"]*)"/.exec(player);
    return src && saved[src[1]] ? player : '<p class="v-notice" role="note">' + esc(notice) + "</p>";
  });
}

// The address of a tour's manifest; with a pass asked for when the copy has none yet (decision 118).
function manifestUrl(link, lang, pass) {
  return "/t/" + encodeURIComponent(link) + "/offline.json?lang=" + encodeURIComponent(lang) + (pass ? "" : "&pass=1");
}
// A refresh keeps the copy's first save date and pass: its views count from the day it was saved.
function save(link, lang, report, savedAt, pass) {
  return fetch(manifestUrl(link, lang, pass), { cache: "no-store" })
    .then(function (r) {
      if (!r.ok) throw new Error("manifest " + r.status);
      return r.json();
    })
    .then(function (m) {
      var name = P + "tour-" + m.link + "@" + m.version,
        list = m.entries.concat([m.offlinePage]),
        i = 0,
        done = 0,
        bytes = 0,
        files = {},
        failed = false;
      list.forEach(function (e) {
        files[e.key] = 1;
      });
      return caches
        .open(name)
        .then(function (cache) {
          // After one file failed, the other fetches under way stop: no progress is told after "failed".
          function next() {
            if (i >= list.length || failed) return null;
            var e = list[i++];
            return fetch(e.url, { headers: { "X-Muselingo-Save": "1" } })
              .then(function (r) {
                if (!r.ok) throw new Error(e.url + " " + r.status);
                var type = r.headers.get("Content-Type") || "";
                return (
                  e.kind === "page"
                    ? r.text().then(function (t) {
                        return new Blob([withoutNarration(withoutVideos(t, m.strings.video), files, m.strings.narration)], { type: type });
                      })
                    : r.blob()
                ).then(function (blob) {
                  bytes += blob.size;
                  return cache.put(e.key, new Response(blob, { headers: { "Content-Type": type } }));
                });
              })
              .then(
                function () {
                  done++;
                  if (report && !failed) report(done, list.length, bytes);
                  return next();
                },
                function (error) {
                  failed = true;
                  throw error;
                },
              );
          }
          return Promise.all([next(), next(), next(), next()]);
        })
        .then(
          function () {
            var now = Date.now(),
              record = {
                link: m.link,
                lang: m.lang,
                name: m.name,
                version: m.version,
                cache: name,
                savedAt: savedAt || now,
                pass: pass || m.pass || null,
                checkedAt: now,
                bytes: bytes,
                keypad: m.keypad,
                offline: m.offlinePage.key,
              };
            return lock(function () {
              return write("/__tour/" + m.link, record);
            })
              .then(function () {
                return dropCaches(m.link, name);
              })
              .then(function () {
                return record;
              });
          },
          function (error) {
            return caches.delete(name).then(function () {
              throw error;
            });
          },
        );
    });
}
// Deletes the caches of a tour but `keep` (an older version after a refresh, or all of them).
function dropCaches(link, keep) {
  return caches.keys().then(function (names) {
    return Promise.all(
      names
        .filter(function (n) {
          return n.indexOf(P + "tour-" + link + "@") === 0 && n !== keep;
        })
        .map(function (n) {
          return caches.delete(n);
        }),
    );
  });
}
function remove(link) {
  return lock(function () {
    return write("/__tour/" + link, null);
  }).then(function () {
    return dropCaches(link, null);
  });
}

// Online again: expired tours go, a tour staff changed is saved again (at most once an hour), the queue is sent.
function online() {
  var now = Date.now();
  return tours()
    .then(function (saved) {
      return Promise.all(
        saved.map(function (t) {
          if (expired(t, now)) return remove(t.link);
          if (now - t.checkedAt < 36e5) return null;
          return lock(function () {
            t.checkedAt = now;
            return write("/__tour/" + t.link, t);
          })
            .then(function () {
              return fetch(manifestUrl(t.link, t.lang, t.pass), { cache: "no-store" });
            })
            .then(function (r) {
              if (r.status === 404) return remove(t.link);
              return (
                r.ok &&
                r.json().then(function (m) {
                  if (m.version !== t.version) return save(t.link, t.lang, null, t.savedAt, t.pass || m.pass);
                  // A copy saved before passes existed gets one now: its views from here on count.
                  if (!t.pass && m.pass)
                    return lock(function () {
                      t.pass = m.pass;
                      return write("/__tour/" + t.link, t);
                    });
                })
              );
            });
        }),
      );
    })
    .catch(function () {})
    .then(flush);
}
function client() {
  return read("/__client").then(function (c) {
    if (c) return c.id;
    var id = self.crypto.randomUUID();
    return write("/__client", { id: id }).then(function () {
      return id;
    });
  });
}
function flush() {
  if (flushing) return flushing;
  flushing = read("/__queue")
    .then(function (views) {
      views = pruned(views || [], Date.now()).slice(0, 100);
      if (!views.length) return null;
      return client()
        .then(function (id) {
          return fetch("/api/visit/offline_views", {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ client: id, views: views }),
          });
        })
        .then(function (r) {
          // Sent, or refused for good (a 4xx other than 429 will never pass): those views leave the queue.
          if (r.ok || (r.status >= 400 && r.status < 500 && r.status !== 429)) {
            return lock(function () {
              return read("/__queue").then(function (now) {
                return write(
                  "/__queue",
                  (now || []).filter(function (v) {
                    return !views.some(function (s) {
                      return s.path === v.path && s.at === v.at;
                    });
                  }),
                );
              });
            });
          }
        });
    })
    .catch(function () {})
    .then(function () {
      flushing = null;
    });
  return flushing;
}
// A view of a saved page, with its copy's pass (without one the server accepts it and does not count it).
function queue(path, lang, pass) {
  return lock(function () {
    return read("/__queue").then(function (views) {
      var now = Date.now(),
        view = { path: path, lang: lang, at: now };
      if (pass) view.pass = pass;
      return write("/__queue", pruned((views || []).concat([view]), now));
    });
  });
}

// A page with no connection: a saved page, the keypad's answer, or the offline page of the last saved tour.
function fromSaved(url) {
  return tours().then(function (saved) {
    ordered(saved, url.searchParams.get("tour"));
    var path = url.pathname,
      number = url.searchParams.get("number");
    if (number !== null) {
      var target = keypadTarget(saved, path, number);
      if (target) return Response.redirect(new URL(target, self.location.origin).href, 302);
    }
    return saved
      .reduce(function (found, t) {
        return found.then(function (hit) {
          return (
            hit ||
            (number === null &&
              caches
                .open(t.cache)
                .then(function (c) {
                  return c.match(path);
                })
                .then(function (r) {
                  if (r && /^\/t\//.test(path)) queue(path, t.lang, t.pass);
                  return r;
                }))
          );
        });
      }, Promise.resolve(null))
      .then(function (hit) {
        if (hit || !saved.length) return hit;
        return caches.open(saved[0].cache).then(function (c) {
          return c.match(saved[0].offline);
        });
      });
  });
}
function timeout(promise, ms) {
  return new Promise(function (resolve, reject) {
    setTimeout(reject, ms);
    promise.then(resolve, reject);
  });
}
function page(e, url) {
  var net = fetch(e.request);
  return timeout(net, WAIT_MS)
    .then(
      function (r) {
        e.waitUntil(online());
        return r;
      },
      function () {
        return fromSaved(url).then(function (hit) {
          return hit || net;
        });
      },
    )
    .catch(function () {
      return new Response("Offline", { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    });
}
// One byte range of a saved file (206), as the server answers it: audio players ask for ranges.
function ranged(req, r) {
  var m = /^bytes=(\d*)-(\d*)$/.exec(req.headers.get("Range") || "");
  if (!m || (!m[1] && !m[2])) return r;
  return r.blob().then(function (b) {
    var size = b.size,
      from = m[1] ? +m[1] : Math.max(0, size - +m[2]),
      to = m[1] && m[2] ? Math.min(+m[2], size - 1) : size - 1;
    if (from >= size || from > to) return new Response("", { status: 416, headers: { "Content-Range": "bytes */" + size } });
    return new Response(b.slice(from, to + 1), {
      status: 206,
      headers: { "Content-Type": r.headers.get("Content-Type") || "", "Content-Range": "bytes " + from + "-" + to + "/" + size, "Accept-Ranges": "bytes" },
    });
  });
}
// Files: a saved copy first (media keys never change); a video or anything unsaved needs the network.
function file(req) {
  return tours()
    .then(function (saved) {
      return saved.reduce(function (found, t) {
        return found.then(function (hit) {
          return (
            hit ||
            caches.open(t.cache).then(function (c) {
              return c.match(req.url.slice(self.location.origin.length));
            })
          );
        });
      }, Promise.resolve(null));
    })
    .then(function (hit) {
      return hit
        ? ranged(req, hit)
        : fetch(req).catch(function () {
            return new Response("", { status: 503 });
          });
    });
}

self.addEventListener("install", function () {
  self.skipWaiting();
});
self.addEventListener("activate", function (e) {
  e.waitUntil(self.clients.claim().then(online));
});
self.addEventListener("fetch", function (e) {
  var url = new URL(e.request.url),
    p = url.pathname;
  if (e.request.method !== "GET" || url.origin !== self.location.origin) return;
  if (e.request.mode === "navigate") {
    if (/^\/(t|v|r)\//.test(p)) e.respondWith(page(e, url));
  } else if (p.indexOf("/media/") === 0 || p.indexOf("/narration/") === 0 || p === "/vtt") {
    e.respondWith(file(e.request));
  }
});
self.addEventListener("message", function (e) {
  var d = e.data || {},
    to = e.source;
  function tell(m) {
    m.link = d.link;
    if (to) to.postMessage(m);
  }
  if (d.type === "save") {
    e.waitUntil(
      save(d.link, d.lang, function (done, total, bytes) {
        tell({ type: "progress", done: done, total: total, bytes: bytes });
      }).then(
        function (t) {
          tell({ type: "saved", savedAt: t.savedAt, bytes: t.bytes });
        },
        function () {
          tell({ type: "failed" });
        },
      ),
    );
  } else if (d.type === "remove") {
    e.waitUntil(
      remove(d.link).then(function () {
        tell({ type: "removed" });
      }),
    );
  } else if (d.type === "flush") {
    e.waitUntil(flush());
  }
});
