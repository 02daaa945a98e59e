import pageSource from "./save.js?raw";
import workerSource from "./sw.js?raw";

// The offline visit's JavaScript (decision 087), kept readable in `sw.js` and `save.js` and served without
// their comment lines and indentation. Together with the tour page's inline bootstrap they stay under
// 6 KB gzipped (a unit test measures it).

function compact(source: string): string {
  return source
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("//"))
    .join("\n");
}

/** `/sw.js`. */
export const SERVICE_WORKER = compact(workerSource);
/** `/offline.js`: the save control, loaded when the visitor asks. */
export const SAVE_SCRIPT = compact(pageSource);

/**
 * Inline on the tour page (with the page's nonce): shows the button where a service worker can run, and
 * loads `/offline.js` when it is pressed, or at once on a phone that already saved a tour.
 */
export const OFFLINE_BOOTSTRAP = `(function(){var d=document,b=d.getElementById("v-offline-save"),n=navigator.serviceWorker;if(!b||!n||!window.caches)return;b.hidden=false;
function l(){if(d.getElementById("v-offline-js"))return;var s=d.createElement("script");s.id="v-offline-js";s.src="/offline.js";d.body.appendChild(s)}
b.addEventListener("click",function(){b.setAttribute("data-asked","1");l()},{once:true});n.getRegistration("/").then(function(r){if(r)l()})})();`;
